"""Read helpers for the HTTP API: tables, seats, stored events and the command log.

Reads only. Game state is never read here: it comes from ``games.service`` (``game_read``,
``game_load``), and it leaves the server only through the engine's viewer projection.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from events.models import CommandRecord, StoredEvent
from events.store import stream_version
from games.errors import ServiceError
from games.models import Seat, Table

__all__ = [
    "commands_of",
    "events_between",
    "seat_of",
    "stream_version",
    "table_detail",
    "tables_open",
    "tables_of_user",
]


def _tables() -> QuerySet[Table]:
    seats = Seat.objects.select_related("user").order_by("position")
    return Table.objects.prefetch_related(Prefetch("seat_set", queryset=seats))


def table_detail(table_id: uuid.UUID) -> Table:
    """The table with its seats and their users (one query each)."""
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
