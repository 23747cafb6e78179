"""Timers on a real Celery worker and a real broker (see conftest.py): windows close at
their deadline with no client, exactly once whatever crashes; bots play by themselves;
a human turn that runs out is played by the system."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from events.models import CommandRecord, StoredEvent
from games import tasks
from games.family_business import RuleViolation
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import GameClock, Table
from games.record import game_export
from games.service import clock_ms, derived_command_id
from games.verify import verify_record
from tests.factories import UserFactory
from tests.service.helpers import cards_of, hand_stack, human_table, run, state

pytestmark = pytest.mark.django_db(transaction=True)

CLOSED = "family_business.WindowClosed"
COUNTERED = "family_business.CounterPlayed"


def wait_until(
    check: Callable[[], Any], timeout: float, what: str, table: Table | None = None
) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.05)
    pytest.fail(f"{what}: not within {timeout:.0f}s{diagnose(table)}")


def diagnose(table: Table | None) -> str:
    """What the game looks like, for a failure message (the worker's log follows it)."""
    if table is None:
        return ""
    if not Table.objects.filter(id=table.id).exists():
        return "; the table is gone (was the test database flushed by another session?)"
    rows = StoredEvent.objects.filter(stream_id=table.id).order_by("-seq")[:4]
    clock = GameClock.objects.filter(game_id=table.id).values().first()
    last = [(r.seq, r.type.split(".")[-1], r.actor, r.metadata) for r in rows]
    return f"; clock {clock}; now {clock_ms()}; latest events {last}"


def open_window(reaction_seconds: int = 2, counterer: bool = True):
    """A sandbox table of three humans; seat 0 plays a CONTRACT on seat 1 (real clock)."""
    hands = [["CONTRACT"], ["FAMILY_INFLUENCE"] if counterer else [], []]
    table = human_table(3, stacked=hand_stack(*hands), reaction_seconds=reaction_seconds)
    target = state(table).state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]})
    window = state(table).state.window
    assert window is not None
    return table, window


def closes(table: Table) -> list[StoredEvent]:
    return list(StoredEvent.objects.filter(stream_id=table.id, type=CLOSED))


def lateness_ms(event: StoredEvent, deadline: int) -> int:
    return int(event.recorded_at.timestamp() * 1000) - deadline


def test_a_window_closes_at_its_deadline_with_no_client(workers) -> None:
    workers()
    table, window = open_window(reaction_seconds=2)
    assert window.deadline - clock_ms() > 1500  # nobody but the timer can close it
    (closed,) = wait_until(lambda: closes(table), 15, "the window's close", table)
    late = lateness_ms(closed, window.deadline)
    assert 0 <= late <= 1000, f"closed {late} ms after its deadline{diagnose(table)}"
    print(f"closed {late} ms after its deadline")
    assert (closed.actor, closed.payload["reason"]) == ("system", "deadline")
    assert closed.metadata["by"] == "task"
    after = state(table).state
    assert after.window is None and after.turn_seat == 1  # the game moved on
    assert len(closes(table)) == 1


def test_a_killed_worker_still_gets_the_window_closed_exactly_once(workers, broker_url) -> None:
    first = workers()
    table, window = open_window(reaction_seconds=5)
    first.wait_for(r"Task games\.tasks\.close_window\[.*\] received", 10, "countdown task")
    first.kill()  # it held the task, unacknowledged
    assert state(table).state.window is not None
    workers()  # RabbitMQ re-delivers the task to it; with Redis its sweeper closes the window
    (closed,) = wait_until(lambda: closes(table), 30, "the close after the kill", table)
    late = lateness_ms(closed, window.deadline)
    # the sweeper: after the grace, within one sweep (plus a generous margin)
    assert 0 <= late <= 4000, f"closed {late} ms after its deadline (by {closed.metadata})"
    time.sleep(2)  # any second closer (a re-delivered task, a sweep) has had its chance
    assert len(closes(table)) == 1
    close_id = derived_command_id(table.id, f"close:{window.id}:{window.deadline}")
    assert CommandRecord.objects.filter(stream_id=table.id, command_id=close_id).count() == 1
    print(f"{broker_url.split(':')[0]}: closed {late} ms late by {closed.metadata['by']}")


def test_close_tasks_and_counters_racing_at_the_deadline_append_one_outcome(workers) -> None:
    """Four windows; in each, two extra close tasks and a counter sent 250 ms before (it
    usually wins), 20 ms before, at, and 30 ms after the deadline race the scheduled close."""
    workers()
    offsets = (-250, -20, 0, 30)
    # Long enough to open all four even on a loaded machine before the first is due.
    games = [open_window(reaction_seconds=12) for _ in offsets]
    for table, window in games:  # two more close tasks each, due at the same instant
        for _ in range(2):
            tasks.schedule("close_window", [str(table.id), window.id, window.deadline])
    results: dict[int, Any] = {}

    def late_counter(i: int, offset_ms: int) -> None:
        table, window = games[i]
        card = cards_of("FAMILY_INFLUENCE")[0]
        try:
            wait_s = (window.deadline + offset_ms - clock_ms()) / 1000
            assert wait_s > 0, f"window {i} was due before its counter could be sent"
            time.sleep(wait_s)
            run(table, 1, {"type": "counter", "window": window.id, "card": card})
            results[i] = "won"
        except (RuleViolation, AssertionError) as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=late_counter, args=x) for x in enumerate(offsets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    for table, _window in games:
        wait_until(lambda t=table: closes(t), 15, "an outcome", table)
    time.sleep(1.5)  # let every close task run
    for i, (table, _window) in enumerate(games):
        (closed,) = closes(table)
        counters = StoredEvent.objects.filter(stream_id=table.id, type=COUNTERED).count()
        if results[i] == "won":
            assert (counters, closed.payload["reason"]) == (1, "countered")
        else:
            assert isinstance(results[i], RuleViolation), results[i]
            assert results[i].code == "window_closed"
            assert (counters, closed.payload["reason"]) == (0, "deadline")
        seqs = list(
            StoredEvent.objects.filter(stream_id=table.id)
            .order_by("seq")
            .values_list("seq", flat=True)
        )
        assert seqs == list(range(1, len(seqs) + 1))
    print("counters at", offsets, "->", [getattr(r, "code", r) for r in results.values()])


def test_a_game_of_bots_finishes_by_itself(workers) -> None:
    workers()
    table = table_create(created_by=None, seats=3, reaction_seconds=2)
    for bot in ("heuristic", "random", "heuristic"):
        seat_add_bot(table_id=table.id, bot=bot)
    started = time.monotonic()
    table_start(table_id=table.id)  # returns at once: the worker plays
    assert StoredEvent.objects.filter(stream_id=table.id).count() < 30

    def finished() -> bool:
        table.refresh_from_db()
        return table.status == Table.Status.FINISHED

    wait_until(finished, 150, "the bots' game to finish", table)
    elapsed = time.monotonic() - started
    moves = CommandRecord.objects.filter(stream_id=table.id, actor__startswith="bot:")
    assert moves.exclude(outcome="accepted").count() == 0
    report = verify_record(game_export(table))
    assert report.ok, report.problems
    print(f"bot game: {moves.count()} moves in {elapsed:.1f}s")


def test_a_human_turn_that_runs_out_is_played_by_the_system(workers) -> None:
    workers()
    games = {}
    for action in ("discard", "bot"):
        table = table_create(
            created_by=None,
            seats=2,
            reaction_seconds=1,
            turn_seconds=1,
            turn_action=action,
            undo="off",
        )
        for name in ("alice", "bob"):
            seat_join(table_id=table.id, user=UserFactory(username=f"{name}-{action}"))
        table_start(table_id=table.id)
        games[action] = table
    for action, table in games.items():
        records = CommandRecord.objects.filter(stream_id=table.id, metadata__timeout=True)
        # seat 0 times out, then seat 1 (its turn got a clock of its own), ...
        wait_until(lambda r=records: r.count() >= 2, 15, f"two {action} timeouts", table)
        first = records.order_by("first_seq").first()
        assert (first.actor, first.seat, first.outcome) == ("system", 0, "accepted")
        if action == "discard":
            assert first.command["discard"] is True
        event = StoredEvent.objects.get(stream_id=table.id, seq=first.first_seq)
        assert event.actor == "system" and event.metadata["timeout"] is True
