"""Read helpers for the HTTP API: tables, seats, stored events and the command log.

Reads only. Game state is never read here: it comes from ``games.service`` (``game_read``,
``game_load``), and it leaves the server only through the engine's viewer projection.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from events.models import CommandRecord, StoredEvent
from events.store import stream_version
from games.errors import ServiceError
from games.models import GameClock, Seat, Table

__all__ = [
    "commands_of",
    "event_at",
    "events_between",
    "last_undoable_command",
    "seat_of",
    "stream_version",
    "table_detail",
    "tables_open",
    "tables_of_user",
    "turn_deadline",
    "undo_available",
]

SYSTEM = "system"  # the actor of timers' commands (games.service.SYSTEM)
UNDO_REVEALING = ("CardsDrawn", "CardsDealt")  # events that drew the seat cards


def _tables() -> QuerySet[Table]:
    seats = Seat.objects.select_related("user").order_by("position")
    return Table.objects.prefetch_related(Prefetch("seat_set", queryset=seats))


def table_detail(table_id: uuid.UUID) -> Table:
    """The table with its seats and their users: one query (seats joined to their table
    and user) for a table with seats, as every game's has; two for one without."""
    seats = list(
        Seat.objects.filter(table_id=table_id).select_related("table", "user").order_by("position")
    )
    if seats:
        table = seats[0].table
        for seat in seats:
            seat.table = table  # one instance, as a prefetch would leave it
        cached = table.seat_set.all()  # what prefetch_related("seat_set") leaves behind
        cached._result_cache = seats
        cached._prefetch_done = True
        table._prefetched_objects_cache = {"seat_set": cached}
        return table
    try:
        table = _tables().get(id=table_id)
    except Table.DoesNotExist:
        raise ServiceError(
            "game_not_found", "No table or game has that id.", game=str(table_id)
        ) from None
    return table


def tables_open(*, limit: int = 100) -> Sequence[Table]:
    """Tables still taking players, newest first."""
    return list(_tables().filter(status=Table.Status.OPEN).order_by("-created_at")[:limit])


def tables_of_user(
    *, user: AbstractBaseUser | AnonymousUser, status: str | None = None, limit: int = 100
) -> Sequence[Table]:
    """Tables ``user`` holds a seat at or created, newest first."""
    query = _tables().filter(Q(seat_set__user=user) | Q(created_by=user)).distinct()
    if status:
        query = query.filter(status=status)
    return list(query.order_by("-created_at")[:limit])


def seat_of(table: Table, user: AbstractBaseUser | AnonymousUser) -> int | None:
    """The position ``user`` holds at ``table``, or None (uses the prefetched seats)."""
    if not user.is_authenticated:
        return None
    for seat in table.seat_set.all():
        if seat.user_id == user.pk:
            return int(seat.position)
    return None


def events_between(
    game_id: uuid.UUID, *, after: int, upto: int, limit: int | None = None
) -> list[StoredEvent]:
    """Stored events with ``after < seq <= upto``, in order (at most ``limit``)."""
    query = StoredEvent.objects.filter(stream_id=game_id, seq__gt=after, seq__lte=upto).order_by(
        "seq"
    )
    if limit is not None:
        query = query[:limit]
    return list(query)


def commands_of(game_id: uuid.UUID) -> list[CommandRecord]:
    """Every command of the game, accepted and refused, in the order they were logged."""
    return list(CommandRecord.objects.filter(stream_id=game_id).order_by("id"))


def event_at(game_id: uuid.UUID, seq: int) -> StoredEvent | None:
    """The stored event ``seq`` of the game (its hash and prev_hash), or None."""
    return StoredEvent.objects.filter(stream_id=game_id, seq=seq).first()


# --- undo --------------------------------------------------------------------------------


def last_undoable_command(game_id: uuid.UUID) -> CommandRecord | None:
    """The latest accepted command that appended events (what an undo would take back)."""
    return (
        CommandRecord.objects.filter(
            stream_id=game_id, outcome=CommandRecord.ACCEPTED, first_seq__isnull=False
        )
        .order_by("-last_seq")
        .first()
    )


def undo_check(
    table: Table, *, seat: int | None, version: int, over: bool
) -> tuple[CommandRecord | None, ServiceError | None]:
    """The command ``seat`` would take back now, or why it may not: the table allows undo,
    the game is not over, the latest command was this seat's own (not an undo, not the
    system's turn timeout), nothing was appended since, and it drew the seat no cards. One
    query. ``games.service.game_undo`` decides by it, the state response offers by it."""
    if not table.undo_allowed:
        return None, ServiceError(
            "undo_not_allowed", "This table does not allow undo.", mode=table.mode
        )
    if over:
        return None, ServiceError("game_over", "The game is over.")
    types = [f"{table.game}.{kind}" for kind in UNDO_REVEALING]
    drew = StoredEvent.objects.filter(
        stream_id=table.id,
        seq__gte=OuterRef("first_seq"),
        seq__lte=OuterRef("last_seq"),
        type__in=types,
        payload__seat=seat,
    )
    last = (
        CommandRecord.objects.filter(
            stream_id=table.id, outcome=CommandRecord.ACCEPTED, first_seq__isnull=False
        )
        .annotate(drew=Exists(drew))
        .order_by("-last_seq")
        .first()
    )
    if (
        last is None
        or last.command.get("type") == "undo"
        or last.seat is None
        or last.actor == SYSTEM  # a turn timeout is not the seat's to take back
    ):
        return None, ServiceError("nothing_to_undo", "There is no command to take back.")
    if last.seat != seat:
        return None, ServiceError(
            "other_seat_acted", "Another seat has acted since.", seat=last.seat
        )
    if last.last_seq != version:
        return None, ServiceError("other_seat_acted", "Something has happened since.")
    if last.drew:
        return None, ServiceError("undo_reveals_cards", "Your command drew you cards.")
    return last, None


def undo_available(table: Table, *, seat: int | None, version: int, over: bool) -> bool:
    """Whether to offer ``seat`` an undo now (see ``undo_check``)."""
    if seat is None:
        return False
    return undo_check(table, seat=seat, version=version, over=over)[1] is None


# --- turn time limits --------------------------------------------------------------------


def turn_deadline(table: Table, *, key: str | None) -> int | None:
    """The running turn's deadline (ms since the epoch) from the game's clock row, when
    the table has a turn limit and the row is for the turn named ``key``
    (``games.service.turn_key``; None: no human turn is running)."""
    if not table.turn_seconds or not key:
        return None
    row = GameClock.objects.filter(game_id=table.id).values_list("turn_key", "turn_deadline_ms")
    found = row.first()
    if found is None or found[0] != key:
        return None
    return found[1]
