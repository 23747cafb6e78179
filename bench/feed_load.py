"""Thousands of feed subscribers held while games are played: delivery latency, and what
holding them costs commands and ``/healthz``.

    make bench BENCHES=feed_load           (or: python -m bench.feed_load)
    python -m bench.feed_load --subscribers 5000 --watched 1000 --paced 50 --seconds 30

Starts its own production-style server (gunicorn with ``--workers`` uvicorn workers serving
fbservice.asgi, DEBUG off) against the configured database. Then, in one run:

1. **baseline**: ``--paced`` games played over HTTP by seats that think 0.5-1.5 s before
   each command (as ``bench.api_load``'s paced run), while a prober reads ``/healthz``
   every 100 ms: command and health latency with no subscriber;
2. **held**: ``--subscribers`` feed subscribers (half event streams, half long-polls of
   25 s, spread over ``--watched`` started games, the paced ones among them; each of
   ``--users`` users holds several, within ``FB_FEED_MAX_PER_USER``) connect, in a
   process of their own; once all are in, the same paced games play again for the same
   time, with the same prober.

It reports command and ``/healthz`` p50/p99 for both phases, the delivery latency (from
an event's ``recorded_at``, written just before its commit, to each subscriber of its game
receiving it: p50/p99/max), the server's memory per idle subscriber (RSS of its processes,
held minus baseline, over the subscribers), and checks every subscriber's events against
its game's log: none missed, none duplicated, in order.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench._setup import machine, setup

setup()

import aiohttp  # noqa: E402
import psutil  # noqa: E402
from django.db import connection  # noqa: E402

from bench.api_load import (  # noqa: E402
    Lobby,
    Runner,
    Stats,
    drop_queue,
    free_port,
    load_average,
    percentile,
    start_server,
    stop_server,
)
from events.models import StoredEvent  # noqa: E402

SERVER_ENV = {"FB_FEED_MAX_PER_USER": "20", "FB_FEED_MAX_CONNECTIONS": "12000"}


def summary(name: str, samples: list[float]) -> str:
    return (
        f"{name:<10} p50 {percentile(samples, 50):7.1f} ms  p99 {percentile(samples, 99):7.1f} ms"
        f"  max {max(samples, default=float('nan')):7.1f} ms  (n={len(samples)})"
    )


# --- the subscribers (a process of their own) ----------------------------------------------


async def _subscriber(
    client: aiohttp.ClientSession,
    base: str,
    token: str,
    game: str,
    after: int,
    stream: bool,
    stop: asyncio.Event,
    got: list[tuple[int, float]],
    connected: list[int],
) -> None:
    """Follow ``game`` from ``after`` until ``stop``; each event as (seq, time received)."""
    headers = {"Authorization": f"Token {token}"}
    counted = False
    while not stop.is_set():
        try:
            if stream:
                url = f"{base}/api/v1/games/{game}/events/stream"
                async with client.get(
                    url, headers={**headers, "Last-Event-ID": str(after)}
                ) as response:
                    if response.status != 200:
                        await asyncio.sleep(1)
                        continue
                    if not counted:
                        connected[0] += 1
                        counted = True
                    async for raw in response.content:
                        line = raw.decode().rstrip("\n")
                        if line.startswith("data: {") and '"seq"' in line:
                            seq = json.loads(line[6:])["seq"]
                            got.append((seq, time.time()))
                            after = seq
                        if stop.is_set():
                            return
                await asyncio.sleep(2.0)  # the stream ended: EventSource waits `retry`
            else:
                url = f"{base}/api/v1/games/{game}/events"
                if not counted:
                    connected[0] += 1
                    counted = True
                async with client.get(
                    url, headers=headers, params={"after": after, "wait": 25}
                ) as response:
                    body = await response.json()
                    if response.status != 200:
                        await asyncio.sleep(2.0)
                        continue
                    now = time.time()
                    for event in body["events"]:
                        got.append((event["seq"], now))
                        after = event["seq"]
        except (TimeoutError, aiohttp.ClientError):
            await asyncio.sleep(0.5)


async def _subscribe_all(
    base: str, plan: list[tuple[str, str, int, bool]], folder: str, ramp: float
) -> None:
    stop = asyncio.Event()
    received: list[list[tuple[int, float]]] = [[] for _ in plan]
    connected = [0]
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=90)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
        tasks = []
        for index, (token, game, after, stream) in enumerate(plan):
            tasks.append(
                asyncio.create_task(
                    _subscriber(
                        client, base, token, game, after, stream, stop, received[index], connected
                    )
                )
            )
            if index % 100 == 99:
                await asyncio.sleep(100 / ramp)
        Path(folder, "connected").write_text("")  # all requests sent
        while not Path(folder, "stop").exists():
            Path(folder, "count").write_text(str(connected[0]))
            await asyncio.sleep(0.5)
        stop.set()
        await asyncio.sleep(1.0)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    Path(folder, "received.json").write_text(json.dumps(received))


def subscribers_process(
    base: str, plan: list[tuple[str, str, int, bool]], folder: str, ramp: float
) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    asyncio.run(_subscribe_all(base, plan, folder, ramp))


# --- the measured phases ---------------------------------------------------------------------


async def _probe_health(base: str, until: float, samples: list[float]) -> None:
    async with aiohttp.ClientSession() as client:
        while time.monotonic() < until:
            started = time.perf_counter()
            async with client.get(f"{base}/healthz") as response:
                await response.read()
            samples.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.1)


async def _paced(
    base: str, lobby: Lobby, ready: list[tuple[str, list[str]]], seconds: float, think: float
) -> tuple[Stats, list[float]]:
    stats = Stats()
    health: list[float] = []
    until = time.monotonic() + seconds
    connector = aiohttp.TCPConnector(limit=len(ready) + 10)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=120)
    ) as client:
        runner = Runner(base, lobby, stats, until, seed=len(ready), think=think)
        results = await asyncio.gather(
            _probe_health(base, until, health),
            *(runner.play(client, g, k) for g, k in ready),
            return_exceptions=True,
        )
    for failure in [r for r in results if isinstance(r, BaseException)]:
        key = f"client: {type(failure).__name__}"  # a game whose client failed stops
        stats.refused[key] = stats.refused.get(key, 0) + 1
    return stats, health


def server_rss(server: Any) -> int:
    process = psutil.Process(server.pid)
    return sum(p.memory_info().rss for p in [process, *process.children(recursive=True)])


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) used so far by these processes and their children."""
    total = 0.0
    for pid in pids:
        process = psutil.Process(pid)
        for each in [process, *process.children(recursive=True)]:
            try:
                times = each.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
    return total


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy since boot (all cores)."""
    times = psutil.cpu_times()
    return float(sum(times) - times.idle - getattr(times, "iowait", 0.0))


def cpu_split(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    """Where the machine's cores went during a phase, in cores (1.0 = one core busy)."""
    used = {name: (after[name] - before[name]) / seconds for name in before}
    rest = used.pop("machine") - sum(used.values())
    parts = [f"{name} {cores:.2f}" for name, cores in used.items()]
    return f"cores busy: {', '.join(parts)}, PostgreSQL and the rest {rest:.2f}"


def versions(games: list[str]) -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id::text, max(seq) FROM events_storedevent "
            "WHERE stream_id = ANY(%s::uuid[]) GROUP BY stream_id",
            [games],
        )
        return dict(cursor.fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=5000)
    parser.add_argument("--watched", type=int, default=1000, help="games the subscribers follow")
    parser.add_argument("--paced", type=int, default=50, help="games played meanwhile")
    parser.add_argument("--users", type=int, default=500, help="users holding the subscribers")
    parser.add_argument("--seconds", type=float, default=30.0, help="per phase")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, s")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--threads", type=int, default=8, help="FB_WEB_THREADS a worker")
    parser.add_argument("--ramp", type=float, default=1000.0, help="subscribers connecting/s")
    parser.add_argument(
        "--feed-tier",
        type=int,
        default=0,
        metavar="N",
        help="serve the subscribers from a separate feed tier of N worker processes (as a "
        "load balancer routing the feed's paths would); 0: one tier serves everything",
    )
    parser.add_argument(
        "--feed-nice", type=int, default=0, help="CPU niceness of the feed tier's processes"
    )
    args = parser.parse_args()

    print(f"machine: {machine()}")
    print(
        f"server: gunicorn x{args.workers} uvicorn workers (fbservice.asgi), "
        f"FB_WEB_THREADS {args.threads}, DEBUG off; {args.subscribers} subscribers over "
        f"{args.watched} games ({args.users} users), {args.paced} paced games, "
        f"{args.seconds:g} s a phase"
    )
    if args.feed_tier:
        print(
            f"feed tier: gunicorn x{args.feed_tier} uvicorn workers of its own (nice "
            f"{args.feed_nice}) serve the subscribers; the first serves commands and /healthz"
        )
    seats = 3
    lobby = Lobby(seats, users=max(args.paced * seats * 2, args.users + seats))
    started = time.monotonic()
    paced = [lobby.table() for _ in range(args.paced)]
    idle = [lobby.table()[0] for _ in range(max(0, args.watched - args.paced))]
    watched = [g for g, _ in paced] + idle
    print(f"made {len(watched)} started tables in {time.monotonic() - started:.0f} s")
    # the subscribers: spectators mostly (their users hold no seat at these games)
    watchers = lobby.keys[-args.users :]
    rng = random.Random(1)  # noqa: S311 - spreading load, not secrets
    with tempfile.TemporaryDirectory(prefix="fb-bench-feed-") as tmp:
        port = free_port()
        server = start_server(port, args.workers, args.threads, Path(tmp), **SERVER_ENV)
        base = f"http://127.0.0.1:{port}"
        feeds, feed_base = server, base
        if args.feed_tier:
            feed_port = free_port()
            feeds = start_server(
                feed_port, args.feed_tier, args.threads, Path(tmp), nice=args.feed_nice,
                log_name="feed-server.log", **SERVER_ENV,
            )  # fmt: skip
            feed_base = f"http://127.0.0.1:{feed_port}"
        failures: list[str] = []
        try:
            time.sleep(2)
            rss_before = server_rss(feeds)
            base_stats, base_health = asyncio.run(
                _paced(base, lobby, paced, args.seconds, args.think)
            )
            # the same games go on in the held phase: subscribers start where they are now
            now_at = versions(watched)
            plan = [
                (watchers[i % len(watchers)], watched[i % len(watched)],
                 now_at.get(watched[i % len(watched)], 0), rng.random() < 0.5)
                for i in range(args.subscribers)
            ]  # fmt: skip
            ctx = multiprocessing.get_context("spawn")
            child = ctx.Process(target=subscribers_process, args=(feed_base, plan, tmp, args.ramp))
            child.start()
            deadline = time.monotonic() + 180
            count = 0
            while time.monotonic() < deadline:
                count_file = Path(tmp, "count")
                count = int(count_file.read_text() or 0) if count_file.exists() else 0
                if Path(tmp, "connected").exists() and count >= args.subscribers:
                    break
                time.sleep(0.5)
            time.sleep(3)  # the last ones are in and waiting
            rss_held = server_rss(feeds)
            print(f"subscribers connected: {count}; load average {load_average()}")
            # the games go on (another stretch of the same tables)
            servers = [server.pid] + ([feeds.pid] if feeds is not server else [])
            groups = {"servers": servers, "subscribers' client": [child.pid or 0]}

            def sample() -> dict[str, float]:
                taken = {name: cpu_seconds(pids) for name, pids in groups.items()}
                own = psutil.Process().cpu_times()
                return taken | {"paced client": own.user + own.system, "machine": machine_busy()}

            cpu_before, cpu_started = sample(), time.monotonic()
            held_stats, held_health = asyncio.run(
                _paced(base, lobby, paced, args.seconds, args.think)
            )
            cpu_held = cpu_split(cpu_before, sample(), time.monotonic() - cpu_started)
            time.sleep(3)  # deliveries of the last moves
            final = versions(watched)
            Path(tmp, "stop").write_text("")
            child.join(timeout=120)
            received = json.loads(Path(tmp, "received.json").read_text())
        finally:
            stop_server(server)
            if feeds is not server:
                stop_server(feeds)
            drop_queue(os.environ.get("CELERY_BROKER_URL", ""))
            for name in ("server.log", "feed-server.log"):
                if not (Path(tmp) / name).exists():
                    continue
                log = (Path(tmp) / name).read_text(errors="replace")
                Path(f"/tmp/fb-bench-feed-{name}").write_text(log)  # noqa: S108 - read after
                if "Traceback" in log or "WORKER TIMEOUT" in log:
                    print(log[-3000:])
    # delivery latency and completeness, per subscriber
    stamps: dict[tuple[str, int], float] = {}
    for stream_id, seq, at in StoredEvent.objects.filter(
        stream_id__in=[g for g, _ in paced]
    ).values_list("stream_id", "seq", "recorded_at"):
        stamps[(str(stream_id), seq)] = at.timestamp()
    latency: list[float] = []
    missed = duplicated = disordered = 0
    for (_, game, after, _), got in zip(plan, received, strict=True):
        seqs = [seq for seq, _ in got]
        expected = list(range(after + 1, final.get(game, 0) + 1))
        if seqs != expected:
            duplicated += len(seqs) - len(set(seqs))
            missed += len(set(expected) - set(seqs))
            disordered += int(seqs != sorted(seqs))
        for seq, at in got:
            if (game, seq) in stamps:
                latency.append((at - stamps[(game, seq)]) * 1000)
    print(f"-- baseline: {args.paced} paced games, no subscribers")
    print("  " + summary("commands", base_stats.commands))
    print("  " + summary("healthz", base_health))
    print(f"-- held: {args.subscribers} subscribers ({count} connected), the same games")
    print("  " + summary("commands", held_stats.commands))
    print("  " + summary("healthz", held_health))
    print("  " + summary("delivery", latency))
    per = (rss_held - rss_before) / max(1, args.subscribers)
    print(
        f"  server RSS {rss_before / 2**20:.0f} MiB -> {rss_held / 2**20:.0f} MiB: "
        f"{per / 1024:.1f} KiB per idle subscriber"
    )
    print(
        f"  events delivered {len(latency)}; missed {missed}, duplicated {duplicated}, "
        f"out of order {disordered}"
    )
    print(f"  {cpu_held} (of {os.cpu_count()})")
    print(f"  client failures: {base_stats.refused or 0} / {held_stats.refused or 0}")
    fives = sum(n for code, n in (base_stats.status | held_stats.status).items() if code >= 500)
    if fives:
        failures.append(f"{fives} responses 5xx")
    if missed or duplicated or disordered:
        failures.append("subscribers missed, duplicated or reordered events")
    if failures:
        raise SystemExit("FAILED:\n" + "\n".join(failures))


if __name__ == "__main__":
    main()
