"""Deadlines hold through a broker outage and through a worker killed again and again.

Real processes, started here and killed at the end (bench/_outage.py, shared with
``bench/outage.py``): a PRIVATE Redis broker (``redis-server`` on a free port, no
persistence), a Celery worker, Celery beat and two clock loops (``manage.py clock_loop``)
on the test database; 20 tables of three bots and 10 tables of three silent humans (a 2 s
turn limit the system plays, 2 s windows nobody answers). The machine's shared brokers are
never touched. RabbitMQ is measured by the benchmark only: a node of its own takes 20 s
and more to start here.

* The broker SIGKILLed for 30 s: every window closes and every turn is played within 1 s
  of its deadline at the 99th percentile and 2 s at worst, bot games keep moving
  throughout, nothing closes twice, nothing is left pending, every game verifies; the
  clock loops did it (their log says what and why), sharing the work.
* The worker SIGKILLed every 5 to 10 s (restarted 1 s later, as `make run` does): the
  same bounds.

About 70 s each on the 2-core development machine.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bench._outage import Config, Figures, measure, pct, random_kill_times, rig

pytestmark = pytest.mark.django_db(transaction=True)

OUTAGE_SECONDS = 30.0


@pytest.fixture
def timers_on(settings) -> None:
    """This process starts the tables and sends their first tasks, as a web server would
    (the rig points it at its private broker; the settings fixture undoes it all)."""
    settings.FB_SCHEDULE_TASKS = True
    settings.FB_BOTS_INLINE = False
    settings.FB_BOT_THINK_SECONDS = 1.0
    settings.CELERY_TASK_DEFAULT_QUEUE = "unused"


def check(figures: Figures, since: float, until: float) -> None:
    """The issue's bounds, and that the games moved all along."""
    deadlines = figures.system
    row = figures.row()
    assert figures.windows and figures.turns, row
    assert pct(deadlines, 99) < 1.0, row  # type: ignore[operator]
    assert max(deadlines) < 2.0, row
    assert figures.closed_twice == 0, row
    assert figures.pending_overdue == 0 and figures.stalled_games == 0, row
    assert figures.verified == figures.games, figures.problems
    # bots moved during every stretch of the run, not just before and after it
    assert figures.longest_no_bot_move < 3.0, row
    assert figures.bot_times[0] < since + 3 and figures.bot_times[-1] > until - 3, row


def test_deadlines_hold_while_the_broker_is_down_for_30_s(timers_on, tmp_path: Path) -> None:
    with rig(Config(broker="redis", clock_loops=2), tmp_path) as r:
        time.sleep(3)
        t0 = time.time()
        time.sleep(3)
        down = time.time()
        r.kill_broker()
        time.sleep(OUTAGE_SECONDS)
        r.start_broker()
        up = time.time()
        time.sleep(10)
        end = time.time()
        figures = measure(r, t0, end, think=1.0)
        logs = {name: proc.text() for name, proc in r.procs.items()}
    print(figures.row())
    check(figures, t0, end)
    during = [t for t in figures.bot_times if down + 2 < t < up]
    assert len(during) > 20 * OUTAGE_SECONDS / 4, f"{len(during)} bot moves while it was down"
    # the clock loops acted meanwhile, both of them, and said so
    assert figures.by["window by clock"] > 0 and figures.by["turn by clock"] > 0, figures.by
    for name in ("clock-0", "clock-1"):
        assert "after its deadline" in logs[name], f"{name} never acted:\n{logs[name][-2000:]}"
    # the worker lived through it and works again: windows closed by their tasks after
    assert "Unrecoverable error" not in logs["worker"]
    assert logs["worker"].count("Connected to redis") >= 2, logs["worker"][-3000:]


def test_deadlines_hold_with_the_worker_killed_every_5_to_10_s(timers_on, tmp_path: Path) -> None:
    with rig(Config(broker="redis", clock_loops=2), tmp_path) as r:
        time.sleep(3)
        t0 = time.time()
        for at in random_kill_times(t0, t0 + 30, 5.0, 10.0):
            time.sleep(max(at - time.time(), 0))
            r.kill_worker()
        time.sleep(max(t0 + 35 - time.time(), 0))
        end = time.time()
        figures = measure(r, t0, end, think=1.0)
        kills = sum(1 for _, what in r.kills if what == "worker")
        starts = r.procs["worker"].starts
    print(figures.row())
    assert kills >= 3 and starts >= kills, (kills, starts)
    check(figures, t0, end)
