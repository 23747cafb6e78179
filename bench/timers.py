"""How late do reaction windows close under load? 200 windows at once.

    make bench                                    (or: python -m bench.timers)
    python -m bench.timers --broker amqp://guest:guest@127.0.0.1:5672//

Starts its own Celery worker with an embedded beat (prefork, --concurrency processes, a
queue of its own, so a `make run` worker on the same broker takes nothing) against the
configured database and broker (or --broker). Creates --windows sandbox games of two
humans, then, from 8 threads, has seat 0 of each play a CONTRACT against seat 1, which
opens a window of --deadline seconds that nobody answers. Reports the lateness of each
close (recorded_at of the WindowClosed event minus the deadline in the WindowOpened
event): p50, p95, p99, max; who closed it (the countdown task or the sweeper); and how
many windows closed more than once (must be 0).

Opening 200 windows takes a few seconds, longer than a 2 s window. By default every
CONTRACT is therefore decided at one clock value (the service's ``now``, as the sandbox
tests do) chosen so that all the deadlines fall on the same millisecond, just after the
last window opened: 200 closes due at once, the worst case. ``--real-clock`` uses the
real clock instead (deadlines spread over the opening time, the worker competing with the
openers for the CPU).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench._setup import machine, setup

setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from events.models import StoredEvent  # noqa: E402
from fbservice.celery import app as celery_app  # noqa: E402
from games.family_business import CARD_KIND  # noqa: E402
from games.lobby import seat_join, table_create, table_start  # noqa: E402
from games.models import Table  # noqa: E402
from games.service import game_command_execute, game_load  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
QUEUE = f"bench-{uuid.uuid4().hex[:10]}"
CONTRACT = sorted(c for c, k in CARD_KIND.items() if k == "CONTRACT")[0]


def stacked_deck() -> list[str]:
    """Seat 0 is dealt a CONTRACT; nobody holds a counter card (ten cards for two seats)."""
    counters = {"FAMILY_INFLUENCE", "MOB_POWER", "FINGER", "SAFE_HOUSE"}
    fillers = [c for c in sorted(CARD_KIND, reverse=True) if CARD_KIND[c] not in counters]
    fillers = [c for c in fillers if c != CONTRACT]
    return [CONTRACT, *fillers[:9]]


def start_worker(
    broker: str, concurrency: int, folder: Path, pool: str = "prefork"
) -> subprocess.Popen[bytes]:
    d = connection.settings_dict
    env = dict(
        os.environ,
        CELERY_BROKER_URL=broker,
        CELERY_TASK_DEFAULT_QUEUE=QUEUE,
        CELERY_BEAT_SCHEDULE_FILENAME=str(folder / "beat"),
        DEBUG="false",  # as in production (DEBUG keeps every query of a task)
        SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-" + uuid.uuid4().hex,
        FB_EMBEDDED="false",
        PYTHONUNBUFFERED="1",
    )
    if not os.environ.get("DATABASE_URL"):
        raise SystemExit("DATABASE_URL must be set (make bench sets it)")
    log = (folder / "worker.log").open("wb")
    proc = subprocess.Popen(  # noqa: S603 - our interpreter, our arguments
        [sys.executable, "-m", "celery", "-A", "fbservice", "worker", "-B", "-l", "INFO",
         "-P", pool, "-c", str(concurrency), "-n", f"{QUEUE}@bench", "-Q", QUEUE,
         "--without-mingle", "--without-gossip"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while b" ready." not in (folder / "worker.log").read_bytes():
        if proc.poll() is not None or time.monotonic() > deadline:
            print((folder / "worker.log").read_text(errors="replace")[-3000:])
            raise SystemExit(f"the worker did not start (database {d['NAME']})")
        time.sleep(0.1)
    return proc


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=200)
    parser.add_argument("--deadline", type=int, default=2, help="window length, seconds")
    parser.add_argument("--broker", default=settings.CELERY_BROKER_URL)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--pool", default="prefork", choices=["prefork", "threads", "solo"])
    parser.add_argument("--real-clock", action="store_true", help="no shared deadline")
    args = parser.parse_args()

    scheme = args.broker.split(":", 1)[0]
    print(f"machine: {machine()}")
    print(
        f"broker: {scheme}; worker: {args.pool} x{args.concurrency} + beat "
        f"(sweep every {settings.FB_SWEEP_SECONDS:g}s, grace {settings.FB_SWEEP_GRACE_SECONDS:g}s)"
    )
    # This process sends the close tasks: to the worker's broker and queue.
    celery_app.conf.broker_write_url = args.broker
    celery_app.conf.task_default_queue = QUEUE
    settings.FB_SCHEDULE_TASKS = True

    users = [
        get_user_model().objects.get_or_create(username=f"bench-timers-{i}")[0] for i in (0, 1)
    ]
    tables = []
    for _ in range(args.windows):
        table = table_create(
            created_by=None,
            seats=2,
            mode="sandbox",
            reaction_seconds=args.deadline,
            stacked_deck=stacked_deck(),
        )
        for user in users:
            seat_join(table_id=table.id, user=user)
        tables.append(table_start(table_id=table.id))

    with tempfile.TemporaryDirectory(prefix="fb-bench-") as tmp:
        worker = start_worker(args.broker, args.concurrency, Path(tmp), args.pool)
        try:
            figures(tables, args.deadline, args.real_clock)
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()
            task_times(Path(tmp) / "worker.log")
            drop_queue(args.broker)


def drop_queue(broker: str) -> None:
    """Leave nothing behind on the broker: our queue, its exchange or bindings."""
    from kombu import Connection

    try:
        with Connection(broker, connect_timeout=3) as conn:
            channel = conn.default_channel
            if broker.startswith("redis"):
                channel.client.delete(
                    QUEUE, f"_kombu.binding.{QUEUE}", f"_kombu.binding_permanent.{QUEUE}"
                )
            else:
                channel.queue_delete(QUEUE)
                channel.exchange_delete(QUEUE)
    except Exception as exc:  # noqa: BLE001 - cleanup: report, do not fail the benchmark
        print(f"could not delete queue {QUEUE}: {exc}")


def task_times(log: Path) -> None:
    """How long the worker spent in each close task (from its log)."""
    pattern = re.compile(r"games\.tasks\.close_window\[[^]]+\] succeeded in ([0-9.e-]+)s: '(.*)'")
    runs = [(float(m[1]) * 1000, m[2]) for m in pattern.finditer(log.read_text(errors="replace"))]
    if runs:
        times = [t for t, _ in runs]
        results: dict[str, int] = {}
        for _, result in runs:
            results[result] = results.get(result, 0) + 1
        print(
            f"close tasks: {len(runs)} ({results}); run time p50 {percentile(times, 50):.0f} ms, "
            f"max {max(times):.0f} ms"
        )


def open_window(table: Table, now: int | None) -> None:
    target = game_load(game_id=table.id).state.players[1].crew[0]
    try:
        game_command_execute(
            game_id=table.id,
            seat=0,
            actor="user:bench",
            command={"type": "play", "card": CONTRACT, "targets": [target]},
            command_id=uuid.uuid4(),
            now=now,
        )
    finally:
        connection.close()


def figures(tables: list[Table], deadline_s: int, real_clock: bool) -> None:
    now = None
    if not real_clock:  # a shared deadline, 1 s after the estimated end of the opening
        started = time.time()
        open_window(tables[0], None)
        estimate = (time.time() - started) * len(tables) / 4  # 8 threads, 2 cores: ~4x
        now = int((time.time() + estimate + 1.0) * 1000) - deadline_s * 1000
        tables = tables[1:]
    started = time.time()
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda t: open_window(t, now), tables))
    opened_in = time.time() - started
    ids = [t.id for t in tables]
    opened = {
        e.stream_id: e.payload["deadline"]
        for e in StoredEvent.objects.filter(stream_id__in=ids, type="family_business.WindowOpened")
    }
    last_deadline = max(opened.values())
    margin = (min(opened.values()) - time.time() * 1000) / 1000
    print(
        f"opened {len(opened)} windows of {deadline_s}s in {opened_in:.2f}s "
        f"(deadlines spread over {(last_deadline - min(opened.values())) / 1000:.2f}s; "
        f"the first is due {margin:.2f}s after the last opened)"
    )
    while time.time() * 1000 < last_deadline + 30_000:
        closed = StoredEvent.objects.filter(stream_id__in=ids, type="family_business.WindowClosed")
        if closed.count() >= len(opened):
            break
        time.sleep(0.25)
    time.sleep(2.5)  # past the grace and a sweep: would anything close twice?
    closes = list(
        StoredEvent.objects.filter(stream_id__in=ids, type="family_business.WindowClosed")
    )
    per_game: dict[uuid.UUID, int] = {}
    for event in closes:
        per_game[event.stream_id] = per_game.get(event.stream_id, 0) + 1
    late = [
        event.recorded_at.timestamp() * 1000 - opened[event.stream_id]
        for event in closes
        if event.stream_id in opened
    ]
    by: dict[str, int] = {}
    for event in closes:
        who = event.metadata.get("by", "?")
        by[who] = by.get(who, 0) + 1
    print(f"closed: {len(per_game)} of {len(opened)}; by {by}")
    print(f"closed more than once: {sum(1 for n in per_game.values() if n > 1)}")
    if late:
        print(
            "lateness (ms): "
            f"p50 {percentile(late, 50):.0f}, p95 {percentile(late, 95):.0f}, "
            f"p99 {percentile(late, 99):.0f}, max {max(late):.0f}, "
            f"min {min(late):.0f}, mean {statistics.fmean(late):.0f}"
        )
    if len(per_game) < len(opened) or any(n > 1 for n in per_game.values()):
        raise SystemExit("FAILED: a window did not close, or closed twice")


if __name__ == "__main__":
    main()
