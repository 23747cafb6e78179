"""Who is looking, and what they may see.

Every read of a game goes through here: the caller becomes a *viewer* (their seat, a
spectator, or staff) and state and events leave only through the engine's projection
(``view`` and ``redact_event``). A spectator of a table with ``spectator_delay`` N sees the
game as it was N events ago; once the game is over everything is revealed to everyone.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from api.errors import ApiError
from events.models import StoredEvent
from events.store import UNDONE, iso
from games import selectors
from games.core import Game, Viewer
from games.models import Table
from games.record import event_data, fb_columns
from games.registry import get_game
from games.service import LoadedGame, from_row, game_load, running_turn_deadline

if TYPE_CHECKING:
    from games.feed import FeedRow


def parse_game_id(raw: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        raise ApiError("game_not_found", "No table or game has that id.", game=raw) from None


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
            raise ApiError("not_your_seat", "You hold no seat at this game.")
        return self.seat

    def require_started(self) -> None:
        if self.table.status == Table.Status.OPEN:
            raise ApiError("not_started", "The table has not started yet.")


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
    game just loaded, only re-read when the game has ended since the table was read."""
    if loaded is not None and (access.finished or not over(loaded)):
        return access
    return access_for(access.table.id, access.user)


def over(loaded: LoadedGame) -> bool:
    return loaded.definition.status(loaded.state).over


# --- tables ------------------------------------------------------------------------------


def table_document(
    table: Table, user: AbstractBaseUser | AnonymousUser, winners: list[int] | None = None
) -> dict[str, Any]:
    """A table as anyone signed in may see it: never its seed or stacked deck. ``winners``:
    the winning seats once the game is over (``selectors.winners_of``, or the state's)."""
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
        **fb_columns(table),
        "options": get_game(table.game).public_options(table.options),
        "undo": table.undo,
        "spectator_delay": table.spectator_delay,
        "turn_seconds": table.turn_seconds,
        "turn_action": table.turn_action,
        "created_by": table.created_by_id,
        "created_at": iso(table.created_at),
        "started_at": iso(table.started_at) if table.started_at else None,
        "your_seat": selectors.seat_of(table, user),
        "winners": winners,
    }


# --- state -------------------------------------------------------------------------------


def visible_state(access: Access, loaded: LoadedGame) -> tuple[Any, int]:
    """The state this viewer may see, and its version (delayed for spectators)."""
    upto = access.visible(loaded.version)
    if upto == loaded.version:
        return loaded.state, loaded.version
    return game_load(game_id=access.table.id, upto=upto, table=access.table).state, upto


def state_view(access: Access, state: Any, *, now: int, revealed: bool = False) -> dict[str, Any]:
    """The engine's view of ``state`` for this viewer. ``revealed`` shows every hand and the
    deck (a finished game replayed at an earlier point): the staff projection, relabelled."""
    definition = access.definition
    over_now = definition.status(state).over
    if revealed and not over_now:
        out = definition.view(state, "staff", now=now)
        out["viewer"] = access.viewer
        out["revealed"] = True
        out["seed"] = access.table.seed
        return out
    out = definition.view(state, access.viewer, now=now)
    out["revealed"] = over_now
    return out


def live_fields(access: Access, loaded: LoadedGame, *, delayed: bool = False) -> dict[str, Any]:
    """What the game document and the command result add to the state for this caller:
    ``undo_available`` (their seat may undo now) and ``turn_deadline`` (server time, ms)."""
    return {
        "undo_available": selectors.undo_available(
            access.table,
            seat=access.seat,
            version=loaded.version,
            over=over(loaded),
            last=loaded.last_command,
        ),
        "turn_deadline": None if delayed else running_turn_deadline(access.table, loaded),
    }


def winners(definition: Game, state: Any) -> list[int] | None:
    """The winning seats if ``state`` is a finished game."""
    status = definition.status(state)
    return list(status.winners) if status.over else None


def game_document(access: Access, loaded: LoadedGame, *, now: int) -> dict[str, Any]:
    state, version = visible_state(access, loaded)
    view = state_view(access, state, now=now)
    window = access.definition.status(state).window
    return {
        "game_id": str(access.table.id),
        "version": version,
        "server_time": now,
        "viewer": access.viewer,
        "seat": access.seat,
        "delayed_by": loaded.version - version if access.delay else 0,
        "window_remaining_ms": max(0, window.deadline - now) if window else None,
        **live_fields(access, loaded, delayed=version != loaded.version),
        "table": table_document(access.table, access.user, winners(access.definition, state)),
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
        data = event_data(row.type, row.payload)
    else:
        data = definition.redact_event(from_row(definition, row), access.viewer, revealed=revealed)
    return {
        "seq": row.seq,
        "type": row.type,
        "schema_version": row.schema_version,
        "actor": row.actor,
        "recorded_at": iso(row.recorded_at),
        "data": data,
    }


def events_document(
    access: Access, rows: Sequence[StoredEvent | FeedRow], *, revealed: bool
) -> list[dict[str, Any]]:
    definition = access.definition
    return [event_document(access, definition, row, revealed=revealed) for row in rows]
