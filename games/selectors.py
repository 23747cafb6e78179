"""Read helpers for the HTTP API: tables, seats, stored events and the command log.

Reads only. Game state is never read here: it comes from ``games.service`` (``game_read``,
``game_load``), and it leaves the server only through the engine's viewer projection.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, models
from django.db.models import Prefetch, Q, QuerySet

from events.models import CommandRecord, StoredEvent
from events.store import UNDONE, TailRow, stream_version
from games import cache
from games.core import ALL, Reveal, union_reveals
from games.errors import ServiceError
from games.models import Seat, Table
from games.registry import get_game

__all__ = [
    "commands_of",
    "event_at",
    "events_between",
    "LastCommand",
    "last_command",
    "seat_of",
    "stream_version",
    "table_detail",
    "table_game",
    "tables_open",
    "tables_of_user",
    "undo_available",
    "winners_of",
]

M = TypeVar("M", bound=models.Model)

SYSTEM = "system"  # the actor of timers' commands (games.service.SYSTEM)


def _tables() -> QuerySet[Table]:
    seats = Seat.objects.select_related("user").order_by("position")
    return Table.objects.prefetch_related(Prefetch("seat_set", queryset=seats))


def table_detail(table_id: uuid.UUID, *, recheck: bool = True) -> Table:
    """The table with its seats (their users with only the username loaded: what a seat
    shows). A started table comes from this process's cache (its seats are fixed) with its
    status re-read, one small query, until it is finished; otherwise one query.

    ``recheck=False``: the caller loads the game next and re-reads the table if the game is
    over (``games.reads.refreshed``), so a cached started table's status is not re-read: a
    table finishes only in the statement that appends its game's last event."""
    try:
        key = table_id if isinstance(table_id, uuid.UUID) else uuid.UUID(str(table_id))
    except ValueError:
        raise ServiceError(
            "game_not_found", "No table or game has that id.", game=str(table_id)
        ) from None
    cached = cache.tables.get(key)
    if cached is not None and (not recheck or _status_unchanged(cached)):
        return cached
    table = _table_with_seats(key)
    if table.status != Table.Status.OPEN:
        cache.tables.put(key, table)
    return table


def _status_unchanged(table: Table) -> bool:
    if table.status == Table.Status.FINISHED:
        return True  # final
    with connection.cursor() as cursor:
        cursor.execute("SELECT status FROM games_table WHERE id = %s", [table.id])
        row = cursor.fetchone()
    return row is not None and row[0] == table.status


def _columns(model: type[models.Model], alias: str) -> str:
    return ", ".join(f'{alias}."{f.column}"' for f in model._meta.concrete_fields)


# The table, each seat and its user's name in one raw query: the ORM's version of this join
# (select_related) cost more than a millisecond to build and plan per cold read.
_TABLE_WITH_SEATS = (
    f"SELECT {_columns(Table, 't')}, {_columns(Seat, 's')}, u.username "  # noqa: S608
    "FROM games_table t LEFT JOIN games_seat s ON s.table_id = t.id "
    "LEFT JOIN auth_user u ON u.id = s.user_id WHERE t.id = %s ORDER BY s.position"
)


def _instance(model: type[M], values: Sequence[Any]) -> M:
    """A model instance from its concrete fields' raw values, as the ORM builds one."""
    fields = model._meta.concrete_fields
    converted = []
    for field, value in zip(fields, values, strict=True):
        for convert in field.get_db_converters(connection):
            value = convert(value, None, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


def _table_with_seats(table_id: uuid.UUID) -> Table:
    with connection.cursor() as cursor:
        cursor.execute(_TABLE_WITH_SEATS, [table_id])
        rows = cursor.fetchall()
    if not rows:
        raise ServiceError("game_not_found", "No table or game has that id.", game=str(table_id))
    width = len(Table._meta.concrete_fields)
    table = _instance(Table, rows[0][:width])
    seats = []
    users = get_user_model()
    for row in rows:
        if row[width] is None:
            continue  # a table without seats
        seat = _instance(Seat, row[width:-1])
        seat.table = table  # one instance, as a prefetch would leave it
        if seat.user_id is not None:
            # only the name is read (Seat.display_name); other fields load on first use
            seat.user = users.from_db(connection.alias, ["id", "username"], [seat.user_id, row[-1]])
        seats.append(seat)
    cached: Any = table.seat_set.all()  # what prefetch_related("seat_set") leaves behind
    cached._result_cache = seats
    cached._prefetch_done = True
    table._prefetched_objects_cache = {"seat_set": cached}  # type: ignore[attr-defined]
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


# The last event of each stream: one index probe per stream (uniq_stream_seq, backwards).
_LAST_EVENTS = """
SELECT t.id, e.type, e.payload
FROM unnest(%s::uuid[]) AS t(id)
CROSS JOIN LATERAL (
    SELECT type, payload FROM events_storedevent
    WHERE stream_id = t.id ORDER BY seq DESC LIMIT 1
) AS e
"""


def winners_of(tables: Sequence[Table]) -> dict[uuid.UUID, list[int]]:
    """The winning seats of each finished table among ``tables``: its game's last event is
    its end (nothing is appended after it), public once the game is over. One query."""
    finished = {t.id: t.game for t in tables if t.status == Table.Status.FINISHED}
    if not finished:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_LAST_EVENTS, [list(finished)])
        rows = cursor.fetchall()
    found = {}
    for stream, kind, payload in rows:
        game, _, short = str(kind).partition(".")
        if game != finished[stream]:
            continue
        data = payload if isinstance(payload, dict) else json.loads(payload)
        winners = get_game(game).final_winners(short, data)
        if winners is not None:
            found[stream] = winners
    return found


def seat_of(table: Table, user: AbstractBaseUser | AnonymousUser) -> int | None:
    """The position ``user`` holds at ``table``, or None (uses the prefetched seats)."""
    if not user.is_authenticated:
        return None
    for seat in table.seat_set.all():
        if seat.user_id == user.pk:
            return int(seat.position)
    return None


def events_between(
    game_id: uuid.UUID, *, after: int, upto: int | None, limit: int | None = None
) -> list[StoredEvent]:
    """Stored events with ``after < seq <= upto`` (None: the latest), in order (at most
    ``limit``)."""
    query = StoredEvent.objects.filter(stream_id=game_id, seq__gt=after)
    if upto is not None:
        query = query.filter(seq__lte=upto)
    query = query.order_by("seq")
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


@dataclass(frozen=True)
class LastCommand:
    """The command that appended a stream's latest events: what an undo would take back."""

    command_id: uuid.UUID | None
    actor: str
    seat: int | None
    first_seq: int
    last_seq: int
    undo: bool  # it was an undo (its event is the undo marker)
    # the seats its events showed hidden information to (``ALL``: every seat)
    revealed_to: Reveal


def last_command(rows: Sequence[TailRow], game: str) -> LastCommand | None:
    """The last command among ``rows``: stored events in order, up to the stream's end,
    starting where a command starts (after a snapshot or a version a reader folded to:
    commands append all their events at once). None for no rows."""
    if not rows:
        return None
    end = rows[-1]
    start = len(rows) - 1
    while start and rows[start - 1].command_id == end.command_id:
        start -= 1
    run = rows[start:]
    return LastCommand(
        command_id=end.command_id,
        actor=end.actor,
        seat=end.seat,
        first_seq=run[0].seq,
        last_seq=end.seq,
        undo=any(r.type == UNDONE for r in run),  # the marker, and a reshuffle after it
        revealed_to=_revealed_to(game, ((r.type, _current(game, r)) for r in run)),
    )


def _current(game: str, row: TailRow) -> dict[str, Any]:
    """A stored game event's payload in today's shape (the undo marker's as it is)."""
    if row.type == UNDONE:
        return row.payload
    return get_game(game).upcast_event(row.type.split(".", 1)[1], row.payload, row.schema_version)


def _revealed_to(game: str, events: Iterable[tuple[str, dict[str, Any]]]) -> Reveal:
    """The seats the game says these stored events (type, payload) showed hidden
    information to; the undo marker reveals nothing."""
    definition = get_game(game)
    prefix = f"{game}."
    return union_reveals(
        [
            definition.revealed_to(kind.removeprefix(prefix), payload)
            for kind, payload in events
            if kind.startswith(prefix)
        ]
    )


def _last_command_logged(table: Table) -> LastCommand | None:
    """``last_command`` from the command log, for a reader that has not seen the events
    of the stream's last command (a game loaded from a snapshot with nothing after it)."""
    record = (
        CommandRecord.objects.filter(
            stream_id=table.id, outcome=CommandRecord.ACCEPTED, first_seq__isnull=False
        )
        .order_by("-last_seq")
        .first()
    )
    if record is None:
        return None
    first, last = int(record.first_seq or 0), int(record.last_seq or 0)
    events = StoredEvent.objects.filter(
        stream_id=table.id, seq__gte=first, seq__lte=last
    ).values_list("type", "payload")
    return LastCommand(
        command_id=record.command_id,
        actor=record.actor,
        seat=record.seat,
        first_seq=first,
        last_seq=last,
        undo=record.command.get("type") == "undo",
        revealed_to=_revealed_to(table.game, events),
    )


_UNKNOWN: Any = object()


def undo_check(
    table: Table,
    *,
    seat: int | None,
    version: int,
    over: bool,
    last: LastCommand | None = _UNKNOWN,
) -> tuple[LastCommand | None, ServiceError | None]:
    """The command ``seat`` would take back now, or why it may not: the table allows undo,
    the game is not over, the latest command was this seat's own (not an undo, not the
    system's turn timeout), nothing was appended since, and its events showed no seat
    hidden cards (the game's ``revealed_to``): not its own draws (``undo_reveals_cards``),
    nor another seat's (``undo_after_reveal``) unless the game can hide them again by a
    reshuffle (``Game.undo_across_reveals``).
    ``games.service.game_undo`` decides by it, the state response offers by it.

    ``last``: the stream's ``last_command`` if the caller has it from the events it loaded
    (``LoadedGame.last_command``); None there means unknown: then one query of the log."""
    if not table.undo_allowed:
        return None, ServiceError(
            "undo_not_allowed", "This table does not allow undo.", mode=table.mode
        )
    if over:
        return None, ServiceError("game_over", "The game is over.")
    if last is _UNKNOWN or last is None:
        last = _last_command_logged(table)
    if last is None or last.undo or last.seat is None or last.actor == SYSTEM:
        # a turn timeout (the system's) is not the seat's to take back
        return None, ServiceError("nothing_to_undo", "There is no command to take back.")
    if last.seat != seat:
        return None, ServiceError(
            "other_seat_acted", "Another seat has acted since.", seat=last.seat
        )
    if last.last_seq != version:
        return None, ServiceError("other_seat_acted", "Something has happened since.")
    if last.revealed_to != ALL and seat in last.revealed_to:
        return None, ServiceError("undo_reveals_cards", "Your command drew you cards.")
    if last.revealed_to == ALL:
        # shown to every seat (sealed choices revealed together): none may unsee it
        return None, ServiceError(
            "undo_after_reveal", "Your command revealed hidden information.", seats="all"
        )
    if last.revealed_to and get_game(table.game).undo_across_reveals:
        # Another seat saw cards (the next seat's draw): the game puts them back and the
        # deck in a new order from a fresh seed (``games.undo``), so the undo is allowed.
        return last, None
    if last.revealed_to:
        # Another seat saw cards it would not have seen (the top of the deck, drawn at its
        # turn's start): undone, the same cards come to someone it now knows has them.
        return None, ServiceError(
            "undo_after_reveal",
            "Cards were shown to another seat since your command.",
            seats=sorted(last.revealed_to),
        )
    return last, None


def undo_available(
    table: Table, *, seat: int | None, version: int, over: bool, last: LastCommand | None
) -> bool:
    """Whether to offer ``seat`` an undo now (see ``undo_check``); no query when ``last``
    is known or the table allows no undo."""
    if seat is None:
        return False
    return undo_check(table, seat=seat, version=version, over=over, last=last)[1] is None


def table_game(table_id: uuid.UUID) -> str | None:
    """The game a table plays (its registry name), or None when there is no such table:
    what the web pages dispatch on."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT game FROM games_table WHERE id = %s", [table_id])
        row = cursor.fetchone()
    return None if row is None else str(row[0])
