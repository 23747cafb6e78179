"""Keeping the ratings' read model current with the records (docs/ratings.md).

Ratings are a fold over a game's finished ranked games in the order they ended
(``ratings.core.replay``). ``catch_up`` folds in the games the projection has not read:
at the end of the order, one after another; a game that ended before the last one read
(it committed late) or whose deciding ruling changed since it was read (a void, an award)
rebuilds its game's ratings from the records instead, so the projection is always what
``rebuild`` gives from nothing. One projector writes at a time (a transaction-level
advisory lock), whoever calls it: the workers' thread (``ratings.worker``) or
``manage.py recompute_ratings``.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Sequence

from django.db import connection, transaction

from games.registry import game_names
from games.results import Ending, GameResult, ranked_endings, ranked_result
from ratings.core import NotRated, Rating, Result, rate
from ratings.models import RatedGame, RatingSnapshot

log = logging.getLogger(__name__)

PROJECTOR_LOCK = 0x66_6272_6174_6E67  # any constant the project uses for nothing else


def identity(seat_user: int | None, bot: str) -> str:
    """Who a seat is to the ratings: a person, or a bot kind (every bot of a kind is one
    identity, rated like a person: docs/ratings.md)."""
    return f"user:{seat_user}" if seat_user is not None else f"bot:{bot}"


def as_result(result: GameResult) -> Result | None:
    if result.placements is None:
        return None
    seats = tuple(identity(s.user_id, s.bot) for s in result.seats)
    return Result(str(result.ending.table_id), seats, result.placements)


def _lock() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [PROJECTOR_LOCK])


def _current(game: str) -> dict[str, Rating]:
    """Everyone's latest rating in ``game`` (the latest snapshot of each identity)."""
    rows = (
        RatingSnapshot.objects.filter(game=game)
        .order_by("identity", "-n")
        .distinct("identity")
        .values_list("identity", "mu", "sigma", "games")
    )
    return {who: Rating(mu, sigma, games) for who, mu, sigma, games in rows}


def _fold(game: str, endings: Sequence[Ending], n: int) -> int:
    """Rate ``endings`` (in order, after game ``n`` of ``game``); returns how many."""
    current = _current(game)
    for ending in endings:
        n += 1
        result = ranked_result(ending)
        rating_input = as_result(result)
        rated = False
        if rating_input is not None:
            try:
                after = rate(current, rating_input)
            except NotRated:
                after = {}
            rated = bool(after)
            snapshots = []
            for who, new in after.items():
                old = current.get(who, Rating())
                places = [
                    i
                    for i, group in enumerate(rating_input.placements, start=1)
                    for seat in group
                    if rating_input.seats[seat] == who
                ]
                user = int(who.removeprefix("user:")) if who.startswith("user:") else None
                snapshots.append(
                    RatingSnapshot(
                        game=game,
                        n=n,
                        table_id=ending.table_id,
                        ended_at=ending.ended_at,
                        identity=who,
                        user_id=user,
                        place=min(places),
                        seats=len(rating_input.seats),
                        mu_before=old.mu,
                        sigma_before=old.sigma,
                        mu=new.mu,
                        sigma=new.sigma,
                        games=new.games,
                    )
                )
            RatingSnapshot.objects.bulk_create(snapshots)
            current.update(after)
        RatedGame.objects.create(
            table_id=ending.table_id,
            game=game,
            n=n,
            ended_at=ending.ended_at,
            ruling=ending.ruling,
            rated=rated,
            decided_by=result.decided_by,
        )
    return len(endings)


def _rebuild(game: str) -> int:
    RatingSnapshot.objects.filter(game=game).delete()
    RatedGame.objects.filter(game=game).delete()
    return _fold(game, ranked_endings(game=game), 0)


def rebuild(games: Iterable[str] | None = None) -> int:
    """Throw the projection of ``games`` (default: every game) away and fold every
    finished ranked game's record again; returns the games read."""
    read = 0
    with transaction.atomic():
        _lock()
        for game in games if games is not None else game_names():
            read += _rebuild(game)
    return read


def catch_up(tables: Iterable[uuid.UUID] | None = None) -> int:
    """Fold in the finished ranked games (among ``tables``; default: all) the projection
    has not read, or read before their result changed; returns the games read."""
    read = 0
    with transaction.atomic():
        _lock()
        endings = ranked_endings(tables=list(tables) if tables is not None else None)
        if not endings:
            return 0
        known = {
            r.table_id: r.ruling
            for r in RatedGame.objects.filter(table_id__in=[e.table_id for e in endings])
        }
        new: dict[str, list[Ending]] = {}
        changed: set[str] = set()
        for ending in endings:
            if ending.table_id not in known:
                new.setdefault(ending.game, []).append(ending)
            elif known[ending.table_id] != ending.ruling:
                changed.add(ending.game)
        for game, found in new.items():
            last = RatedGame.objects.filter(game=game).order_by("-n").first()
            if last is not None and found[0].key < (last.ended_at, str(last.table_id)):
                changed.add(game)  # one ended before a game already folded in
            elif game not in changed:
                read += _fold(game, found, last.n if last is not None else 0)
        for game in sorted(changed):
            log.info("ratings of %s rebuilt: a result changed or arrived late", game)
            read += _rebuild(game)
    return read
