"""The API's reads: who is looking, and the plain documents each endpoint answers with.

One function per endpoint (``game_document``, ``command_document``, ``replay_document``,
``audit_document``, ``export_document``, ``table_document``, ``tables_document``); the
API's views authenticate, parse, call one and serialise what it returns.

Every read of a game goes through here: the caller becomes a *viewer* (their seat, a
spectator, or staff) and state and events leave only through the engine's projection
(``view`` and ``redact_event``). A spectator of a table with ``spectator_delay`` N sees the
game as it was N events ago; once the game is over everything is revealed to everyone.

A game is over when its table is finished: by the game's own end, or by a tournament
director's ruling (``games.reviews``), which ends play without an event, so the engine's
state may still run. Such a game reads as over all the same (``ruled_view``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from events import rows
from events.models import StoredEvent
from events.store import UNDONE as UNDONE  # the API names undo markers as the store does
from events.store import iso as iso  # the API formats times as the store does
from games import absence, reviews, sealing, selectors, takeback
from games.core import Game, Viewer
from games.errors import ServiceError
from games.models import Table, TakebackRequest
from games.record import event_data, game_export
from games.registry import get_game
from games.service import (
    CommandOutcome,
    LoadedGame,
    clock_ms,
    from_row,
    game_load,
    game_read,
    running_turn_deadline,
)

if TYPE_CHECKING:
    from games.feed import FeedRow


def parse_game_id(raw: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        raise ServiceError("game_not_found", "No table or game has that id.", game=raw) from None


@dataclass(frozen=True)
class Access:
    table: Table
    user: AbstractBaseUser | AnonymousUser
    seat: int | None  # the seat the user holds, if any

    @property
    def staff(self) -> bool:
        return bool(getattr(self.user, "is_staff", False))

    @property
    def viewer(self) -> Viewer:
        """A seated user sees as their seat (staff included: no peeking at your own
        table); other staff see everything; anyone else signed in is a spectator."""
        if self.seat is not None:
            return self.seat
        return "staff" if self.staff else "spectator"

    @property
    def finished(self) -> bool:
        return self.table.status == Table.Status.FINISHED

    @property
    def delay(self) -> int:
        """Events hidden from this viewer at the end of the stream."""
        if self.viewer == "spectator" and not self.finished:
            return int(self.table.spectator_delay)
        return 0

    def visible(self, version: int) -> int:
        """The last sequence number this viewer may see when the stream is at ``version``."""
        return max(0, version - self.delay)

    @property
    def definition(self) -> Game:
        return get_game(self.table.game)

    def require_seat(self) -> int:
        if self.seat is None:
            raise ServiceError("not_your_seat", "You hold no seat at this game.")
        return self.seat

    def require_started(self) -> None:
        if self.table.status == Table.Status.OPEN:
            raise ServiceError("not_started", "The table has not started yet.")


def access_for(
    game_id: uuid.UUID, user: AbstractBaseUser | AnonymousUser, *, state_follows: bool = False
) -> Access:
    """``state_follows``: the caller loads the game next and passes it to ``refreshed``,
    which re-reads the table if the game is over (so the table's status need not be
    re-read now; see ``games.selectors.table_detail``)."""
    table = selectors.table_detail(game_id, recheck=not state_follows)
    return Access(table=table, user=user, seat=selectors.seat_of(table, user))


def refreshed(access: Access, loaded: LoadedGame | None = None) -> Access:
    """The same caller, with the table re-read (its status may have changed). Given the
    game just loaded, only re-read when the game has ended since the table was read (a
    ruling's end shows in the table only: callers that must see it re-check the table,
    as ``current_document`` does, or read the feed's batch, whose status is fresh)."""
    if loaded is not None and (access.finished or not over(loaded)):
        return access
    return access_for(access.table.id, access.user)


def over(loaded: LoadedGame) -> bool:
    return loaded.definition.status(loaded.state).over


# --- tables ------------------------------------------------------------------------------


_LOOK_UP: Any = object()


def table_document(
    table: Table,
    user: AbstractBaseUser | AnonymousUser,
    winners: list[int] | None = None,
    decided: reviews.Decided | None = _LOOK_UP,
) -> dict[str, Any]:
    """A table as anyone signed in may see it: never its seed or stacked deck. ``winners``:
    the winning seats once the game is over (``selectors.winners_of``, or the state's),
    unless a ruling decided the result (``decided``: looked up for a finished table when
    not given; ``games.reviews``): then its winners (none for a voided game)."""
    result = None
    if table.status == Table.Status.FINISHED:
        if decided is _LOOK_UP:
            decided = reviews.decided_result(table)
        abandoned = None if decided is not None else absence.ended_by_abandonment(table.id)
        if decided is not None:
            winners = decided.winners
            result = decided.document()
        elif abandoned is not None:  # the rule put an absent seat out (games.absence)
            result = {
                "decided_by": "abandonment",
                "ruling": None,
                "kind": "abandonment",
                "abandoned": abandoned,
            }
        else:
            result = {"decided_by": "play", "ruling": None, "kind": "play"}
    return {
        "id": str(table.id),
        "game": table.game,
        "mode": table.mode,
        "status": table.status,
        "seats": [
            {
                "position": s.position,
                "name": s.display_name,
                "bot": s.bot or None,
                "user": s.user_id,
            }
            for s in table.seat_set.all()  # prefetched in position order (games.selectors)
        ],
        "size": table.seats,
        "options": get_game(table.game).public_options(table.options),
        "undo": table.undo,
        "spectator_delay": table.spectator_delay,
        "turn_seconds": table.turn_seconds,
        "turn_action": table.turn_action,
        "abandon_after": table.abandon_after,
        "created_by": table.created_by_id,
        "created_at": iso(table.created_at),
        "started_at": iso(table.started_at) if table.started_at else None,
        "your_seat": selectors.seat_of(table, user),
        "winners": winners,
        "result": result,
    }


# --- state -------------------------------------------------------------------------------


def visible_state(access: Access, loaded: LoadedGame) -> tuple[Any, int]:
    """The state this viewer may see, and its version (delayed for spectators)."""
    upto = access.visible(loaded.version)
    if upto == loaded.version:
        return loaded.state, loaded.version
    return game_load(game_id=access.table.id, upto=upto, table=access.table).state, upto


def state_view(
    access: Access,
    state: Any,
    *,
    now: int,
    revealed: bool = False,
    decided: reviews.Decided | None = None,
) -> dict[str, Any]:
    """The engine's view of ``state`` for this viewer. ``revealed`` shows every hand and the
    deck (a finished game replayed at an earlier point): the staff projection, relabelled.
    ``decided``: the ruling that ended the game, if it is ``state``'s (``ruled_view``)."""
    definition = access.definition
    over_now = definition.status(state).over
    if (revealed or decided is not None) and not over_now:
        out = definition.view(state, "staff", now=now)
        out["game"] = definition.name
        out["viewer"] = access.viewer
        out["revealed"] = True
        out["outcome"] = None
        out["seed"] = access.table.seed
        return out if decided is None else ruled_view(out, decided)
    out = definition.view(state, access.viewer, now=now)
    out["game"] = definition.name  # every game's state names it: the schema tells them apart
    out["revealed"] = over_now
    outcome = definition.outcome(state)  # how the engine decided the result, once over
    out["outcome"] = outcome.as_json() if outcome is not None else None
    return out


def ruled_view(view: dict[str, Any], decided: reviews.Decided) -> dict[str, Any]:
    """A view of the state a ruling ended, as over: every hand shown (the caller's staff
    projection), the ruling's winners, nothing left to play and no window running. The
    engine's state is untouched; the views of every game carry ``over`` and ``winners``."""
    view["over"] = True
    view["winners"] = list(decided.winners)
    view["legal"] = []
    view["outcome"] = {
        "winners": list(decided.winners),
        "reason": "ruling",
        "summary": "A tournament director's ruling decided the result (see the ruling).",
        "tie_breaks": [],
    }
    if view.get("window") is not None:
        view["window"] = None
    return view


def live_fields(access: Access, loaded: LoadedGame, *, delayed: bool = False) -> dict[str, Any]:
    """What the game document and the command result add to the state for this caller:
    ``undo_available`` (their seat may undo now), ``turn_deadline`` (server time, ms) and
    ``out_of_turn`` (the seats that may act now unawaited). None of them once the table is
    finished (a ruling may end a game the engine runs on)."""
    ended = access.finished or over(loaded)
    return {
        "undo_available": selectors.undo_available(
            access.table,
            seat=access.seat,
            version=loaded.version,
            over=ended,
            last=loaded.last_command,
        ),
        "turn_deadline": None if delayed or ended else running_turn_deadline(access.table, loaded),
        "takeback": None if delayed or ended else takeback_live(access.table, loaded.version),
        "out_of_turn": [] if delayed or ended else out_of_turn(loaded),
    }


def out_of_turn(loaded: LoadedGame) -> list[int]:
    """The seats that may act now without being awaited (``Status.out_of_turn``: public;
    what a seat may do then is in its own view's ``legal``)."""
    status = loaded.definition.status(loaded.state)
    return [seat for seat in status.out_of_turn if status.acting_out_of_turn(seat)]


def takeback_live(table: Table, version: int) -> dict[str, Any] | None:
    """The table's open takeback request while it can still be answered (not overdue,
    nothing played since it was asked), as the API shows it; None otherwise."""
    if not table.undo_allowed:
        return None
    request = rows.select_one(  # read by every command and state read: no ORM compiling
        TakebackRequest,
        "WHERE table_id = %s AND state = %s AND version = %s ORDER BY created_at DESC LIMIT 1",
        [table.id, TakebackRequest.State.OPEN.value, version],
    )
    now = clock_ms()
    if request is None or request.deadline_ms <= now:
        return None
    return takeback.as_json(request, now=now)


def winners(definition: Game, state: Any) -> list[int] | None:
    """The winning seats if ``state`` is a finished game."""
    status = definition.status(state)
    return list(status.winners) if status.over else None


def game_document(access: Access, loaded: LoadedGame, *, now: int) -> dict[str, Any]:
    state, version = visible_state(access, loaded)
    decided = reviews.decided_result(access.table)  # (read for a finished table only)
    view = state_view(access, state, now=now, decided=decided)
    window = None if access.finished else access.definition.status(state).window
    window_pass = sealing.seat_view(access.table, view, access.seat, window)
    table = access.table
    finished = decided is None and table.status == Table.Status.FINISHED
    if finished and view.get("outcome") and absence.ended_by_abandonment(table.id) is not None:
        view["outcome"] = {**view["outcome"], "reason": "abandonment"}
    absent = [] if access.finished or version != loaded.version else absence.absent_seats(table)
    return {
        "game_id": str(access.table.id),
        "version": version,
        "server_time": now,
        "viewer": access.viewer,
        "seat": access.seat,
        "delayed_by": loaded.version - version if access.delay else 0,
        "window_remaining_ms": max(0, window.deadline - now) if window else None,
        **live_fields(access, loaded, delayed=version != loaded.version),
        "window_pass": window_pass,
        "absent": absent,
        "claim_available": bool(absent)
        and access.seat is not None
        and access.seat not in absent
        and absence.two_people(table),
        "table": table_document(
            access.table, access.user, winners(access.definition, state), decided
        ),
        "played_under": access.definition.played_under(state).as_json(),
        "state": view,
    }


# --- events ------------------------------------------------------------------------------


def event_document(
    access: Access,
    definition: Game,
    row: StoredEvent | FeedRow,
    *,
    revealed: bool,
) -> dict[str, Any]:
    """One stored event as this viewer may see it."""
    if row.type == UNDONE:
        # names a range of sequence numbers: nothing secret; typed like the engine's events
        data = event_data(row.type, row.payload, row.schema_version)
    else:
        data = definition.redact_event(from_row(definition, row), access.viewer, revealed=revealed)
    return {
        "seq": row.seq,
        "type": row.type,
        "schema_version": row.schema_version,
        "actor": row.actor,
        "origin": event_origin(access, row, revealed=revealed),
        "recorded_at": iso(row.recorded_at),
        "data": data,
    }


def event_origin(access: Access, row: StoredEvent | FeedRow, *, revealed: bool) -> str | None:
    """Who made the event's command when not the actor in person: ``timeout`` (the system
    played for a seat whose turn ran out; public, as the turn clock is) or ``standing``
    (the seat's standing reactions; shown only to that seat, to staff and after the end:
    docs/rules.md, "Standing reactions"). None otherwise."""
    if isinstance(row, StoredEvent):
        metadata = row.metadata or {}
        origin = metadata.get("origin") or ("timeout" if metadata.get("timeout") else None)
        seat = metadata.get("seat")
    else:
        origin, seat = row.origin, row.seat
    if origin == "standing" and not (revealed or access.viewer in ("staff", seat)):
        return None
    return origin


def events_document(
    access: Access, rows: Sequence[StoredEvent | FeedRow], *, revealed: bool
) -> list[dict[str, Any]]:
    definition = access.definition
    return [event_document(access, definition, row, revealed=revealed) for row in rows]


# --- one read per endpoint ---------------------------------------------------------------


def command_document(access: Access, outcome: CommandOutcome, *, now: int) -> dict[str, Any]:
    """What a command (or an undo) answers: its events and the game now, for the caller."""
    # the game as the command left it (no reload), unless a bot has moved it since
    loaded = outcome.loaded or game_load(game_id=access.table.id, table=access.table)
    access = refreshed(access, loaded)  # the command may have ended the game
    view = state_view(access, loaded.state, now=now)
    window = loaded.definition.status(loaded.state).window
    return {
        "version": loaded.version,
        "first_seq": outcome.first_seq,
        "last_seq": outcome.last_seq,
        "events": events_document(access, outcome.events(), revealed=over(loaded)),
        "state": view,
        "server_time": now,
        **live_fields(access, loaded),
        "window_pass": sealing.seat_view(access.table, view, access.seat, window),
        "table": table_document(
            access.table, access.user, winners(loaded.definition, loaded.state)
        ),
    }


def replay_document(access: Access, at: int | None, *, now: int) -> dict[str, Any]:
    """The game at event ``at`` (the latest visible when None) as this viewer may see it,
    everything once the game is over; the event's hashes once it is over (or for staff)."""
    visible = access.visible(selectors.stream_version(access.table.id))
    at = min(at or visible, visible)
    loaded = game_load(game_id=access.table.id, upto=at, table=access.table)
    # a game a ruling ended reads as decided at its last event, never as if it ran on
    decided = reviews.decided_result(access.table) if at == visible else None
    view = state_view(access, loaded.state, now=now, revealed=access.finished, decided=decided)
    view.pop("legal", None)  # options belong to the live game, not to a replay
    # Before the end a hash of an event with hidden cards could be brute-forced (a 1-card
    # draw is 66 guesses): the audit hashes only once the game is over, or for staff.
    # Staff see hashes early, but not while a sealed choice waits: the hash of a sealed
    # sector card (six guesses) would give it away.
    row = None
    if access.finished or (access.viewer == "staff" and not _sealed(access)):
        row = selectors.event_at(access.table.id, at)
    return {
        "game_id": str(access.table.id),
        "at": at,
        "version": visible,
        "viewer": access.viewer,
        "server_time": now,
        "hash": row.hash if row else None,
        "prev_hash": row.prev_hash if row else None,
        "played_under": access.definition.played_under(loaded.state).as_json(),
        "decided": decided.document() | {"winners": decided.winners} if decided else None,
        "state": view,
    }


def _metadata(metadata: dict[str, Any], staff: bool) -> dict[str, Any]:
    """Request metadata; client addresses are for staff only."""
    return dict(metadata) if staff else {k: v for k, v in metadata.items() if k != "ip"}


def _sealed(access: Access) -> bool:
    """Whether the running game holds a committed, unrevealed sealed choice."""
    if access.finished or access.table.status != Table.Status.STARTED:
        return False
    loaded = game_load(game_id=access.table.id, table=access.table)
    return loaded.definition.status(loaded.state).sealed


def may_review(access: Access) -> None:
    """Staff at any time (unless they play in this game: then as a player) but while a
    sealed choice waits for its reveal (its command and hash are in the record); the game's
    players once it is over; nobody else."""
    if access.staff and access.seat is None:
        if _sealed(access):
            raise ServiceError("sealed_choice_pending")
        return
    if access.seat is None:
        raise ServiceError("forbidden", "Only the game's players (after the end) and staff.")
    if not access.finished:
        raise ServiceError("forbidden", "Players may review the audit trail once the game is over.")


def audit_document(access: Access) -> dict[str, Any]:
    """Every event with its hashes and every command, accepted or refused."""
    may_review(access)
    version = selectors.stream_version(access.table.id)
    rows = selectors.events_between(access.table.id, after=0, upto=version)
    revealed = access.finished
    events = []
    for row, shown in zip(rows, events_document(access, rows, revealed=revealed), strict=True):
        events.append(
            {
                **shown,
                "command_id": str(row.command_id) if row.command_id else None,
                "hash": row.hash,
                "prev_hash": row.prev_hash,
                "metadata": _metadata(row.metadata, access.staff),
            }
        )
    commands = [
        {
            "command_id": str(c.command_id),
            "actor": c.actor,
            "seat": c.seat,
            "command": c.command,
            "expected_version": c.expected_version,
            "now_ms": c.now_ms,
            "outcome": c.outcome,
            "error_code": c.error_code or None,
            "error_message": c.error_message or None,
            "error_data": {k: v for k, v in c.error_data.items() if not k.startswith("_")},
            "first_seq": c.first_seq,
            "last_seq": c.last_seq,
            "recorded_at": iso(c.recorded_at),
            "metadata": _metadata(c.metadata, access.staff),
        }
        for c in selectors.commands_of(access.table.id)
    ]
    return {
        "game_id": str(access.table.id),
        "version": version,
        "revealed": revealed,
        "events": events,
        "commands": commands,
    }


def export_document(access: Access) -> dict[str, Any]:
    """The game's record for offline verification (``games.verify``)."""
    may_review(access)
    return game_export(access.table, private=access.staff)


def table_detail_document(
    table_id: uuid.UUID, user: AbstractBaseUser | AnonymousUser
) -> dict[str, Any]:
    """One table as anyone signed in may see it, with its winners once over."""
    table = selectors.table_detail(table_id)
    return table_document(table, user, selectors.winners_of([table]).get(table.id))


def tables_document(
    user: AbstractBaseUser | AnonymousUser, *, mine: bool, status: str | None, limit: int
) -> dict[str, Any]:
    """Open tables (or the caller's, any status), newest first, with winners."""
    if mine:
        tables = selectors.tables_of_user(user=user, status=status, limit=limit)
    else:
        tables = selectors.tables_open(limit=limit)
    found = selectors.winners_of(tables)
    decided = reviews.decided_results([t.id for t in tables if t.status == Table.Status.FINISHED])
    return {"tables": [table_document(t, user, found.get(t.id), decided.get(t.id)) for t in tables]}


def started_document(table_id: uuid.UUID, user: AbstractBaseUser | AnonymousUser) -> dict[str, Any]:
    """The game document right after its table started."""
    loaded = game_read(game_id=table_id)
    return game_document(access_for(table_id, user), loaded, now=clock_ms())


def current_document(game_id: uuid.UUID, user: AbstractBaseUser | AnonymousUser) -> dict[str, Any]:
    """The game as this caller may see it now (an overdue window closed first). The
    table's status is re-read (one small query for a running game): a ruling finishes a
    table without an append, so the loaded game cannot tell."""
    access = access_for(game_id, user)
    access.require_started()
    loaded = game_read(game_id=access.table.id, table=access.table)
    return game_document(refreshed(access, loaded), loaded, now=clock_ms())
