"""Deadlines through faults: a broker killed for 30 s, a worker SIGKILLed every 5 to 10 s.

    python -m bench.outage                              (Redis and RabbitMQ, every scenario)
    python -m bench.outage --broker redis --scenarios broker-kill
    python -m bench.outage --clock-loops 0              (no clock loop: the "before")
    python -m bench.outage --code /path/to/old/checkout (servers from another commit)
    python -m bench.outage --clock-env LOG_LEVEL=DEBUG  (every clock loop action logged)

For each broker and scenario it starts, in a temporary folder, a PRIVATE broker (Redis:
``redis-server`` on a free port with no persistence; RabbitMQ: a node of its own, its own
ports, data and logs), a Celery worker (prefork x2, with its sweeper thread), Celery beat,
``--clock-loops`` clock loops (``manage.py clock_loop``) and a gunicorn serving /healthz,
all against the configured database (give it one of its own: the clock loops and sweepers act
on every game in it, leftovers of other runs included); then 20 tables of three bots and 10 tables of three
silent humans (a 2 s turn limit played by the system, 2 s reaction windows nobody
answers), a finished game replaced by a new one. The machine's own brokers are never
touched. Scenarios:

* ``none``: 60 s as they are;
* ``worker-kill``: the worker SIGKILLed every 5 to 10 s for 60 s, restarted 1 s later
  (as ``make run`` and Docker do);
* ``broker-kill``: the broker SIGKILLed 10 s in, started again 30 s later (RabbitMQ then
  takes its own start-up time on top), 20 s more after it answers.

Figures from the event store: the lateness of every window closed at its deadline and of
every turn played at its limit (recorded_at minus the deadline in the command's metadata),
of every bot move (minus the previous event's time plus the think time), windows closed
twice, games stalled (an action more than 5 s late, or a deadline left pending), the
longest time with no bot move in any bot game, every game's record verified, and what
/healthz's clock section said meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench._setup import machine, setup

setup()

from bench._outage import (  # noqa: E402
    Config,
    clock_log_counts,
    measure,
    poll_health,
    random_kill_times,
    rig,
    summary,
)

SCENARIOS = ("none", "worker-kill", "broker-kill")


def run_scenario(config: Config, scenario: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="fb-outage-") as tmp, rig(config, Path(tmp)) as r:
        time.sleep(args.warmup)
        health: list[dict[str, Any]] = []
        stop = threading.Event()
        poller = threading.Thread(
            target=poll_health, args=(f"http://127.0.0.1:{r.web_port}", stop, health), daemon=True
        )
        poller.start()
        t0 = time.time()
        outage = None
        if scenario == "none":
            time.sleep(args.seconds)
        elif scenario == "worker-kill":
            for at in random_kill_times(t0, t0 + args.seconds, 5.0, 10.0):
                time.sleep(max(at - time.time(), 0))
                r.kill_worker()
            time.sleep(max(t0 + args.seconds - time.time(), 0))
        else:
            time.sleep(10)
            down = time.time()
            r.kill_broker()
            time.sleep(args.outage)
            r.start_broker()
            outage = time.time() - down
            time.sleep(20)
        end = time.time()
        stop.set()
        poller.join(5)
        figures = measure(r, t0, end, config.think_seconds)
        logged = clock_log_counts(r)
        during = [h for h in health if isinstance(h.get("overdue"), int)]
        row = figures.row()
        row.update(
            broker=config.broker,
            scenario=scenario,
            clock_loops=config.clock_loops,
            seconds=round(end - t0, 1),
            broker_outage=None if outage is None else round(outage, 1),
            worker_kills=sum(1 for _, what in r.kills if what == "worker"),
            games_finished=len(r.finished),
            health_max_overdue=max((h["overdue"] for h in during), default=None),
            health_oldest_overdue_max=max(
                (h["oldest_overdue_seconds"] or 0 for h in during), default=None
            ),
            health_polls=len(health),
            load_average=round(os.getloadavg()[0], 1),
            **logged,
        )
        print(f"  windows {summary(figures.windows)}; turns {summary(figures.turns)}; "
              f"bot moves late {summary(figures.bots)}")  # fmt: skip
        print("  " + json.dumps(row, default=str))
        if args.keep_logs:
            keep = Path(args.keep_logs) / f"{config.broker}-{scenario}-{config.clock_loops}"
            keep.mkdir(parents=True, exist_ok=True)
            for log in Path(tmp).glob("*.log"):
                (keep / log.name).write_bytes(log.read_bytes())
        return row


def rabbitmq_installed() -> bool:
    return os.path.exists("/usr/lib/rabbitmq/bin/rabbitmq-server") or bool(
        shutil.which("rabbitmq-server")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--broker", default="both", choices=["redis", "rabbitmq", "both"])
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--clock-loops", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--outage", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--bot-tables", type=int, default=20)
    parser.add_argument("--human-tables", type=int, default=10)
    parser.add_argument("--code", help="run the servers from this checkout (a 'before' run)")
    parser.add_argument("--keep-logs", help="copy the processes' logs into this folder")
    parser.add_argument(
        "--clock-env", action="append", default=[], metavar="NAME=VALUE",
        help="environment of the clock loops only (repeatable), e.g. LOG_LEVEL=DEBUG",
    )  # fmt: skip
    parser.add_argument("--json", help="append each scenario's figures to this file")
    args = parser.parse_args()
    # SIGTERM unwinds like Ctrl-C: the rig kills its broker and servers on the way out
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))

    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f}")
    brokers = ["redis", "rabbitmq"] if args.broker == "both" else [args.broker]
    if args.broker == "both" and not rabbitmq_installed():
        print("RabbitMQ is not installed here (rabbitmq-server): measuring Redis only")
        brokers = ["redis"]
    for broker in brokers:
        for scenario in args.scenarios.split(","):
            config = Config(
                broker=broker,
                clock_loops=args.clock_loops,
                bot_tables=args.bot_tables,
                human_tables=args.human_tables,
                web=True,
                clock_env=dict(item.split("=", 1) for item in args.clock_env),
            )
            if args.code:
                config.code_dir = Path(args.code)
            print(f"== {broker}, {scenario}, {args.clock_loops} clock loop(s)"
                  f"{', code ' + args.code if args.code else ''}")  # fmt: skip
            row = run_scenario(config, scenario, args)
            row["code"] = args.code or "this checkout"
            if args.json:
                with open(args.json, "a", encoding="utf-8") as out:
                    out.write(json.dumps(row, default=str) + "\n")


if __name__ == "__main__":
    main()
