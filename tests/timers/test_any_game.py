"""The timers on a real Celery worker, for every registered game (parametrized): a step's
turn clock runs out and the system plays for every human seat it awaits; bot seats play a
game to its end by themselves. Asked only through ``games.core.Game``."""

from __future__ import annotations

import pytest

from events.models import CommandRecord
from games.models import Table
from tests.generic.helpers import GAMES, awaited, loaded, started
from tests.timers.test_workers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("game", GAMES)
def test_a_turn_clock_plays_for_every_awaited_human_seat(workers, game) -> None:
    workers()
    table = started(game, humans=2, turn_seconds=2)
    waiting = awaited(table)
    key = loaded(table).definition.status(loaded(table).state).step_key

    def timed_out() -> list[CommandRecord]:
        found = CommandRecord.objects.filter(
            stream_id=table.id, actor="system", metadata__timeout=True, outcome="accepted"
        )
        return list(found) if found.count() >= len(waiting) else []

    records = wait_until(timed_out, 20, "the step's timeouts", table)
    assert sorted(r.seat for r in records[: len(waiting)]) == sorted(waiting)
    now = loaded(table)
    assert now.definition.status(now.state).step_key != key


@pytest.mark.parametrize("game", GAMES)
def test_bot_seats_play_by_themselves_on_the_worker(workers, game) -> None:
    """Bots keep a game moving with nobody connected: each move schedules the next."""
    workers()
    table = started(game, humans=0, bots=2, seed=f"worker-{game}")

    def moved() -> bool:
        # six moves, and every seat's: a game whose turn is several commands of one seat
        # (a plan, skills, an order) takes more than six moves to reach the next seat
        bots = CommandRecord.objects.filter(
            stream_id=table.id, actor__startswith="bot:", outcome="accepted"
        )
        every = set(bots.values_list("seat", flat=True)) == set(range(table.seats))
        return (bots.count() >= 6 and every) or Table.objects.filter(
            id=table.id, status=Table.Status.FINISHED
        ).exists()

    wait_until(moved, 60, "six bot moves, by every seat", table)
    seats = set(
        CommandRecord.objects.filter(stream_id=table.id, actor__startswith="bot:").values_list(
            "seat", flat=True
        )
    )
    table.refresh_from_db()
    assert seats == set(range(table.seats))  # every bot moved
