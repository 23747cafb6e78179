"""A game a tournament director's ruling ended keeps no time (games.reviews): with a real
worker (and its beat and sweeper thread) running, a reaction window left open and a human
turn's clock left running get no close and no timeout after their deadlines; nothing is
appended, and no task errs or loops."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth.models import User

from events.models import CommandRecord, StoredEvent
from games import reviews
from games.clock_loop import ClockLoop
from games.lobby import seat_join, table_create, table_start
from games.models import GameClock, Table
from games.service import clock_ms
from tests.factories import UserFactory
from tests.timers.conftest import GRACE_SECONDS, SWEEP_SECONDS
from tests.timers.test_workers import open_window

pytestmark = pytest.mark.django_db(transaction=True)


def rule(table: Table, kind: str) -> None:
    director = User.objects.create_user(f"director-{kind}", is_staff=True)
    reviews.ruling_record(
        table=Table.objects.get(id=table.id),
        user=director,
        kind=kind,
        winners=[1] if kind == "award" else [],
        reason="A player left the tournament.",
    )


def cleared(table: Table) -> bool:
    clock = GameClock.objects.get(game_id=table.id)
    due = (clock.window_deadline_ms, clock.turn_deadline_ms, clock.bot_due_ms)
    return due == (None, None, None) and clock.window_id == "" and clock.turn_key == ""


def versions(table: Table) -> tuple[int, int]:
    """The game's events and its command records (accepted or refused)."""
    return (
        StoredEvent.objects.filter(stream_id=table.id).count(),
        CommandRecord.objects.filter(stream_id=table.id).count(),
    )


def test_a_ruled_game_gets_no_close_and_no_timeout_after_its_deadlines(workers) -> None:
    worker = workers()
    # a reaction window open (its close task is on its way), ...
    windowed, window = open_window(reaction_seconds=2)
    # ... and a human turn's clock running (its timeout task too)
    timed = table_create(created_by=None, seats=2, turn_seconds=2, turn_action="discard")
    for name in ("alice-t", "bob-t"):
        seat_join(table_id=timed.id, user=UserFactory(username=name))
    table_start(table_id=timed.id)
    turn_deadline = GameClock.objects.get(game_id=timed.id).turn_deadline_ms
    assert turn_deadline is not None and turn_deadline - clock_ms() > 1000

    # (the seats' standing reactions to the window answer first: a pass, privately logged)
    worker.wait_for(r"standing_react\[.*\] succeeded", 10, "the standing reactions")
    rule(windowed, "void")
    rule(timed, "award")
    before = {t.id: versions(t) for t in (windowed, timed)}
    for table in (windowed, timed):
        assert Table.objects.get(id=table.id).status == Table.Status.FINISHED
        assert cleared(table)

    # past both deadlines, the sweeper's grace and a few sweeps
    latest = max(window.deadline, turn_deadline)
    wait = (latest - clock_ms()) / 1000 + GRACE_SECONDS + 6 * SWEEP_SECONDS
    time.sleep(max(wait, 0))
    for table in (windowed, timed):
        assert versions(table) == before[table.id]  # no event, not even a refusal
        assert cleared(table)
    assert not StoredEvent.objects.filter(stream_id=windowed.id, type__endswith="WindowClosed")
    loop = ClockLoop(grace=0, outage_grace=0, threads=1)
    assert loop.run_once() == 0  # the clock loop finds nothing due either

    # the tasks ran and found nothing to do: no error, no retry loop
    log = worker.text()
    assert re.search(r"close_window\[.*\] succeeded .*'already closed'", log), worker.tail()
    assert re.search(r"turn_timeout\[.*\] succeeded .*'no move'", log), worker.tail()
    assert "Traceback" not in log and "ERROR" not in log, worker.tail()
    assert len(re.findall(r"close_window\[.*\] succeeded", log)) == 1
