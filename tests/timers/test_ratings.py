"""Ratings on a real Celery worker: a ranked game that bots play to its end on the worker
is rated by the worker's ratings thread (``ratings.worker``) once its end is announced,
with the numbers a recomputation from the records gives."""

from __future__ import annotations

import pytest

from games.lobby import seat_add_bot, table_create, table_start
from games.models import Table
from ratings.models import RatedGame, RatingSnapshot
from ratings.projector import rebuild
from tests.timers.test_workers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def snapshots() -> list[tuple[object, ...]]:
    return list(
        RatingSnapshot.objects.order_by("game", "n", "identity").values_list(
            "game", "n", "table_id", "identity", "mu", "sigma", "games"
        )
    )


def test_a_ranked_game_bots_play_to_its_end_on_the_worker_updates_their_ratings(
    workers,
) -> None:
    # a long sweep: the rating must come from hearing the game's end, not from a sweep
    workers(FB_RATINGS_SWEEP_SECONDS="600")
    table = table_create(created_by=None, game="goofspiel", seats=2, mode=Table.Mode.RANKED)
    seat_add_bot(table_id=table.id, bot="heuristic")
    seat_add_bot(table_id=table.id, bot="random")
    table_start(table_id=table.id)  # the bots play on the worker

    def rated() -> bool:
        return RatedGame.objects.filter(table_id=table.id).exists()

    wait_until(rated, 90, "the game rated", table)
    assert Table.objects.get(id=table.id).status == Table.Status.FINISHED
    rows = RatingSnapshot.objects.filter(table_id=table.id)
    assert {r.identity for r in rows} == {"bot:heuristic", "bot:random"}
    first, second = sorted(rows, key=lambda r: r.place)
    if first.place < second.place:
        assert first.mu > first.mu_before and second.mu < second.mu_before
    else:  # a drawn game (equal points) moves no estimate between equals, only certainty
        assert first.sigma < first.sigma_before and second.sigma < second.sigma_before
    kept = snapshots()
    rebuild()
    assert snapshots() == kept
