"""How fast does one clock loop clear overdue windows, by thread count?

    python -m bench.clock_loop [--windows 100] [--threads 1,2,4,8] [--rounds 3]

On a database of its own (the loop acts on every due row in it): each round creates
--windows sandbox games of two humans, has seat 0 of each play a CONTRACT whose 2 s window
ran out 8 s ago, then times one ``ClockLoop(threads=T).run_once()`` (in this process, no
broker, no task: FB_SCHEDULE_TASKS off) closing them all. Thread counts alternate round by
round, so a machine whose load changes meanwhile weighs on each alike; the median rate of
each count is reported.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ["FB_SCHEDULE_TASKS"] = "false"

from bench._setup import machine, setup  # noqa: E402

setup()

from django.contrib.auth import get_user_model  # noqa: E402

from bench.timers import open_window, stacked_deck  # noqa: E402
from games import service  # noqa: E402
from games.clock_loop import ClockLoop  # noqa: E402
from games.lobby import seat_join, table_create, table_start  # noqa: E402
from games.models import GameClock, Table  # noqa: E402


def overdue_windows(count: int, users: list) -> list[Table]:
    tables = []
    for _ in range(count):
        table = table_create(
            created_by=None, seats=2, mode="sandbox", reaction_seconds=2,
            stacked_deck=stacked_deck(),
        )  # fmt: skip
        for user in users:
            seat_join(table_id=table.id, user=user)
        tables.append(table_start(table_id=table.id))
    opened = service.clock_ms() - 10_000
    for table in tables:
        open_window(table, opened)
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=100)
    parser.add_argument("--threads", default="1,2,4,8")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f}")
    users = [get_user_model().objects.get_or_create(username=f"bench-loop-{i}")[0] for i in (0, 1)]
    rates: dict[int, list[float]] = {t: [] for t in counts}
    for round_ in range(args.rounds):
        for threads in counts:
            tables = overdue_windows(args.windows, users)
            with ClockLoop(grace=0.3, outage_grace=0.3, threads=threads) as loop:
                started = time.perf_counter()
                acted = loop.run_once()
                took = time.perf_counter() - started
            GameClock.objects.filter(game__in=tables).delete()
            rates[threads].append(acted / took)
            print(f"  round {round_ + 1}, {threads} thread(s): {acted} closes in {took:.2f}s "
                  f"({acted / took:.0f}/s, load {os.getloadavg()[0]:.1f})")  # fmt: skip
    for threads, seen in rates.items():
        print(f"{threads} thread(s): median {statistics.median(seen):.0f} closes/s "
              f"(min {min(seen):.0f}, max {max(seen):.0f})")  # fmt: skip


if __name__ == "__main__":
    main()
