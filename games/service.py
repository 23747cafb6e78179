"""The game service: load -> decide -> append, for any game in ``games.core``.

Every command is idempotent (its id is unique per game), attributable (actor, seat,
request metadata) and logged whether accepted or refused. A race with another writer is
retried by reloading and deciding again; the client hears of it only if the command is no
longer legal.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from events.chain import GENESIS
from events.models import CommandRecord, Snapshot, StoredEvent
from events.store import (
    UNDONE,
    Also,
    CommandSeenBefore,
    ConcurrencyConflict,
    NewEvent,
    TailRow,
    append,
    append_command,
    read,
    read_snapshot_and_tail,
    read_tail,
    undone_seqs,
)
from games import cache, selectors
from games.core import GameDefinition, get_game
from games.errors import ServiceError
from games.family_business.errors import RuleViolation
from games.models import GameClock, Table

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
BOT_STEP_LIMIT = 100_000
SYSTEM = "system"
_IDS = uuid.UUID("6f1e2a56-58a4-4e43-9d5c-3f1f0f3b1a10")  # namespace of derived command ids

Refusal = RuleViolation | ServiceError


def clock_ms() -> int:
    return int(time.time() * 1000)


def derived_command_id(game_id: uuid.UUID, purpose: str) -> uuid.UUID:
    """A command id fixed by what the command is for, so that two workers doing the same
    thing (closing one window, moving one bot) issue one command, not two."""
    return uuid.uuid5(_IDS, f"{game_id}:{purpose}")


@dataclass(frozen=True)
class LoadedGame:
    table: Table
    definition: GameDefinition
    state: Any
    version: int  # the stream's latest sequence number (undo markers included)
    # the hash of event ``version`` (None only for an empty stream): the next append
    # chains to it without reading it again, and a cached game is checked against it
    last_hash: str | None = field(default=None, compare=False)
    # the command that appended the latest events, if the load saw them (for undo)
    last_command: selectors.LastCommand | None = field(default=None, compare=False)


@dataclass(frozen=True)
class CommandOutcome:
    game_id: uuid.UUID
    command_id: uuid.UUID
    first_seq: int  # the events the command appended (0 when it appended none)
    last_seq: int
    replayed: bool  # True when this is the stored answer to a retried command
    # What the command appended, and the game right after it (when nothing, a bot say,
    # has moved it since in this call): the API answers from them without re-reading.
    rows: tuple[StoredEvent, ...] | None = field(default=None, compare=False, repr=False)
    loaded: LoadedGame | None = field(default=None, compare=False, repr=False)

    def events(self) -> list[StoredEvent]:
        if not self.first_seq:
            return []
        if self.rows is not None:
            return list(self.rows)
        return read(self.game_id, after=self.first_seq - 1, upto=self.last_seq)


class _WindowOverdue(Exception):  # noqa: N818 - control flow, never leaves this module
    def __init__(self, window_id: str, deadline: int) -> None:
        self.window_id = window_id
        self.deadline = deadline


# --- loading -----------------------------------------------------------------------------


def table_get(game_id: uuid.UUID | str, *, seats: bool = False) -> Table:
    """The table; with ``seats``, its seats too (in the same query: then ``bot_seats`` is
    free however often it is asked)."""
    try:
        if seats:
            return selectors.table_detail(game_id)  # type: ignore[arg-type]
        return Table.objects.get(id=game_id)
    except (Table.DoesNotExist, ServiceError, ValueError, TypeError, ValidationError):
        raise ServiceError("game_not_found", "No game has that id.", game=str(game_id)) from None


def to_new_event(definition: GameDefinition, event: Any) -> NewEvent:
    data = definition.encode_event(event)
    kind = data.pop("type")
    return NewEvent(type=f"{definition.name}.{kind}", payload=data)


def from_row(definition: GameDefinition, row: StoredEvent | TailRow) -> Any:
    kind = row.type.split(".", 1)[1]
    return definition.decode_event({"type": kind, **row.payload})


def game_load(
    *,
    game_id: uuid.UUID,
    upto: int | None = None,
    use_snapshots: bool = True,
    table: Table | None = None,
) -> LoadedGame:
    """The state after event ``upto`` (default: the latest). Undone ranges are skipped
    once their undo is recorded.

    The latest state: this process's cached fold of the game extended by the events after
    it, in one query that also re-reads the hash of the cached version (``games.cache``).
    Otherwise, and for ``upto``: the latest usable snapshot plus the events after it (one
    statement), or every event without snapshots."""
    table = table or table_get(game_id)
    definition = get_game(table.game)
    latest = upto is None and use_snapshots
    if latest:
        cached = cache.games.get(table.id)
        if cached is not None and cached.definition is definition:
            loaded = _extended(cached, table)
            if loaded is not None:
                return loaded
    loaded = _folded(table, definition, upto=upto, use_snapshots=use_snapshots)
    if latest and loaded.last_hash is not None:
        cache.games.put(table.id, loaded)
    return loaded


def _extended(cached: LoadedGame, table: Table) -> LoadedGame | None:
    """``cached`` with the events stored after it, or None if it is not the start of this
    stream any more (then it is dropped) or an undo follows it (a full load skips it)."""
    rows = read_tail(table.id, since=cached.version)
    if not rows or rows[0].seq != cached.version or rows[0].hash != cached.last_hash:
        cache.games.discard(table.id)
        return None
    new = rows[1:]
    if not new:
        return replace(cached, table=table)
    if any(row.type == UNDONE for row in new):
        return None
    definition = cached.definition
    state = cached.state
    for row in new:
        state = definition.evolve(state, from_row(definition, row))
    last = selectors.last_command(new, table.game)
    loaded = LoadedGame(table, definition, state, new[-1].seq, new[-1].hash, last)
    cache.games.put(table.id, loaded)
    return loaded


def _folded(
    table: Table, definition: GameDefinition, *, upto: int | None, use_snapshots: bool
) -> LoadedGame:
    if use_snapshots:
        snapshot, rows = read_snapshot_and_tail(
            table.id, rules_version=definition.rules_version, upto=upto
        )
    else:
        snapshot, rows = None, read_tail(table.id, since=0, upto=upto)
    since = snapshot[0] if snapshot else 0
    skipped = undone_seqs(rows)
    if snapshot is not None and any(seq <= since for seq in skipped):
        snapshot, since = None, 0  # an undo reaches behind the snapshot: replay from the start
        rows = read_tail(table.id, since=0, upto=upto)
        skipped = undone_seqs(rows)
    state = definition.decode_state(snapshot[1]) if snapshot else definition.empty_state()
    after = [row for row in rows if row.seq > since]  # the snapshot's own event is folded in
    for row in after:
        if row.seq not in skipped:
            state = definition.evolve(state, from_row(definition, row))
    if not rows:
        return LoadedGame(table, definition, state, 0)
    last = selectors.last_command(after, table.game) if upto is None else None
    return LoadedGame(table, definition, state, rows[-1].seq, rows[-1].hash, last)


def _maybe_snapshot(loaded: LoadedGame, state: Any, old: int, new: int) -> None:
    """A snapshot when the stream crosses a multiple of ``FB_SNAPSHOT_EVERY``."""
    every = settings.FB_SNAPSHOT_EVERY
    if every and new // every > old // every:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO events_snapshot (stream_id, version, rules_version, state, "
                "created_at) VALUES (%s, %s, %s, %s::jsonb, now()) ON CONFLICT DO NOTHING",
                [
                    loaded.table.id,
                    new,
                    loaded.definition.rules_version,
                    json.dumps(loaded.definition.encode_state(state)),
                ],
            )


# --- commands ----------------------------------------------------------------------------


def _prior_outcome(
    game_id: uuid.UUID, command_id: uuid.UUID, actor: str, payload: Mapping[str, Any]
) -> CommandOutcome | None:
    record = CommandRecord.objects.filter(stream_id=game_id, command_id=command_id).first()
    if record is None:
        return None
    if record.actor != actor or not _same_command(record.command, payload):
        raise ServiceError(
            "idempotency_key_reused",
            "That idempotency key was used for a different command.",
            command_id=str(command_id),
        )
    if record.outcome == CommandRecord.REFUSED:
        raise _stored_refusal(record)
    if actor.startswith("user:"):
        # A client's retry: its first answer may have been lost with the web process that
        # committed the command before sending the tasks it called for.
        _resend_timers(game_id)
    return CommandOutcome(
        game_id, command_id, record.first_seq or 0, record.last_seq or 0, replayed=True
    )


def _stored_refusal(record: CommandRecord) -> Refusal:
    data = dict(record.error_data)
    service = data.pop("_service", False)
    data = {k: v for k, v in data.items() if not k.startswith("_")}
    refusal: Refusal
    if service:
        refusal = ServiceError(record.error_code, record.error_message, **data)
    else:
        refusal = RuleViolation(record.error_code, record.error_message, **data)
    refusal.replayed = True  # type: ignore[union-attr]  # the API says Idempotent-Replayed
    return refusal


# A refused command is logged, but anyone can send junk: what is stored of it is bounded.
# Up to these sizes (bytes of JSON) a refused command and its refusal's data are kept
# whole; above, a summary (type, size, field names, digest) and a mark that data was cut.
STORED_COMMAND_BYTES = 2048
STORED_ERROR_BYTES = 2048
STORED_MESSAGE_CHARS = 500


def _digest(payload: Mapping[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _stored_command(payload: Mapping[str, Any]) -> dict[str, Any]:
    """What the log keeps of a refused command: itself, or a bounded summary whose digest
    still recognises a retry of the same command (``_same_command``)."""
    size = len(json.dumps(payload, default=str).encode())
    if size <= STORED_COMMAND_BYTES:
        return dict(payload)
    kind = payload.get("type")
    return {
        "type": kind if isinstance(kind, str) and len(kind) <= 40 else None,
        "_summary": {
            "bytes": size,
            "fields": [str(k)[:40] for k in list(payload)[:20]],
            "sha256": _digest(payload),
        },
    }


def _same_command(stored: Any, payload: Mapping[str, Any]) -> bool:
    if stored == dict(payload):
        return True
    summary = stored.get("_summary") if isinstance(stored, dict) else None
    return isinstance(summary, dict) and summary.get("sha256") == _digest(payload)


def _stored_error_data(data: dict[str, Any]) -> dict[str, Any]:
    if len(json.dumps(data, default=str).encode()) <= STORED_ERROR_BYTES:
        return data
    return {"_truncated": True, **({"_service": True} if data.get("_service") else {})}


def _log_refusal(
    *,
    game_id: uuid.UUID,
    command_id: uuid.UUID,
    actor: str,
    seat: int | None,
    payload: Mapping[str, Any],
    expected_version: int | None,
    now: int,
    error: Refusal,
    metadata: Mapping[str, Any] | None,
) -> None:
    data = dict(error.data)
    if isinstance(error, ServiceError):
        data["_service"] = True
    try:
        with transaction.atomic():
            CommandRecord.objects.create(
                stream_id=game_id,
                command_id=command_id,
                actor=actor,
                seat=seat,
                command=_stored_command(payload),
                expected_version=expected_version,
                now_ms=now,
                outcome=CommandRecord.REFUSED,
                error_code=error.code,
                error_message=error.message[:STORED_MESSAGE_CHARS],
                error_data=_stored_error_data(_jsonable(data)),
                metadata=dict(metadata or {}),
            )
    except IntegrityError:
        pass  # the same command was logged by a concurrent retry


def _jsonable(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}


def _enrich(game_id: uuid.UUID, definition: GameDefinition, error: Refusal) -> Refusal:
    """A late reaction learns which event closed the window it aimed at."""
    if error.code == "window_closed" and "window" in error.data:
        window = error.data["window"]
        for kind, key in (("CounterPlayed", "winning_seq"), ("WindowClosed", "closed_seq")):
            seq = (
                StoredEvent.objects.filter(
                    stream_id=game_id, type=f"{definition.name}.{kind}", payload__window=window
                )
                .values_list("seq", flat=True)
                .first()
            )
            if seq is not None:
                error.data.setdefault(key, seq)
    return error


def game_command_execute(
    *,
    game_id: uuid.UUID,
    seat: int | None,
    actor: str,
    command: Mapping[str, Any],
    command_id: uuid.UUID,
    expected_version: int | None = None,
    metadata: Mapping[str, Any] | None = None,
    now: int | None = None,
    run_bots: bool = True,
    table: Table | None = None,
) -> CommandOutcome:
    """Decide ``command`` for ``seat`` and append its events; the stored answer if
    ``command_id`` was seen before. Raises ``RuleViolation`` or ``ServiceError``.

    ``table``: the game's table as the caller just read it, with its seats prefetched
    (the API's), which saves reading it again; its status and seats are all that is used
    (a table's seats are fixed once it has started)."""
    if table is None or str(table.id) != str(game_id):
        table = table_get(game_id, seats=True)
    if table.status == Table.Status.OPEN:
        raise ServiceError("not_started", "The table has not started yet.")
    definition = get_game(table.game)
    payload = dict(command)
    clock = (lambda: now) if now is not None else clock_ms
    outcome = None
    try:
        for attempt in range(MAX_ATTEMPTS):
            # The stored answer to a command seen before. The first attempt does not look
            # (most commands are new: one query less): one it would refuse looks before
            # refusing, and one it would accept trips the unique (stream, command id) of
            # the command's record, which rolls its events back and comes here again.
            if attempt:
                prior = _prior_outcome(table.id, command_id, actor, payload)
                if prior is not None:
                    return prior
            try:
                parsed = definition.decode_command(payload)
                outcome = _decide_and_append(
                    table,
                    definition,
                    seat,
                    actor,
                    parsed,
                    payload,
                    command_id,
                    expected_version,
                    metadata,
                    clock(),
                )
                break
            except (ConcurrencyConflict, CommandSeenBefore):
                continue
            except _WindowOverdue as overdue:
                if not attempt and (prior := _prior_outcome(table.id, command_id, actor, payload)):
                    return prior
                close_window(
                    game_id=table.id,
                    window_id=overdue.window_id,
                    deadline=overdue.deadline,
                    now=clock(),
                    run_bots=False,
                    by="command",
                )
            except (RuleViolation, ServiceError):
                if not attempt and (prior := _prior_outcome(table.id, command_id, actor, payload)):
                    return prior
                raise
        else:
            raise ServiceError("busy", "The game is too busy right now; retry the command.")
    except (RuleViolation, ServiceError) as error:
        if error.code not in ("idempotency_key_reused", "busy"):
            error = _enrich(table.id, definition, error)
            _log_refusal(
                game_id=table.id,
                command_id=command_id,
                actor=actor,
                seat=seat,
                payload=payload,
                expected_version=expected_version,
                now=clock(),
                error=error,
                metadata=metadata,
            )
        raise error
    if outcome is None:  # unreachable: the loop either breaks with one or raises
        raise ServiceError("busy", "The game is too busy right now; retry the command.")
    if run_bots and settings.FB_BOTS_INLINE and bots_play(game_id=table.id, table=table):
        outcome = replace(outcome, loaded=None)  # the bots moved the game on since
    return outcome


def _decide_and_append(
    table: Table,
    definition: GameDefinition,
    seat: int | None,
    actor: str,
    command: Any,
    payload: dict[str, Any],
    command_id: uuid.UUID,
    expected_version: int | None,
    metadata: Mapping[str, Any] | None,
    now: int,
) -> CommandOutcome:
    """Load, decide, and append the events with the command's record, the game's clock
    row (and the table's end) in one statement: no transaction is held open while the
    rules decide. Two commands that raced from the same version cannot both land: the
    second one's first event trips the unique (stream, seq) and it is decided again."""
    loaded = game_load(game_id=table.id, table=table)
    window = getattr(loaded.state, "window", None)
    if window is not None and now >= window.deadline and payload["type"] != "close_window":
        # Close an overdue window first (in its own command), so nobody acts on it.
        raise _WindowOverdue(window.id, window.deadline)
    stale = expected_version is not None and expected_version != loaded.version
    if stale and getattr(command, "window", None) is None:
        # A reaction names its window, which guards it; anything else must be current.
        # Checked before the rules: a client acting on an old version learns that first
        # (not, say, not_your_turn because the turn has passed since).
        raise ServiceError(
            "stale_version",
            "The game has moved on; refetch its state.",
            current_version=loaded.version,
            expected_version=expected_version,
        )
    events = definition.decide(loaded.state, seat, command, now=now)
    state = loaded.state
    for event in events:
        state = definition.evolve(state, event)
    last = loaded.version + len(events)
    clock = clock_row(table, definition, state, now)
    also = [clock_upsert(table.id, last, clock)]
    if getattr(state, "over", False) and table.status != Table.Status.FINISHED:
        also.append(
            Also(
                "UPDATE games_table SET status = %s WHERE id = %s RETURNING id",
                [Table.Status.FINISHED, table.id],
            )
        )
    rows, returned = append_command(
        stream_id=table.id,
        expected_version=loaded.version,
        prev_hash=loaded.last_hash or GENESIS,
        events=[to_new_event(definition, e) for e in events],
        actor=actor,
        command_id=command_id,
        seat=seat,
        command=payload,
        expected_by_client=expected_version,
        now_ms=now,
        metadata=dict(metadata or {}),
        also=also,
    )
    _maybe_snapshot(loaded, state, loaded.version, last)
    stored_turn_deadline = (returned[0] or {}).get("turn_deadline_ms")
    schedule_after(table, loaded.state, state, clock, last, stored_turn_deadline)
    tail = [TailRow(r.seq, r.type, r.payload, r.hash, r.actor, r.command_id, seat) for r in rows]
    after = LoadedGame(
        table, definition, state, last, rows[-1].hash, selectors.last_command(tail, table.game)
    )
    cache.games.put(table.id, after)
    first = rows[0].seq
    return CommandOutcome(
        table.id, command_id, first, last, replayed=False, rows=tuple(rows), loaded=after
    )


def close_window(
    *,
    game_id: uuid.UUID,
    window_id: str,
    deadline: int,
    now: int | None = None,
    run_bots: bool = True,
    by: str = "read",
) -> CommandOutcome | None:
    """Close ``window_id`` as the system if it is still open and overdue; idempotent.

    Its command id is derived from the window and its deadline, so however many closers
    race (the timer task, a re-delivered copy, the sweeper, readers), one close is appended
    and the others get its stored outcome. ``by`` (``task``, ``sweeper``, ``read``,
    ``command``) is recorded in the command's metadata: who got there first.

    A window that is no longer open (closed early: all passed, countered) is left alone
    without a command, so its deadline's close records no refusal. Only a close racing
    another closer that ends the window some other way can still record one."""
    now = clock_ms() if now is None else now
    if now < deadline:
        return None  # not due: refusing it under the derived id would block the real close
    command_id = derived_command_id(game_id, f"close:{window_id}:{deadline}")
    command = {"type": "close_window", "window": window_id}
    window = getattr(game_load(game_id=game_id).state, "window", None)
    try:
        if window is None or window.id != window_id:
            # Closed already: by this very close (a duplicate task gets its stored
            # outcome), or some other way (nothing, and nothing recorded).
            return _prior_outcome(game_id, command_id, SYSTEM, command)
        return game_command_execute(
            game_id=game_id,
            seat=None,
            actor=SYSTEM,
            command=command,
            command_id=command_id,
            now=now,
            run_bots=run_bots,
            metadata={"by": by, "deadline": deadline},
        )
    except RuleViolation:
        return None  # already closed, or not yet due: nothing to do


def game_read(
    *, game_id: uuid.UUID, now: int | None = None, table: Table | None = None
) -> LoadedGame:
    """The current game for a reader, with any overdue window closed first. ``table``:
    the game's table if the caller has just read it (saves reading it again)."""
    loaded = game_load(game_id=game_id, table=table)
    window = getattr(loaded.state, "window", None)
    now = clock_ms() if now is None else now
    if window is not None and now >= window.deadline:
        close_window(game_id=game_id, window_id=window.id, deadline=window.deadline, now=now)
        loaded = game_load(game_id=game_id, table=table)
    return loaded


# --- bots --------------------------------------------------------------------------------

# True while ``bots_play`` drives the bots in this thread: no bot_move task is scheduled.
_BOTS_INLINE: contextvars.ContextVar[bool] = contextvars.ContextVar("bots_inline", default=False)


@contextlib.contextmanager
def bots_inline() -> Iterator[None]:
    token = _BOTS_INLINE.set(True)
    try:
        yield
    finally:
        _BOTS_INLINE.reset(token)


def bot_seats(table: Table) -> dict[int, str]:
    return {s.position: s.bot for s in table.seat_set.all() if s.bot}


def bots_play(
    *, game_id: uuid.UUID, limit: int = BOT_STEP_LIMIT, table: Table | None = None
) -> int:
    """Let bot seats act while the game waits on one of them, in this thread (the inline
    mode, ``FB_BOTS_INLINE``, and scripts). Returns the commands made. ``table``: the
    game's table with its seats, if the caller has it (no query when it has no bots)."""
    made = 0
    table = table or table_get(game_id, seats=True)
    if not bot_seats(table):
        return 0
    with bots_inline():
        for _ in range(limit):
            if bot_move(game_id=game_id, table=table) is None:
                break
            made += 1
    return made


def bot_move(
    *, game_id: uuid.UUID, version: int | None = None, table: Table | None = None
) -> CommandOutcome | None:
    """One move of the first bot seat the game is waiting on, at ``version`` (None: the
    current one). Nothing when the game has moved past ``version`` (whoever moved it
    scheduled the next bot move), waits on no bot, or the bot lets a window run out.

    The command id is ``bot:<seat>:<version>``: a duplicate task makes no second move."""
    table = table or table_get(game_id, seats=True)
    seats = bot_seats(table)
    if not seats:
        return None
    loaded = game_load(game_id=game_id, table=table)
    if version is not None and version != loaded.version:
        return None
    definition = loaded.definition
    due = [s for s in definition.awaiting(loaded.state) if s in seats]
    if not due:
        return None
    seat = due[0]
    bot = definition.bots[seats[seat]]()
    rng = definition.bot_rng(f"{game_id}:{seat}", loaded.state, seat)
    choice = bot.choose(loaded.state, seat, rng)
    if choice is None:
        return None
    return game_command_execute(
        game_id=game_id,
        seat=seat,
        actor=f"bot:{seat}",
        command=definition.encode_command(choice),
        command_id=derived_command_id(game_id, f"bot:{seat}:{loaded.version}"),
        run_bots=False,
        table=table,
    )


# --- timers: the clock projection and the tasks that keep time ---------------------------

_CLOCK_UPSERT = """
INSERT INTO games_gameclock AS c
    (game_id, version, window_id, window_deadline_ms, turn_key, turn_deadline_ms,
     bot_due_ms, updated_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, now())
ON CONFLICT (game_id) DO UPDATE SET
    version = EXCLUDED.version,
    window_id = EXCLUDED.window_id,
    window_deadline_ms = EXCLUDED.window_deadline_ms,
    -- the same turn keeps the deadline it started with (an undo, a resign elsewhere)
    turn_deadline_ms = CASE
        WHEN c.turn_key = EXCLUDED.turn_key AND EXCLUDED.turn_key <> ''
        THEN c.turn_deadline_ms ELSE EXCLUDED.turn_deadline_ms END,
    turn_key = EXCLUDED.turn_key,
    bot_due_ms = EXCLUDED.bot_due_ms,
    updated_at = EXCLUDED.updated_at
RETURNING turn_deadline_ms
"""


def turn_key(state: Any, seat: int) -> str:
    """Names one turn of ``seat``; a window in the turn starts a new key (and clock)."""
    return f"{getattr(state, 'turn', 0)}:{seat}:{getattr(state, 'windows_opened', 0)}"


@dataclass(frozen=True)
class ClockRow:
    """What a game waits for after an append, and until when (``games.models.GameClock``)."""

    window: Any  # the open window or decision, if any
    turn_key: str  # the human turn it waits on ('' for none)
    turn_deadline: int | None  # on tables with a turn limit
    bot_due: int | None  # a bot seat should act by then


def clock_row(
    table: Table,
    definition: GameDefinition,
    state: Any,
    now: int,
    bots: dict[int, str] | None = None,
) -> ClockRow:
    bots = bot_seats(table) if bots is None else bots
    over = bool(getattr(state, "over", False))
    window = None if over else getattr(state, "window", None)
    awaiting = () if over else definition.awaiting(state)
    think_ms = int(settings.FB_BOT_THINK_SECONDS * 1000)
    bot_due = now + think_ms if any(s in bots for s in awaiting) else None
    key, turn_deadline = "", None
    if window is None and len(awaiting) == 1 and awaiting[0] not in bots:
        key = turn_key(state, awaiting[0])
        if table.turn_seconds:
            turn_deadline = now + table.turn_seconds * 1000
    return ClockRow(window, key, turn_deadline, bot_due)


def clock_upsert(game_id: uuid.UUID, version: int, row: ClockRow) -> Also:
    """The game's clock row at ``version``; returns the turn deadline it keeps."""
    window = row.window
    return Also(
        _CLOCK_UPSERT,
        [
            game_id,
            version,
            window.id if window is not None else "",
            window.deadline if window is not None else None,
            row.turn_key,
            row.turn_deadline,
            row.bot_due,
        ],
    )


def after_append(
    table: Table,
    definition: GameDefinition,
    before: Any,
    state: Any,
    version: int,
    now: int,
    bots: dict[int, str] | None = None,
) -> None:
    """For an append made in the caller's transaction (up to ``version``, leaving
    ``state``): upsert the game's clock row there, then ``schedule_after``."""
    row = clock_row(table, definition, state, now, bots)
    upsert = clock_upsert(table.id, version, row)
    with connection.cursor() as cursor:
        cursor.execute(upsert.sql, upsert.params)
        stored_turn_deadline = cursor.fetchone()[0]
    schedule_after(table, before, state, row, version, stored_turn_deadline)


def schedule_after(
    table: Table,
    before: Any,
    state: Any,
    row: ClockRow,
    version: int,
    stored_turn_deadline: int | None,
) -> None:
    """On commit (at once outside a transaction), schedule what the new state waits for:
    the close of a window it opened, a bot's move, a human turn's deadline (when the clock
    row kept the new one: a new turn)."""
    if not settings.FB_SCHEDULE_TASKS:
        return
    window = row.window
    old_window = getattr(before, "window", None)
    opened = window is not None and (old_window is None or old_window.id != window.id)
    jobs: list[tuple[str, list[Any], float]] = []
    if opened:
        jobs.append(("close_window", [str(table.id), window.id, window.deadline], 0.0))
        jobs.append(("standing_react", [str(table.id), window.id], 0.0))  # games.standing
    if row.bot_due is not None and not settings.FB_BOTS_INLINE and not _BOTS_INLINE.get():
        jobs.append(("bot_move", [str(table.id), version], settings.FB_BOT_THINK_SECONDS))
    if row.turn_deadline is not None and stored_turn_deadline == row.turn_deadline:
        jobs.append(("turn_timeout", [str(table.id), row.turn_key, row.turn_deadline], 0.0))
    if jobs:
        transaction.on_commit(lambda: _schedule(jobs))


def _resend_timers(game_id: uuid.UUID) -> None:
    """Send again the tasks for what the game waits for now (its clock row): the close of
    its open window, a bot's move, a human turn's deadline. Each is idempotent (the close
    names window and deadline, the move its version, the timeout its turn; their command
    ids are derived), so a task sent twice appends once. Bots' and timers' own replays do
    not come here: a duplicate task re-sending tasks would keep a duplicate alive."""
    if not settings.FB_SCHEDULE_TASKS:
        return
    row = GameClock.objects.filter(game_id=game_id).first()
    if row is None:
        return
    jobs: list[tuple[str, list[Any], float]] = []
    if row.window_id and row.window_deadline_ms is not None:
        jobs.append(("close_window", [str(game_id), row.window_id, row.window_deadline_ms], 0.0))
    if row.bot_due_ms is not None and not settings.FB_BOTS_INLINE and not _BOTS_INLINE.get():
        delay = max(row.bot_due_ms - clock_ms(), 0) / 1000
        jobs.append(("bot_move", [str(game_id), row.version], delay))
    if row.turn_key and row.turn_deadline_ms is not None:
        jobs.append(("turn_timeout", [str(game_id), row.turn_key, row.turn_deadline_ms], 0.0))
    if jobs:
        transaction.on_commit(lambda: _schedule(jobs))


def _schedule(jobs: list[tuple[str, list[Any], float]]) -> None:
    """After commit: send the tasks. A broker that is down costs a delay, not the command:
    the sweeper (and any read) catches up from the clock table."""
    from games import tasks  # here, not at the top: games.tasks imports this module

    for name, args, delay in jobs:
        try:
            tasks.schedule(name, args, delay)
        except Exception:
            log.exception("could not schedule %s%s; the sweeper will catch up", name, args)


def turn_timeout(
    *, game_id: uuid.UUID, key: str, deadline: int, now: int | None = None, by: str = "task"
) -> CommandOutcome | None:
    """Play for the human seat whose turn ``key`` ran past ``deadline`` (the table's
    ``turn_action``: discard a card with no effect, or the heuristic bot's choice), as the
    system, with metadata ``timeout: true``. Idempotent: the command id is derived from the
    turn; nothing happens if the turn is over or the deadline is not yet reached."""
    now = clock_ms() if now is None else now
    if now < deadline:
        return None
    table = table_get(game_id, seats=True)
    if not table.turn_seconds or table.status != Table.Status.STARTED:
        return None
    loaded = game_load(game_id=game_id, table=table)
    definition = loaded.definition
    state = loaded.state
    awaiting = definition.awaiting(state)
    if getattr(state, "window", None) is not None or len(awaiting) != 1:
        return None
    seat = awaiting[0]
    if turn_key(state, seat) != key or seat in bot_seats(table):
        return None
    command = _timeout_command(table, definition, state, seat)
    if command is None:
        return None
    try:
        return game_command_execute(
            game_id=game_id,
            seat=seat,
            actor=SYSTEM,
            command=command,
            command_id=derived_command_id(game_id, f"timeout:{key}"),
            now=now,
            metadata={"timeout": True, "origin": "timeout", "by": by, "deadline": deadline},
            table=table,
        )
    except (RuleViolation, ServiceError) as exc:
        log.info("turn timeout %s of %s not played: %s", key, game_id, exc)
        return None


def _timeout_command(
    table: Table, definition: GameDefinition, state: Any, seat: int
) -> dict[str, Any] | None:
    if table.turn_action == Table.TurnAction.DISCARD:
        # A card played with no effect; the game names it (never a counter while another
        # card could go). With nothing to discard the heuristic bot plays.
        card = definition.timeout_discard(state, seat)
        if card is not None:
            return {"type": "play", "card": card, "discard": True}
    bot = definition.bots.get("heuristic") or next(iter(definition.bots.values()))
    rng = definition.bot_rng(f"{table.id}:{seat}:timeout", state, seat)
    choice = bot().choose(state, seat, rng)
    return None if choice is None else definition.encode_command(choice)


# --- undo --------------------------------------------------------------------------------


def game_undo(
    *,
    game_id: uuid.UUID,
    seat: int,
    actor: str,
    command_id: uuid.UUID,
    metadata: Mapping[str, Any] | None = None,
) -> CommandOutcome:
    """Take back ``seat``'s latest command if no other seat has acted since (casual tables).

    Appends a marker naming the undone range; replay skips it; nothing is deleted. The
    shuffles are fixed by the seed, so the same cards come again: no re-rolling the deck."""
    table = table_get(game_id)
    payload = {"type": "undo"}
    prior = _prior_outcome(table.id, command_id, actor, payload)
    if prior is not None:
        return prior
    definition = get_game(table.game)
    try:
        outcome = _undo(table, definition, seat, actor, command_id, metadata)
    except (RuleViolation, ServiceError) as error:
        _log_refusal(
            game_id=table.id,
            command_id=command_id,
            actor=actor,
            seat=seat,
            payload=payload,
            expected_version=None,
            now=clock_ms(),
            error=error,
            metadata=metadata,
        )
        raise
    return outcome


def _undo(
    table: Table,
    definition: GameDefinition,
    seat: int,
    actor: str,
    command_id: uuid.UUID,
    metadata: Mapping[str, Any] | None,
) -> CommandOutcome:
    if not table.undo_allowed:
        raise ServiceError("undo_not_allowed", "This table does not allow undo.", mode=table.mode)
    with transaction.atomic():
        loaded = game_load(game_id=table.id, table=table)
        last, refusal = selectors.undo_check(
            table,
            seat=seat,
            version=loaded.version,
            over=getattr(loaded.state, "over", False),
            last=loaded.last_command,
        )
        if refusal is not None:
            raise refusal
        assert last is not None  # noqa: S101 - undo_check returns one or the other
        marker = NewEvent(
            UNDONE,
            {
                "from_seq": last.first_seq,
                "to_seq": last.last_seq,
                "seat": seat,
                "command_id": str(last.command_id),
            },
        )
        rows = append(
            stream_id=table.id,
            expected_version=loaded.version,
            events=[marker],
            actor=actor,
            command_id=command_id,
            metadata={"seat": seat, **(metadata or {})},
        )
        CommandRecord.objects.create(
            stream_id=table.id,
            command_id=command_id,
            actor=actor,
            seat=seat,
            command={"type": "undo"},
            now_ms=clock_ms(),
            outcome=CommandRecord.ACCEPTED,
            first_seq=rows[0].seq,
            last_seq=rows[0].seq,
            metadata=dict(metadata or {}),
        )
        # Snapshots inside the undone range no longer describe the game: drop the cache.
        Snapshot.objects.filter(stream_id=table.id, version__gte=last.first_seq).delete()
        after = game_load(game_id=table.id, table=table)
        after_append(table, definition, loaded.state, after.state, after.version, clock_ms())
    seq = rows[0].seq
    return CommandOutcome(table.id, command_id, seq, seq, replayed=False)
