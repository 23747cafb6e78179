"""Webhooks under load: does the command path wait for them, and how late do they arrive?

    make bench BENCHES=webhooks              (or: python -m bench.webhooks)
    python -m bench.webhooks --rate 25 --seconds 30

Starts a webhook receiver process on 127.0.0.1 (tests/webhooks/receiver.py, the tests' own:
answers 204 at once) and a Celery worker (prefork x --concurrency, a queue of its own; its
thread is the relay) against the configured database and broker. Sets up --games two-seat games of humans (a new one
replaces each that ends) and plays them from this process through the service, paced to
--rate commands a second in all, from 8 threads, in two phases of --seconds each:

1. no subscriptions;
2. --subscriptions subscriptions: two for each seated user (turn.started, window.opened,
   table.filled, game.finished; ``--kinds all``: every event) and the rest for users who sit
   at none of these games (the relay must pass over them).

Reports the command latency (p50, p99) of each phase, and for phase 2 the delivery
latency (arrival at the receiver minus the event's recorded_at, which is taken just before
the commit) p50/p99/max, the deliveries made, and how long the backlog took to drain.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path

from bench._setup import machine, setup

setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from fbservice.celery import app as celery_app  # noqa: E402
from games.lobby import seat_join, table_create, table_start  # noqa: E402
from games.service import game_command_execute, game_load  # noqa: E402
from tests.webhooks import receiver as receiver_script  # noqa: E402
from tests.windows import bot_move  # noqa: E402
from webhooks.models import Delivery, Subscription  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
QUEUE = f"bench-wh-{uuid.uuid4().hex[:10]}"
NOTICES = ["turn.started", "window.opened", "table.filled", "game.finished"]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def start(cmd: list[str], env: dict[str, str], log: Path, ready: bytes) -> subprocess.Popen[bytes]:
    out = log.open("wb")
    proc = subprocess.Popen(  # noqa: S603 - our interpreter, our arguments
        cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )
    deadline = time.monotonic() + 90
    while ready not in log.read_bytes():
        if proc.poll() is not None or time.monotonic() > deadline:
            print(log.read_text(errors="replace")[-3000:])
            raise SystemExit(f"{cmd[2:5]} did not start")
        time.sleep(0.1)
    return proc


class Games:
    """--games live two-seat games; one that ends is replaced by a new one."""

    def __init__(self, count: int, users: list) -> None:
        self.users = users
        self.lock = threading.Lock()
        self.games = [self.new(i) for i in range(count)]

    def new(self, index: int) -> tuple[object, list]:
        players = self.users[2 * index : 2 * index + 2]
        table = table_create(created_by=None, seats=2, reaction_seconds=300)
        for user in players:
            seat_join(table_id=table.id, user=user)
        return table_start(table_id=table.id), players

    def move(self, index: int, rng: random.Random) -> float | None:
        """One move in game ``index``; its wall time in ms (None: the game was replaced)."""
        table, players = self.games[index]
        state = game_load(game_id=table.id).state
        if state.over:
            self.games[index] = self.new(index)
            return None
        picked = bot_move(table.id, state, table.game, lambda _: f"{table.id}:{rng.random()}")
        if picked is None:
            return None  # every seat's pass was sealed (automatic): the window ran its time
        seat, command = picked
        began = time.perf_counter()
        game_command_execute(
            game_id=table.id,
            seat=seat,
            actor=f"user:{players[seat].pk}",
            command=command,
            command_id=uuid.uuid4(),
        )
        return (time.perf_counter() - began) * 1000


def drive(games: Games, rate: float, seconds: float, threads: int = 8) -> list[float]:
    """Commands at ``rate`` a second for ``seconds``; their latencies (ms)."""
    latencies: list[float] = []
    threads = max(1, min(threads, len(games.games)))  # a thread with no game would idle
    interval = threads / rate
    stop = time.monotonic() + seconds

    def worker(number: int) -> None:
        rng = random.Random(number)  # noqa: S311 - a benchmark's choices
        mine = [i for i in range(len(games.games)) if i % threads == number]
        due = time.monotonic() + rng.random() * interval
        turn = 0
        while True:
            now = time.monotonic()
            if now >= stop:
                break
            if due > now:
                time.sleep(due - now)
            due += interval
            try:
                took = games.move(mine[turn % len(mine)], rng)
            except Exception as exc:  # noqa: BLE001 - a refused move is not timed
                print(f"move failed: {exc}")
                took = None
            turn += 1
            if took is not None:
                latencies.append(took)
        connection.close()

    pool = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--subscriptions", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=10.0, help="commands a second, in all")
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase")
    parser.add_argument("--kinds", default="notices", choices=["notices", "all"])
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--broker", default=settings.CELERY_BROKER_URL)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        raise SystemExit("DATABASE_URL must be set (make bench sets it)")
    print(f"machine: {machine()}")
    print(
        f"{args.games} games, {args.rate:g} commands/s for {args.seconds:g}s per phase; "
        f"worker: prefork x{args.concurrency}; kinds: {args.kinds}"
    )
    settings.FB_SCHEDULE_TASKS = False  # humans only: no timers needed in this process
    settings.FB_BOTS_INLINE = True
    celery_app.conf.broker_write_url = args.broker
    celery_app.conf.task_default_queue = QUEUE
    tag = uuid.uuid4().hex[:6]
    model = get_user_model()
    users = [model.objects.create(username=f"bwh-{tag}-{i}") for i in range(2 * args.games)]
    games = Games(args.games, users)

    with tempfile.TemporaryDirectory(prefix="fb-bench-wh-") as tmp:
        folder = Path(tmp)
        port = 20000 + random.randrange(20000)  # noqa: S311
        arrivals = folder / "arrivals.jsonl"
        receiver = start(
            [
                sys.executable,
                str(receiver_script.SCRIPT),
                str(port),
                str(arrivals),
                "ok",
            ],
            dict(os.environ),
            folder / "receiver.log",
            b"listening",
        )
        env = dict(
            os.environ,
            CELERY_BROKER_URL=args.broker,
            CELERY_TASK_DEFAULT_QUEUE=QUEUE,
            DEBUG="false",
            SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-" + uuid.uuid4().hex,
            FB_EMBEDDED="false",
            FB_WEBHOOK_ALLOW_LOOPBACK="true",
            FB_WORKER_SWEEP="false",
            PYTHONUNBUFFERED="1",
        )
        worker = start(
            [sys.executable, "-m", "celery", "-A", "fbservice", "worker", "-l", "INFO",
             "-P", "prefork", "-c", str(args.concurrency), "-n", f"{QUEUE}@bench", "-Q", QUEUE,
             "--without-mingle", "--without-gossip"],
            env,
            folder / "worker.log",
            b"this process relays",
        )  # fmt: skip
        try:
            drive(games, args.rate, 3)  # warm up
            idle = drive(games, args.rate, args.seconds)
            subs = subscribe(args, users, tag, f"http://127.0.0.1:{port}/hooks")
            began = time.time()
            busy = drive(games, args.rate, args.seconds)
            ended = time.time()
            made = Delivery.objects.filter(subscription__in=subs, created_at__gte=_dt(began))
            pending_at_end = made.filter(status="pending").count()
            drain_start = time.monotonic()
            while made.filter(status="pending").exists() and time.monotonic() - drain_start < 600:
                time.sleep(0.5)
            drained = time.monotonic() - drain_start
            total = made.count()
        finally:
            for proc in (worker, receiver):
                os.killpg(proc.pid, 9)
                proc.wait()
        latencies = []
        for message in receiver_script.read(arrivals):
            stamp = json.loads(message["body"]).get("timestamp", "")
            if stamp:
                at = datetime.fromisoformat(stamp).timestamp()
                if at >= began:
                    latencies.append((message["at"] - at) * 1000)
    report("no subscriptions", idle)
    report(f"{len(subs)} subscriptions", busy)
    print(
        f"deliveries made in phase 2: {total} ({total / (ended - began):.1f}/s); "
        f"pending when it ended: {pending_at_end}; drained {drained:.1f}s later"
    )
    print(
        f"delivery latency from commit: p50 {percentile(latencies, 50):.0f} ms, "
        f"p99 {percentile(latencies, 99):.0f} ms, max {max(latencies, default=0):.0f} ms "
        f"({len(latencies)} received)"
    )
    Subscription.objects.filter(id__in=[s.id for s in subs]).delete()


def _dt(epoch: float) -> datetime:
    from datetime import UTC

    return datetime.fromtimestamp(epoch, UTC)


def subscribe(args: argparse.Namespace, users: list, tag: str, url: str) -> list[Subscription]:
    """Two subscriptions per seated user, the rest for users at none of these games."""
    kinds = ["all"] if args.kinds == "all" else NOTICES
    model = get_user_model()
    owners = [u for u in users for _ in range(2)][: args.subscriptions]
    others = args.subscriptions - len(owners)
    owners += [model.objects.create(username=f"bwh-{tag}-x{i}") for i in range(others)]
    return Subscription.objects.bulk_create(
        Subscription(owner=owner, url=url, kinds=kinds, secret="whsec_" + "A" * 44)
        for owner in owners
    )


def report(label: str, latencies: list[float]) -> None:
    print(
        f"commands, {label}: {len(latencies)}, p50 {percentile(latencies, 50):.1f} ms, "
        f"p99 {percentile(latencies, 99):.1f} ms"
    )


if __name__ == "__main__":
    main()
