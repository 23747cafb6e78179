"""The clock loop (games/clock_loop.py) in-process, on the real database, with no worker: it
closes windows, times out turns and moves bots once their deadline is past the grace;
loops racing on other connections never act on one row twice; /healthz shows what is
overdue; sending to a dead broker costs a command almost nothing.

Most tests here send no tasks (FB_SCHEDULE_TASKS is off in tests), so the loop is the only
timer and uses its outage grace; test_clock_grace.py covers the grace chosen by the broker's
and the workers' state, the log's wording, and acting on several games at once."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest
from django.db import connection

from events.models import CommandRecord, StoredEvent
from games import send_guard, service, tasks
from games.clock_loop import ClockLoop, overdue
from games.lobby import seat_add_bot, table_create, table_start
from games.models import GameClock, Table
from tests.service.helpers import hand_stack, human_table, state
from tests.timers.test_clock import CLOSED, contract, timed_table, window_table

pytestmark = pytest.mark.django_db


def loop_of(threads: int = 1, **kwargs: Any) -> ClockLoop:
    """A loop acting 0.3 s past due (no task is sent in these tests: the outage grace), on
    this thread only (the test's transaction is its own connection's)."""
    return ClockLoop(grace=2.0, outage_grace=0.3, threads=threads, **kwargs)


def count_closes(monkeypatch, pause: float) -> tuple[Counter[tuple[Any, str]], dict[str, Any]]:
    """Count the loop's close_window calls, each held ``pause`` s: how many ran at once, on
    which threads."""
    calls: Counter[tuple[Any, str]] = Counter()
    seen: dict[str, Any] = {"active": 0, "peak": 0, "threads": set()}
    lock = threading.Lock()
    real = service.close_window

    def counted(**kwargs: Any) -> Any:
        with lock:
            calls[kwargs["game_id"], kwargs["window_id"]] += 1
            seen["active"] += 1
            seen["peak"] = max(seen["peak"], seen["active"])
            seen["threads"].add(threading.current_thread().name)
        try:
            time.sleep(pause)
            return real(**kwargs)
        finally:
            with lock:
                seen["active"] -= 1

    monkeypatch.setattr(service, "close_window", counted)
    return calls, seen


def race(loops: list[ClockLoop]) -> None:
    """Each loop's ``run_once`` on a thread of its own (its own connection), all at once;
    each loop closed and each connection closed after."""

    def run(loop: ClockLoop) -> None:
        try:
            start.wait()
            loop.run_once()
        finally:
            loop.close()
            connection.close()  # each thread has its own connection

    start = threading.Barrier(len(loops))
    runners = [threading.Thread(target=run, args=(loop,)) for loop in loops]
    for runner in runners:
        runner.start()
    for runner in runners:
        runner.join(60)


def closes(table: Table) -> list[StoredEvent]:
    return list(StoredEvent.objects.filter(stream_id=table.id, type=CLOSED))


def test_a_window_past_the_grace_is_closed_by_the_loop_once(caplog) -> None:
    table = window_table()
    window = contract(table, now=service.clock_ms())
    loop = loop_of()
    assert loop.run_once(now=window.deadline + 250) == 0  # within the grace: the task's turn
    assert closes(table) == []
    caplog.set_level("INFO", logger="games.clock_loop")
    assert loop.run_once(now=window.deadline + 350) == 1
    [closed] = closes(table)
    assert closed.metadata["by"] == "clock" and closed.actor == "system"
    assert state(table).state.window is None
    assert loop.run_once(now=window.deadline + 5_000) == 0  # nothing left to do
    # the log says the fallback acted, on what, and why
    [line] = [r.getMessage() for r in caplog.records if "closed window" in r.getMessage()]
    assert window.id in line and str(table.id) in line and "after its deadline" in line
    assert "no timer tasks are sent" in line  # the reason: here, no task could have done it
    # the claim was given back
    assert GameClock.objects.get(game=table).claimed_until_ms is None


def test_a_close_the_task_already_made_is_not_made_again() -> None:
    table = window_table()
    window = contract(table, now=service.clock_ms())
    service.close_window(
        game_id=table.id, window_id=window.id, deadline=window.deadline, now=window.deadline
    )
    # the clock row no longer names the window: the loop finds nothing
    assert loop_of().run_once(now=window.deadline + 1_000) == 0
    assert len(closes(table)) == 1


def test_a_turn_past_its_limit_is_played_by_the_loop() -> None:
    table = timed_table("discard", turn_seconds=30)
    clock = GameClock.objects.get(game=table)
    assert clock.turn_deadline_ms is not None
    assert loop_of().run_once(now=clock.turn_deadline_ms + 400) == 1
    record = CommandRecord.objects.get(stream_id=table.id, metadata__timeout=True)
    assert (record.actor, record.seat, record.metadata["by"]) == ("system", 0, "clock")


def test_a_bot_awaited_past_its_think_time_is_moved_by_the_loop(settings) -> None:
    settings.FB_BOTS_INLINE = False
    table = table_create(created_by=None, seats=2)
    seat_add_bot(table_id=table.id, bot="heuristic")
    seat_add_bot(table_id=table.id, bot="random")
    table_start(table_id=table.id)  # no task is sent (FB_SCHEDULE_TASKS is off in tests)
    version = state(table).version
    due = GameClock.objects.get(game=table).bot_due_ms
    assert due is not None
    loop = loop_of()
    assert loop.run_once(now=due + 100) == 0
    assert loop.run_once(now=due + 400) == 1  # one move per pass: the next one is due later
    moved = StoredEvent.objects.filter(stream_id=table.id, seq__gt=version)
    assert moved.exists() and all(e.actor.startswith("bot:") for e in moved)
    assert GameClock.objects.get(game=table).version > version


def test_a_row_with_nothing_to_do_is_forgotten_not_retried() -> None:
    table = window_table()
    window = contract(table, now=service.clock_ms())
    # a stale row: the window it names is not the game's
    GameClock.objects.filter(game=table).update(window_id="nope")
    assert loop_of().run_once(now=window.deadline + 1_000) == 0
    assert GameClock.objects.get(game=table).window_deadline_ms is None


def test_a_claimed_row_is_left_to_its_claimer() -> None:
    table = window_table()
    window = contract(table, now=service.clock_ms())
    mine, other = loop_of(lease=5), loop_of(lease=5)
    at = window.deadline + 1_000
    [row] = mine.claim(at)
    assert row.game_id == table.id and row.window_id == window.id
    assert other.claim(at) == [] and other.run_once(now=at) == 0  # leased to `mine`
    assert closes(table) == []
    assert other.run_once(now=at + 5_001) == 1  # a dead claimer's lease runs out


def test_overdue_deadlines_are_counted_for_healthz(client) -> None:
    table = window_table()
    window = contract(table, now=service.clock_ms() - 10_000)  # deadline 8 s ago
    count, oldest = overdue(tolerance_ms=1_000)
    assert (count, oldest) == (1, window.deadline)
    body = client.get("/healthz").json()
    assert body["clock"]["ok"] is False and body["clock"]["overdue"] == 1
    assert 7.5 < body["clock"]["oldest_overdue_seconds"] < 60
    loop_of().run_once()
    assert overdue(tolerance_ms=1_000) == (0, None)
    body = client.get("/healthz").json()
    assert body["clock"] == {
        "ok": True, "overdue": 0, "oldest_overdue_seconds": None, "tolerance_seconds": 1.0
    }  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_loops_racing_on_their_own_connections_act_on_each_deadline_once(monkeypatch) -> None:
    tables = [window_table() for _ in range(12)]
    now = service.clock_ms()
    windows = [contract(t, now=now - 5_000) for t in tables]  # all overdue by 3 s
    # each close held long enough for the other loops to look at the same rows
    calls, _ = count_closes(monkeypatch, pause=0.02)
    loops = [loop_of(batch=3, name=f"loop-{i}") for i in range(3)]
    race(loops)
    assert sum(loop.acted for loop in loops) == len(tables)
    # each acted on by exactly one loop, once
    assert calls == Counter({(t.id, w.id): 1 for t, w in zip(tables, windows, strict=True)})
    assert all(len(closes(t)) == 1 for t in tables)


def test_a_dead_broker_costs_commands_nothing_and_sends_are_dropped_meanwhile(settings) -> None:
    """Sends go to a port where nothing listens: commands return at once (the sender thread
    finds the broker down), and sends are dropped without an attempt until the backoff has
    passed; the commands all succeed."""
    from tests.test_health import unused_port
    from tests.timers.conftest import _use_broker

    settings.FB_SCHEDULE_TASKS = True
    settings.FB_SEND_BACKOFF_SECONDS = 30
    _use_broker(f"redis://127.0.0.1:{unused_port()}/0")
    send_guard.reset()
    try:
        started = time.monotonic()
        assert tasks.schedule("bot_move", ["00000000-0000-0000-0000-000000000000", 1]) is True
        queued = time.monotonic() - started
        assert send_guard.flush(10)
        assert send_guard.down_since() is not None  # the sender thread found it down
        started = time.monotonic()
        assert tasks.schedule("bot_move", ["00000000-0000-0000-0000-000000000000", 2]) is False
        for _ in range(3):
            table = human_table(3, stacked=hand_stack(["CONTRACT"], [], []), reaction_seconds=5)
            assert contract(table, now=service.clock_ms()) is not None
        skipped = time.monotonic() - started
    finally:
        _use_broker(None)
        send_guard.reset()
    assert queued < 0.1, f"queueing a send took {queued:.2f}s"
    assert skipped < 3.0, f"three tables and windows took {skipped:.1f}s with sends dropped"
