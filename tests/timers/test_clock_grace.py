"""The clock loop's grace, its log, its order and its threads (games/clock_loop.py), on the
real database and real brokers: the configured Redis answers, a port where nothing
listens does not, a private ``redis-server`` is killed and started again; a session
holding the sweeper's advisory lock is a worker as the loop sees it (games.sweeper).

* With the broker answering and a worker running, a task not done yet is late: the loop
  waits the long grace (2 s here) and its log says "late", never "lost".
* With the broker unreachable (the probe's evidence, or a failed send of the loop's own),
  or no worker, and for the recovery period after, it waits the outage grace (0.3 s) and
  says why.
* Routine lateness costs one INFO line, then a summary; each action is at DEBUG.
* Windows and turn limits are claimed and acted on before bot moves.
* One loop acts on several games at once, on threads with connections of their own (closed
  with the loop); two such loops never act on one deadline twice.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection

from bench._outage import RedisBroker
from events.models import StoredEvent
from events.notify import connection_params
from games import clock, send_guard, service, tasks
from games.clock_loop import PROBE_SECONDS, BrokerProbe, ClockLoop, Health
from games.lobby import seat_add_bot, table_create, table_start
from games.models import GameClock, Table
from games.sweeper import SWEEP_LOCK, sweeper_running
from tests.service.helpers import state
from tests.test_health import unused_port
from tests.timers.conftest import RABBITMQ_UP, RABBITMQ_URL, _use_broker
from tests.timers.test_clock import CLOSED, contract, timed_table, window_table
from tests.timers.test_clock_loop import count_closes, race

pytestmark = pytest.mark.django_db

GRACE, OUTAGE_GRACE = 2.0, 0.3


def loop_of(**kwargs: Any) -> ClockLoop:
    kwargs.setdefault("threads", 1)
    return ClockLoop(grace=GRACE, outage_grace=OUTAGE_GRACE, recovery=0, **kwargs)


@pytest.fixture
def tasks_on(settings, monkeypatch) -> list[tuple[str, list[Any], float]]:
    """The service schedules tasks, as a web server does, but records them instead of
    sending them: what the loop sees of the broker is the probe's and send guard's."""
    settings.FB_SCHEDULE_TASKS = True
    settings.FB_BOTS_INLINE = False
    sent: list[tuple[str, list[Any], float]] = []
    monkeypatch.setattr(clock, "_scheduler", lambda *call: sent.append(call))
    send_guard.reset()
    yield sent
    send_guard.reset()


@pytest.fixture
def worker_runs() -> Iterator[None]:
    """A session of its own holding the sweeper's lock, as a live worker's sweeper does."""
    with psycopg.connect(**connection_params(), autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", [SWEEP_LOCK])
        yield


@pytest.fixture
def dead_broker() -> Iterator[str]:
    """This process's Celery app pointed at a port where nothing listens."""
    url = f"redis://127.0.0.1:{unused_port()}/0"
    _use_broker(url)
    try:
        yield url
    finally:
        _use_broker(None)


def overdue_window(seconds: float) -> tuple[Table, Any]:
    """A window whose deadline was ``seconds`` ago on the real clock."""
    table = window_table()  # 2 s windows
    window = contract(table, now=service.clock_ms() - 2_000 - int(seconds * 1000))
    return table, window


def action_lines(caplog: pytest.LogCaptureFixture, level: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "games.clock_loop" and r.levelname == level and "after its" in r.getMessage()
    ]


def lateness(line: str) -> float:
    return float(line.split(" after its deadline")[0].rsplit(", ", 1)[1].rstrip("s"))


# -- the grace ---------------------------------------------------------------------------


def test_a_running_worker_is_seen_by_its_sweeper_lock(worker_runs) -> None:
    assert sweeper_running()


def test_with_the_broker_answering_and_a_worker_running_a_task_is_late_not_lost(
    tasks_on, worker_runs, caplog
) -> None:
    table, window = overdue_window(2.2)
    caplog.set_level("DEBUG", logger="games.clock_loop")
    with loop_of() as loop:
        loop.check()  # the configured Redis answers; a worker holds the sweeper lock
        grace_ms, why = loop.grace()
        assert (grace_ms, why.key) == (2_000, "late")
        assert loop.run_once(now=window.deadline + 1_500) == 0  # the task's to do yet
        assert loop.next_wake(window.deadline + 1_500) == PROBE_SECONDS  # but look soon
        assert loop.run_once() == 1  # 2.2 s past: the loop steps in
    assert len(StoredEvent.objects.filter(stream_id=table.id, type=CLOSED)) == 1
    [line] = action_lines(caplog, "INFO")
    assert f"closed window {window.id} of game {table.id}" in line
    assert "its task is late, not lost: the broker answers and a worker runs" in line
    assert "unreachable" not in line and "no Celery worker" not in line
    assert 2.2 <= lateness(line) < 10  # how late, on the real clock


def test_with_no_worker_running_the_loop_waits_only_the_outage_grace(tasks_on, caplog) -> None:
    assert not sweeper_running()
    table, window = overdue_window(0.5)
    caplog.set_level("INFO", logger="games.clock_loop")
    with loop_of() as loop:
        loop.check()
        grace_ms, why = loop.grace()
        assert (grace_ms, why.key) == (300, "worker")
        assert loop.run_once(now=window.deadline + 250) == 0
        assert loop.run_once(now=window.deadline + 350) == 1
    [line] = action_lines(caplog, "INFO")
    assert "no Celery worker has run for" in line and "(none holds the sweeper lock)" in line


def test_with_the_broker_unreachable_the_loop_waits_only_the_outage_grace(
    tasks_on, worker_runs, dead_broker, caplog
) -> None:
    table, window = overdue_window(0.5)
    caplog.set_level("INFO", logger="games.clock_loop")
    with loop_of() as loop:
        loop.check()  # the probe finds nothing on the broker's port
        grace_ms, why = loop.grace()
        assert (grace_ms, why.key) == (300, "broker")
        assert loop.run_once(now=window.deadline + 350) == 1
    [line] = action_lines(caplog, "INFO")
    assert "the broker has been unreachable for" in line


def test_a_failed_send_counts_until_the_probe_answers_again(tasks_on, worker_runs) -> None:
    with loop_of() as loop:
        loop.check()
        assert loop.grace()[0] == 2_000
        _use_broker(f"redis://127.0.0.1:{unused_port()}/0")
        try:
            # this process's own send fails: evidence before the probe's next look
            assert not send_guard.send_now(tasks.bot_move, [str(uuid.uuid4()), 1], 0.0)
            assert send_guard.down_since() is not None
            grace_ms, why = loop.grace()
            assert (grace_ms, why.key) == (300, "broker")
        finally:
            _use_broker(None)
        loop.check()  # the broker answers the probe: the older failure no longer counts
        assert send_guard.down_since() is not None
        assert loop.grace()[0] == 2_000


def test_the_outage_grace_lasts_the_recovery_period_after_an_outage(settings) -> None:
    settings.FB_SCHEDULE_TASKS = True
    send_guard.reset()
    health = Health(recovery=30)
    assert health.trouble(now=0).key == "unknown"  # nothing checked yet
    health.broker(True, now=0)
    health.worker(True, now=0)
    assert health.trouble(now=1) is None
    health.broker(False, now=2)
    assert health.trouble(now=5).reason == "the broker has been unreachable for 3.0s"
    health.broker(True, now=40)
    recovering = health.trouble(now=41)
    assert recovering.key == "recovering"
    assert recovering.reason.startswith("the broker was unreachable until 0.0s ago")
    assert health.trouble(now=70.9).key == "recovering"
    assert health.trouble(now=71.1) is None
    health.worker(False, now=80)
    assert health.trouble(now=81).key == "worker"
    health.worker(True, now=90)
    assert health.trouble(now=92).reason.startswith("no worker ran until 0.0s ago")
    # workers that do not sweep cannot be seen: only the broker counts then
    health.worker(None, now=200)
    assert health.trouble(now=200) is None
    settings.FB_SCHEDULE_TASKS = False
    assert health.trouble(now=300).key == "off"  # no task is ever sent: nothing to wait for


def test_the_probe_sees_a_broker_killed_and_started_again(tmp_path: Path) -> None:
    broker = RedisBroker(tmp_path)
    broker.start()
    _use_broker(broker.url)
    probe = BrokerProbe(timeout=1.0)
    try:
        assert probe.check()
        kept = probe.conn
        assert probe.check() and probe.conn is kept  # one connection, kept open
        broker.kill()
        assert not probe.check()
        assert probe.error and probe.conn is None
        broker.start()
        assert probe.check()
    finally:
        probe.close()
        broker.destroy()
        _use_broker(None)


@pytest.mark.skipif(not RABBITMQ_UP, reason="RabbitMQ does not answer on 127.0.0.1:5672")
def test_the_probe_gets_an_answer_from_rabbitmq() -> None:
    _use_broker(RABBITMQ_URL)
    probe = BrokerProbe(timeout=2.0)
    try:
        assert probe.check(), probe.error
        assert probe.check(), probe.error
    finally:
        probe.close()
        _use_broker(None)


# -- the log -----------------------------------------------------------------------------


def test_routine_lateness_is_one_info_line_then_a_summary(tasks_on, worker_runs, caplog) -> None:
    games = [overdue_window(2.5) for _ in range(3)]
    caplog.set_level("DEBUG", logger="games.clock_loop")
    with loop_of() as loop:
        loop.check()
        assert loop.run_once() == 3
        assert len(action_lines(caplog, "INFO")) == 1  # the first: lateness has begun
        assert len(action_lines(caplog, "DEBUG")) == 2  # each action stays traceable
        assert not [r for r in caplog.records if "acted on" in r.getMessage()]
    [summary] = [r.getMessage() for r in caplog.records if "acted on" in r.getMessage()]
    assert "acted on 3 deadline(s)" in summary and "(3 windows)" in summary
    assert "their tasks were late, not lost" in summary
    traced = " ".join(action_lines(caplog, "INFO") + action_lines(caplog, "DEBUG"))
    assert all(str(table.id) in traced for table, _ in games)


# -- the order ---------------------------------------------------------------------------


def test_windows_and_turns_come_before_bot_moves(settings) -> None:
    settings.FB_BOTS_INLINE = False
    settings.FB_BOT_THINK_SECONDS = 0.5
    bots = table_create(created_by=None, seats=2)
    seat_add_bot(table_id=bots.id, bot="heuristic")
    seat_add_bot(table_id=bots.id, bot="random")
    table_start(table_id=bots.id)
    bot_due = GameClock.objects.get(game=bots).bot_due_ms
    turns = timed_table("discard", turn_seconds=1)
    turn_due = GameClock.objects.get(game=turns).turn_deadline_ms
    windows = window_table()
    window = contract(windows, now=bot_due + 1_000)
    assert bot_due < min(window.deadline, turn_due)  # the bot has waited longest
    at = max(window.deadline, turn_due) + 1_000
    versions = {t.id: state(t).version for t in (bots, turns, windows)}

    with loop_of(batch=1) as one:
        [claimed] = one.claim(at, 300)  # one row at a time: never the bot's first
        assert claimed.game_id in (windows.id, turns.id)
        one.release(claimed)
    with loop_of() as loop:
        rows = loop.claim(at, 300)
        assert [r.game_id for r in rows][-1] == bots.id and len(rows) == 3
        for row in rows:
            loop.release(row)
        assert loop.run_once(now=at) == 3  # on this one thread, in that order

    def first_event(game: Table) -> int:
        events = StoredEvent.objects.filter(stream_id=game.id, seq__gt=versions[game.id])
        return min(events.values_list("position", flat=True))

    closed = StoredEvent.objects.get(stream_id=windows.id, type=CLOSED).position
    assert first_event(windows) == closed
    assert max(closed, first_event(turns)) < first_event(bots)


# -- threads -----------------------------------------------------------------------------


def connections_now() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_one_loop_acts_on_several_games_at_once_each_once(monkeypatch) -> None:
    games = [overdue_window(3.0) for _ in range(8)]
    calls, seen = count_closes(monkeypatch, pause=0.1)
    before = connections_now()
    with loop_of(threads=4) as loop:
        assert loop.run_once() == len(games)
        assert connections_now() > before  # the threads' own connections
    assert seen["peak"] >= 3, seen  # four threads, each holding a close for 0.1 s
    assert len(seen["threads"]) >= 3 and threading.current_thread().name not in seen["threads"]
    assert calls == Counter({(t.id, w.id): 1 for t, w in games})
    assert all(
        StoredEvent.objects.filter(stream_id=t.id, type=CLOSED).count() == 1 for t, _ in games
    )
    assert GameClock.objects.filter(claimed_until_ms__isnull=False).count() == 0
    # closing the loop closed its threads' connections
    deadline = time.monotonic() + 5
    while connections_now() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert connections_now() <= before


@pytest.mark.django_db(transaction=True)
def test_two_loops_with_threads_act_on_each_deadline_once(monkeypatch) -> None:
    games = [overdue_window(3.0) for _ in range(16)]
    calls, seen = count_closes(monkeypatch, pause=0.05)
    loops = [loop_of(threads=3, batch=4, name=f"loop-{i}") for i in range(2)]
    race(loops)
    assert sum(loop.acted for loop in loops) == len(games)
    assert all(loop.acted > 0 for loop in loops), [loop.acted for loop in loops]
    assert calls == Counter({(t.id, w.id): 1 for t, w in games})
    assert all(
        StoredEvent.objects.filter(stream_id=t.id, type=CLOSED).count() == 1 for t, _ in games
    )
