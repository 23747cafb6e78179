"""Commands: decide a seat's command and append its events with its record, idempotently.

Every command is idempotent (its id is unique per game), attributable (actor, seat,
request metadata) and logged whether accepted or refused. A race with another writer is
retried by reloading and deciding again; the client hears of it only if the command is no
longer legal. Bots after a command are the facade's (``games.service``), not this
module's: it imports no bot.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from events.chain import GENESIS
from events.models import StoredEvent
from events.store import CommandSeenBefore, ConcurrencyConflict, Projection, TailRow, append_command
from games import cache, reviews, sealing, selectors
from games.clock import clock_ms, clock_row, clock_upsert, resend_timers, schedule_after
from games.core import Game, RuleViolation, Window
from games.errors import ServiceError
from games.idempotency import CommandOutcome, Refusal, log_refusal, prior_outcome, storable
from games.loading import LoadedGame, game_load, maybe_snapshot, table_get, to_new_event
from games.models import Table
from games.projections import ClockUpsert, TableFinished
from games.registry import get_game

MAX_ATTEMPTS = 8
SYSTEM = "system"
_IDS = uuid.UUID("6f1e2a56-58a4-4e43-9d5c-3f1f0f3b1a10")  # namespace of derived command ids


def derived_command_id(game_id: uuid.UUID, purpose: str) -> uuid.UUID:
    """A command id fixed by what the command is for, so that two workers doing the same
    thing (closing one window, moving one bot) issue one command, not two."""
    return uuid.uuid5(_IDS, f"{game_id}:{purpose}")


class _WindowOverdue(Exception):  # noqa: N818 - control flow, never leaves this module
    def __init__(self, window: Window) -> None:
        self.window = window


def _prior(
    game_id: uuid.UUID, command_id: uuid.UUID, actor: str, payload: Mapping[str, Any]
) -> CommandOutcome | None:
    return prior_outcome(game_id, command_id, actor, payload, on_user_retry=resend_timers)


def _enrich(game_id: uuid.UUID, definition: Game, error: Refusal) -> Refusal:
    """A late reaction learns which event closed the window it aimed at."""
    if error.code == "window_closed" and "window" in error.data:
        window = error.data["window"]
        for kind, key in definition.window_closers:
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


def execute(
    *,
    game_id: uuid.UUID,
    seat: int | None,
    actor: str,
    command: Mapping[str, Any],
    command_id: uuid.UUID,
    expected_version: int | None = None,
    metadata: Mapping[str, Any] | None = None,
    now: int | None = None,
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
        raise ServiceError("not_started")
    definition = get_game(table.game)
    payload = dict(command)

    def clock() -> int:
        return now if now is not None else clock_ms()

    outcome = None
    try:
        for attempt in range(MAX_ATTEMPTS):
            # The stored answer to a command seen before. The first attempt does not look
            # (most commands are new: one query less): one it would refuse looks before
            # refusing, and one it would accept trips the unique (stream, command id) of
            # the command's record, which rolls its events back and comes here again.
            if attempt:
                prior = _prior(table.id, command_id, actor, payload)
                if prior is not None:
                    return prior
            try:
                if attempt:
                    # a lost race may have been with a ruling ending the game (the
                    # database refuses appends to a decided game): read the table again
                    table = table_get(table.id, seats=True)
                if table.status == Table.Status.FINISHED:
                    reviews.refuse_if_decided(table)  # the engine may not know it ended
                if not storable(payload):  # no game's, and its record could not be kept
                    raise ServiceError("bad_command", "A command holds no NUL character.")
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
                if not attempt and (prior := _prior(table.id, command_id, actor, payload)):
                    return prior
                close_window(
                    game_id=table.id,
                    window_id=overdue.window.id,
                    deadline=overdue.window.deadline,
                    now=clock(),
                    by="command",
                )
            except (RuleViolation, ServiceError):
                if not attempt and (prior := _prior(table.id, command_id, actor, payload)):
                    return prior
                raise
        else:
            raise ServiceError("busy")
    except (RuleViolation, ServiceError) as error:
        if error.code not in ("idempotency_key_reused", "busy"):
            error = _enrich(table.id, definition, error)
            log_refusal(
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
        raise ServiceError("busy")
    return outcome


def _decide_and_append(
    table: Table,
    definition: Game,
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
    before = definition.status(loaded.state)
    window = before.window
    if window is not None and now >= window.deadline and not _closes(definition, payload, window):
        # Close an overdue window first (in its own command), so nobody acts on it.
        raise _WindowOverdue(window)
    stale = expected_version is not None and expected_version != loaded.version
    if stale and not definition.names_its_step(command):
        # A command naming its step is guarded by it; anything else must be current.
        # Checked before the rules: a client acting on an old version learns that first
        # (not, say, not_your_turn because the turn has passed since).
        raise ServiceError(
            "stale_version",
            current_version=loaded.version,
            expected_version=expected_version,
        )
    events = definition.decide(loaded.state, seat, command, now=now)
    if before.acting_out_of_turn(seat):
        # unprompted play of a seat nobody waits for (G-8): accepted by the rules like any
        # command; the record says so (the audit), and the clock row below keeps the
        # awaited seat's step and deadline, which the game's status keeps
        metadata = {**(metadata or {}), "out_of_turn": True}
    sealed = sealing.check(
        table=table,
        loaded=loaded,
        window=window,
        seat=seat,
        actor=actor,
        command=command,
        payload=payload,
        command_id=command_id,
        expected_version=expected_version,
        metadata=metadata,
        now=now,
    )
    if sealed is not None:
        return sealed  # a pass nobody else sees: recorded, nothing appended
    state = loaded.state
    for event in events:
        state = definition.evolve(state, event)
    last = loaded.version + len(events)
    after_status = definition.status(state)
    clock = clock_row(table, after_status, now)
    projections: list[Projection] = [clock_upsert(table.id, last, clock)]
    if after_status.over and table.status != Table.Status.FINISHED:
        projections.append(TableFinished(table.id))
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
        also=projections,
    )
    maybe_snapshot(loaded, state, loaded.version, last)
    schedule_after(table, before, clock, last, ClockUpsert.kept_deadline(returned[0]))
    tail = [
        TailRow(r.seq, r.type, r.payload, r.hash, r.actor, r.command_id, seat, r.schema_version)
        for r in rows
    ]
    after = LoadedGame(
        table, definition, state, last, rows[-1].hash, selectors.last_command(tail, table.game)
    )
    cache.games.put(table.id, after)
    first = rows[0].seq
    return CommandOutcome(
        table.id, command_id, first, last, replayed=False, rows=tuple(rows), loaded=after
    )


def _closes(definition: Game, payload: Mapping[str, Any], window: Window) -> bool:
    return payload.get("type") == definition.close_command(window).get("type")


def close_window(
    *,
    game_id: uuid.UUID,
    window_id: str,
    deadline: int,
    now: int | None = None,
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
    loaded = game_load(game_id=game_id)
    if loaded.table.status == Table.Status.FINISHED:
        return None  # over (a ruling may have ended it mid-window): nothing closes now
    definition = loaded.definition
    window = definition.status(loaded.state).window
    command = definition.close_command(Window(window_id, deadline))
    try:
        if window is None or window.id != window_id:
            # Closed already: by this very close (a duplicate task gets its stored
            # outcome), or some other way (nothing, and nothing recorded).
            return _prior(game_id, command_id, SYSTEM, command)
        return execute(
            game_id=game_id,
            seat=None,
            actor=SYSTEM,
            command=command,
            command_id=command_id,
            now=now,
            metadata={"by": by, "deadline": deadline},
        )
    except RuleViolation:
        return None  # already closed, or not yet due: nothing to do
