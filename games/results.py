"""Finished games' results, for readers beside the service (ratings, docs/ratings.md;
the tournaments' review queue reads what the turn clock did, ``clock_marks``).

A ranked game's result is read from its record: its seats, the seats' placements as its
game ranks them (``Game.placements``, from the state its events fold to) and the latest
deciding ruling (``games.reviews``), which overrides play: a void counts for nobody, an
award puts the awarded seats first and everyone else after them. Plain data out; the
readers never see a table, a state or an event.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from django.db import connection
from django.db.models import Prefetch

from events.store import iso
from games import absence, reviews, selectors
from games.core import Placements
from games.loading import game_load, table_get
from games.models import Seat, Table
from games.registry import get_game

DecidedBy = Literal["play", "abandonment", "award", "void"]


@dataclass(frozen=True)
class Ending:
    """A finished ranked game, cheaply: when its last event was recorded (the order
    ratings fold games in; a ruling that ends a game later does not move it) and its latest
    deciding ruling (0: none), so a reader can tell a result that changed."""

    table_id: uuid.UUID
    game: str
    ended_at: datetime
    ruling: int

    @property
    def key(self) -> tuple[datetime, str]:
        return (self.ended_at, str(self.table_id))


@dataclass(frozen=True)
class SeatResult:
    position: int
    user_id: int | None
    username: str | None
    bot: str  # the bot kind, "" for a person
    name: str


@dataclass(frozen=True)
class GameResult:
    ending: Ending
    seats: tuple[SeatResult, ...]
    placements: Placements | None  # None: the game counts for nobody (void)
    decided_by: DecidedBy


# One row per finished ranked table: its last event (one index probe, backwards) and its
# latest deciding ruling; in the order the games ended (ties by id, so it is total).
_ENDINGS = """
SELECT t.id, t.game, e.recorded_at,
       COALESCE((SELECT max(r.id) FROM games_ruling r
                 WHERE r.table_id = t.id AND r.kind IN ('award', 'void')), 0)
FROM games_table t
CROSS JOIN LATERAL (
    SELECT recorded_at FROM events_storedevent
    WHERE stream_id = t.id ORDER BY seq DESC LIMIT 1
) AS e
WHERE t.mode = %s AND t.status = %s {where}
ORDER BY e.recorded_at, t.id::text
"""


def ranked_endings(
    *, game: str | None = None, tables: list[uuid.UUID] | None = None
) -> list[Ending]:
    """Finished ranked games (of ``game``; among ``tables``), in the order they ended."""
    where = ""
    params: list[Any] = [Table.Mode.RANKED, Table.Status.FINISHED]
    if game is not None:
        where += " AND t.game = %s"
        params.append(game)
    if tables is not None:
        where += " AND t.id = ANY(%s::uuid[])"
        params.append(tables)
    with connection.cursor() as cursor:
        cursor.execute(_ENDINGS.format(where=where), params)
        rows = cursor.fetchall()
    return [Ending(t, g, at, int(r)) for t, g, at, r in rows]


def ranked_result(ending: Ending) -> GameResult:
    """``ending``'s game as ratings read it: its seats and placements, a ruling first."""
    table = table_get(ending.table_id, seats=True)
    seats = tuple(
        SeatResult(
            position=s.position,
            user_id=s.user_id,
            username=s.user.get_username() if s.user is not None else None,
            bot=s.bot,
            name=s.display_name,
        )
        for s in table.seat_set.all()
    )
    decided = reviews.decided_result(table)
    if decided is not None and decided.kind == "void":
        return GameResult(ending, seats, None, "void")
    if decided is not None:  # an award: the awarded seats first, everyone else after
        won = tuple(sorted(decided.winners))
        rest = tuple(s.position for s in seats if s.position not in won)
        return GameResult(ending, seats, tuple(g for g in (won, rest) if g), "award")
    loaded = game_load(game_id=table.id, table=table)
    placements = get_game(table.game).placements(loaded.state)
    by: DecidedBy = "abandonment" if absence.ended_by_abandonment(table.id) else "play"
    return GameResult(ending, seats, placements, by)


# --- a player's recent games --------------------------------------------------------------


def recent_games(user_id: int, *, limit: int = 20) -> list[dict[str, Any]]:
    """The games a person sat at, started or finished, newest first (sandboxes are
    practice, left out): what any signed-in reader may see of a table (its seats, its
    winners once over, how its result was decided), never a hand, a seed or an option."""
    seats_in_order = Seat.objects.select_related("user").order_by("position")
    tables = list(
        Table.objects.prefetch_related(Prefetch("seat_set", queryset=seats_in_order))
        .filter(seat_set__user_id=user_id)
        .exclude(status=Table.Status.OPEN)
        .exclude(mode=Table.Mode.SANDBOX)
        .order_by("-started_at", "-created_at")[:limit]
    )
    winners = selectors.winners_of(tables)
    finished = [t.id for t in tables if t.status == Table.Status.FINISHED]
    decided = reviews.decided_results(finished)
    games = []
    for table in tables:
        seats = list(table.seat_set.all())
        seat = next(s.position for s in seats if s.user_id == user_id)
        ruling = decided.get(table.id)
        won = ruling.winners if ruling is not None else winners.get(table.id)
        games.append(
            {
                "id": str(table.id),
                "game": table.game,
                "title": get_game(table.game).title,
                "mode": table.mode,
                "status": table.status,
                "started_at": iso(table.started_at) if table.started_at else None,
                "seat": seat,
                "seats": [
                    {
                        "position": s.position,
                        "name": s.display_name,
                        "bot": s.bot or None,
                        "username": s.user.get_username() if s.user is not None else None,
                    }
                    for s in seats
                ],
                "winners": won,
                "decided_by": _decided_by(won, ruling),
                "result": _their_result(seat, won, ruling),
            }
        )
    return games


def _decided_by(won: list[int] | None, ruling: reviews.Decided | None) -> str | None:
    """How the result came: a director's ruling, play (None: not over)."""
    if ruling is not None:
        return "ruling"
    return "play" if won is not None else None


def _their_result(seat: int, won: list[int] | None, ruling: reviews.Decided | None) -> str | None:
    """The seat's result in a word: won, shared, lost, void (None: not over)."""
    if ruling is not None and ruling.kind == "void":
        return "void"
    if won is None:
        return None
    if seat in won:
        return "won" if len(won) == 1 else "shared"
    return "lost"


# --- what the turn clock did, for review queues ---------------------------------------------


@dataclass(frozen=True)
class ClockMarks:
    """What the turn clock did in a game: the moves it played for seats whose time ran out
    (each timeout's command once) and the seats it put out by the abandonment rule."""

    timeouts: int
    abandoned: tuple[int, ...]


# One pass over the games' events, each row's metadata read for its origin (games.timeouts,
# games.absence). The ids are few (a tournament's tables) and every row is one stream's.
_CLOCK_MARKS = """
SELECT stream_id,
       count(DISTINCT command_id) FILTER (WHERE metadata->>'origin' = 'timeout'),
       coalesce(array_agg(DISTINCT (metadata->>'abandoned')::int)
                FILTER (WHERE metadata->>'origin' = %s), '{}')
FROM events_storedevent
WHERE stream_id = ANY(%s) AND metadata->>'origin' IN ('timeout', %s)
GROUP BY stream_id
"""


def clock_marks(table_ids: list[uuid.UUID]) -> dict[uuid.UUID, ClockMarks]:
    """The games among ``table_ids`` where the turn clock played or put a seat out."""
    if not table_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_CLOCK_MARKS, [absence.ABANDON, table_ids, absence.ABANDON])
        rows = cursor.fetchall()
    return {
        row[0]: ClockMarks(timeouts=int(row[1]), abandoned=tuple(sorted(row[2])))
        for row in rows
        if row[1] or row[2]
    }
