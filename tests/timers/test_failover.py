"""Timers with parts missing, on real workers and a real broker (see conftest.py): beat
down and the worker holding the countdowns killed; a command whose answer (and tasks)
were lost with its web process, then retried; a close task for a window that already
ended. See docs/timers.md."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

import pytest

from events.models import CommandRecord
from games.models import Table
from games.service import clock_ms, derived_command_id
from tests.service.helpers import cards_of, hand_stack, human_table, run, state
from tests.timers.conftest import Worker
from tests.timers.test_workers import closes, lateness_ms, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

REACTION_SECONDS = 8


def window_table(reaction_seconds: int = REACTION_SECONDS) -> Table:
    """Three humans; seat 0 holds a CONTRACT, nobody a counter."""
    stacked = hand_stack(["CONTRACT"], [], [])
    return human_table(3, stacked=stacked, reaction_seconds=reaction_seconds)


def contract(table: Table, **kw: Any) -> Any:
    """Seat 0 plays its CONTRACT on seat 1 (real clock): a window opens; returns it."""
    target = state(table).state.players[1].crew[0]
    play = {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]}
    run(table, 0, play, **kw)
    window = state(table).state.window
    assert window is not None
    return window


def test_beat_down_and_the_worker_holding_the_countdowns_killed(workers) -> None:
    """No beat anywhere: a surviving worker's own sweeper closes what the dead one held
    (on Redis its tasks would come back only after the visibility timeout, two hours)."""
    tables = [window_table() for _ in range(4)]  # set up first: the machine may be slow
    pair = [workers(beat=False), workers(beat=False)]
    games = [(table, contract(table)) for table in tables]

    def held(worker: Worker) -> int:
        return len(re.findall(r"close_window\[.*\] received", worker.text()))

    wait_until(lambda: sum(held(w) for w in pair) >= len(games), 15, "the countdown tasks")
    killed = max(pair, key=held)  # the one holding the most of them
    killed.kill()
    assert all(state(t).state.window is not None for t, _ in games), "closed too early"
    for table, window in games:
        (closed,) = wait_until(lambda t=table: closes(t), 30, "the window's close", table)
        late = lateness_ms(closed, window.deadline)
        print(f"closed by {closed.metadata['by']} {late} ms after the deadline")
        # grace (1 s) + one sweep interval (0.5 s) + the database's work, on a busy machine
        assert 0 <= late < 2500, f"closed {late} ms after its deadline"
    assert all(w.proc.poll() is None for w in pair if w is not killed)


def test_a_retried_command_whose_answer_was_lost_gets_its_window_closed_on_time(
    workers, settings
) -> None:
    """The web process committed the command and died before sending its close task; the
    client retries with the same key. No sweeper and no beat: only a task can close it."""
    workers(beat=False, FB_WORKER_SWEEP="false")
    table = window_table(reaction_seconds=3)
    key = uuid.uuid4()
    settings.FB_SCHEDULE_TASKS = False
    contract(table, command_id=key)  # committed; its task never sent
    settings.FB_SCHEDULE_TASKS = True
    window = contract(table, command_id=key)  # the retry gets the stored answer
    assert CommandRecord.objects.filter(stream_id=table.id, command_id=key).count() == 1
    (closed,) = wait_until(lambda: closes(table), 15, "the window's close", table)
    assert closed.metadata["by"] == "task"
    assert 0 <= lateness_ms(closed, window.deadline) < 1000


def test_a_close_task_for_a_window_that_ended_early_records_nothing(workers) -> None:
    worker = workers()
    # bob holds a FAMILY INFLUENCE: his counter ends the window early (automatic passes at
    # a table of people are sealed and never do: docs/rules.md, "Hand passes are public")
    stacked = hand_stack(["CONTRACT"], ["FAMILY_INFLUENCE"], [])
    table = human_table(3, stacked=stacked, reaction_seconds=5)
    window = contract(table)
    run(table, 2, {"type": "pass", "window": window.id})  # sealed: ends nothing
    card = cards_of("FAMILY_INFLUENCE")[0]
    run(table, 1, {"type": "counter", "window": window.id, "card": card})  # closed now
    assert state(table).state.window is None
    worker.wait_for(r"close_window\[.*\] succeeded in .*'already closed'", 20,
                    "the deadline's close task")  # fmt: skip
    assert clock_ms() >= window.deadline
    close_id = derived_command_id(table.id, f"close:{window.id}:{window.deadline}")
    assert not CommandRecord.objects.filter(stream_id=table.id, command_id=close_id).exists()
    time.sleep(1.5)  # the sweepers have had their turns too
    assert CommandRecord.objects.filter(stream_id=table.id, outcome="refused").count() == 0
