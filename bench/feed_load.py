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
import contextlib
import gc
import json
import multiprocessing
import os
import random
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from bench._setup import machine, setup

setup()

import aiohttp  # noqa: E402
import psutil  # noqa: E402
from django.db import connection  # noqa: E402

from api.feed.metrics import BUCKETS_MS, GAUGES, STAGES, Histogram  # noqa: E402
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

SERVER_ENV = {
    "FB_FEED_MAX_PER_USER": "20",
    "FB_FEED_MAX_CONNECTIONS": "12000",
    "FB_SSE_LIFETIME": os.environ.get("FB_SSE_LIFETIME", "60"),
}
METRICS_TOKEN = "bench-" + uuid.uuid4().hex


def summary(name: str, samples: list[float]) -> str:
    return (
        f"{name:<10} p50 {percentile(samples, 50):7.1f} ms  p99 {percentile(samples, 99):7.1f} ms"
        f"  max {max(samples, default=float('nan')):7.1f} ms  (n={len(samples)})"
    )


# --- the subscribers (a process of their own) ----------------------------------------------


class Follower:
    """One subscriber of one game, as a client of the feed would follow it: an
    ``EventSource`` (``stream``: honours ``retry:`` and ``Retry-After``, hands over to a
    new stream when the server says ``event: handover``) or a long-poll loop. Each event
    is kept once, as (seq, time received); ``tally`` counts every reconnect by its cause
    and ``gaps`` how long each cause left the subscriber without a connection (ms)."""

    def __init__(
        self,
        client: aiohttp.ClientSession,
        base: str,
        token: str,
        game: str,
        after: int,
        stream: bool,
        stop: asyncio.Event,
        got: list[tuple[int, float]],
        tally: Counter[str],
        gaps: dict[str, list[float]],
    ) -> None:
        self.client, self.base, self.game, self.after = client, base, game, after
        self.headers = {"Authorization": f"Token {token}"}
        self.stream, self.stop, self.got, self.tally, self.gaps = stream, stop, got, tally, gaps
        self.retry = 2.0  # EventSource's reconnect delay, until the server says otherwise
        self.connected = False
        self.down_since: float | None = None  # without a connection since, and why
        self.down_cause = ""

    def keep(self, seq: int, at: float) -> None:
        if seq > self.after:  # a handover's two streams may both carry it
            self.got.append((seq, at))
            self.after = seq

    def down(self, cause: str) -> None:
        """The subscriber has no connection from now (until ``up``), for ``cause``."""
        self.tally[cause] += 1
        if self.down_since is None:
            self.down_since, self.down_cause = time.monotonic(), cause

    def up(self) -> None:
        if not self.connected:
            self.connected = True
            CONNECTED[0] += 1
        if self.down_since is not None:
            gap = (time.monotonic() - self.down_since) * 1000
            self.gaps.setdefault(self.down_cause, []).append(gap)
            self.down_since = None

    async def refused(self, response: aiohttp.ClientResponse) -> str:
        """The cause of a non-200 answer; waits as the server asks (``Retry-After``)."""
        code = ""
        with contextlib.suppress(ValueError, aiohttp.ClientError):
            text = await response.text()
            body = json.loads(text[text.index("{") :])
            code = body.get("code") or body.get("error", {}).get("code", "")
        self.down(f"{response.status} {code}".strip())
        wait = response.headers.get("Retry-After")
        await asyncio.sleep(float(wait) if wait and wait.isdigit() else 2.0)

    async def run(self) -> None:
        while not self.stop.is_set():
            try:
                await (self.follow_stream() if self.stream else self.poll())
            except (TimeoutError, aiohttp.ClientError) as exc:
                self.down(f"client {type(exc).__name__}")
                await asyncio.sleep(0.5)

    async def open_stream(self, successor: bool = False) -> aiohttp.ClientResponse | None:
        """A stream from ``after``, once its first line arrived; None if refused (after
        waiting as the server asked)."""
        asked = time.monotonic()
        response = await self.client.get(
            f"{self.base}/api/v1/games/{self.game}/events/stream",
            headers={**self.headers, "Last-Event-ID": str(self.after)},
        )
        if response.status != 200:
            await self.refused(response)
            response.release()
            return None
        headers_at = time.monotonic()
        self.read(await response.content.readline())
        if successor:
            note = self.gaps.setdefault
            note("(next stream: its headers came after)", []).append((headers_at - asked) * 1000)
            note("(next stream: its first line came after)", []).append(
                (time.monotonic() - asked) * 1000
            )
        self.up()
        return response

    def read(self, raw: bytes) -> str | None:
        """One line of a stream: keeps an event, notes ``retry``; the event's name."""
        line = raw.decode().rstrip("\n")
        if line.startswith("data: {") and '"seq"' in line:
            self.keep(json.loads(line[6:])["seq"], time.time())
        elif line.startswith("retry: "):
            self.retry = int(line[7:]) / 1000
        elif line.startswith("event: "):
            return line[7:]
        return None

    async def follow_stream(self) -> None:
        """Follow streams until one ends without handing over."""
        opened = await self.open_stream()
        if opened is None:
            return
        response: aiohttp.ClientResponse = opened
        successor: asyncio.Future[aiohttp.ClientResponse | None] | None = None
        line: asyncio.Future[bytes] | None = None
        handed_over = 0.0
        try:
            while not self.stop.is_set():
                line = line or asyncio.ensure_future(response.content.readline())
                waiting: set[asyncio.Future[Any]] = {line, *([successor] if successor else [])}
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if successor is not None and successor in done:
                    taken = successor.result()
                    successor = None
                    if taken is None:
                        continue  # refused: the old stream runs out its grace; reconnect
                    line.cancel()
                    line = None
                    response.close()
                    response = taken
                    self.tally["handover"] += 1  # no moment without a connection
                    waited = (time.monotonic() - handed_over) * 1000
                    self.gaps.setdefault("(handover: the next stream answered after)", []).append(
                        waited
                    )
                    handed_over = 0.0  # the new stream's own close is not "after handover"
                    continue
                raw = line.result()
                line = None
                if not raw:
                    if successor is not None:
                        waited = (time.monotonic() - handed_over) * 1000
                        self.gaps.setdefault(
                            "(handover: old closed, next unanswered after)", []
                        ).append(waited)
                    break  # the server closed it
                if self.read(raw) == "handover" and successor is None:
                    handed_over = time.monotonic()
                    successor = asyncio.ensure_future(self.open_stream(successor=True))
        finally:
            for pending in (line, successor):
                if pending is not None:
                    pending.cancel()
            response.close()
        if not self.stop.is_set():
            self.down("stream closed after handover" if handed_over else "stream closed")
            await asyncio.sleep(self.retry)  # EventSource waits ``retry`` to reconnect

    async def poll(self) -> None:
        async with self.client.get(
            f"{self.base}/api/v1/games/{self.game}/events",
            headers=self.headers,
            params={"after": self.after, "wait": 25},
        ) as response:
            if response.status != 200:
                await self.refused(response)
                return
            body = await response.json()
        self.up()
        now = time.time()
        for event in body["events"]:
            self.keep(event["seq"], now)


CONNECTED = [0]  # subscribers that have had a connection (in the subscribers' process)
CATCH_UP_SECONDS = 60.0  # after the last move, the longest the subscribers are waited for


async def _subscribe_all(
    base: str, plan: list[tuple[str, str, int, bool]], folder: str, ramp: float
) -> None:
    stop = asyncio.Event()
    received: list[list[tuple[int, float]]] = [[] for _ in plan]
    tally: Counter[str] = Counter()
    gaps: dict[str, list[float]] = {}
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=90)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
        tasks, followers = [], []
        for index, (token, game, after, stream) in enumerate(plan):
            follower = Follower(
                client, base, token, game, after, stream, stop, received[index], tally, gaps
            )
            followers.append(follower)
            tasks.append(asyncio.create_task(follower.run()))
            if index % 100 == 99:
                await asyncio.sleep(100 / ramp)
        lags: list[float] = []
        lag_probe = asyncio.create_task(_client_lag(lags))
        Path(folder, "connected").write_text("")  # all requests sent
        final: dict[str, int] | None = None
        while True:
            # the games stopped at ``final``: done once every subscriber has all of it
            if final is None and Path(folder, "final.json").exists():
                final, final_at = json.loads(Path(folder, "final.json").read_text()), time.time()
            if final is not None and (
                all(f.after >= final.get(f.game, 0) for f in followers)
                or time.time() - final_at > CATCH_UP_SECONDS
            ):
                Path(folder, "caught-up").write_text(str(time.time() - final_at))
                break
            if Path(folder, "held").exists() and not Path(folder, "tally-before.json").exists():
                Path(folder, "tally-before.json").write_text(json.dumps(tally))
            Path(folder, "count").write_text(str(CONNECTED[0]))
            await asyncio.sleep(0.5)
        stop.set()
        await asyncio.sleep(1.0)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    Path(folder, "received.json").write_text(json.dumps(received))
    lag_probe.cancel()
    Path(folder, "tally.json").write_text(
        json.dumps({"tally": tally, "gaps": gaps, "client_lag": lags})
    )


async def _client_lag(lags: list[float]) -> None:
    """How late the subscribers' own loop runs (ms, every 100 ms): were it late, their
    deliveries would look late through no fault of the server."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(0.1)
        lags.append((time.monotonic() - before - 0.1) * 1000)


def subscribers_process(
    base: str, plan: list[tuple[str, str, int, bool]], folder: str, ramp: float
) -> None:
    # The client must not be what is measured: with thousands of connections its full
    # garbage collections paused its loop for seconds, which read as late deliveries and
    # late long-polls. A bounded run needs no collector.
    gc.disable()
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


def server_processes(pids: list[int]) -> list[psutil.Process]:
    """The worker processes of these gunicorn masters."""
    return [child for pid in pids for child in psutil.Process(pid).children(recursive=True)]


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


def scrape(base: str) -> tuple[dict[str, Histogram], Counter[str]]:
    """The server's feed figures (``GET /metrics``, all its processes): histograms by
    stage and gauge (ms; queues in items), and the counters."""
    request = urllib.request.Request(  # noqa: S310 - our own server
        f"{base}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            text = response.read().decode()
    except urllib.error.HTTPError:  # a server without the trace (--repo: older code)
        text = ""
    cumulative: dict[str, list[int]] = {}
    counters: Counter[str] = Counter()
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        name_labels, value = line.rsplit(" ", 1)
        labels = dict(
            part.split("=", 1) for part in name_labels[name_labels.index("{") + 1 : -1].split(",")
        )
        key = next(iter(labels.values())).strip('"')
        if name_labels.startswith("fb_feed_loop_lag"):
            key = "loop_lag"
        elif name_labels.startswith("fb_gc_pause"):
            key = "gc_pause"
        elif name_labels.startswith("fb_gc_cpu"):
            key = "gc_cpu"
        if "_bucket{" in name_labels:
            cumulative.setdefault(key, []).append(int(float(value)))
        elif name_labels.startswith("fb_feed_total"):
            counters[key] = int(float(value))
    found = {}
    for key, running in cumulative.items():
        counts = [b - a for a, b in zip([0, *running], running, strict=False)]
        found[key] = Histogram(counts)
    return found, counters


def trace_lines(
    before: tuple[dict[str, Histogram], Counter[str]],
    after: tuple[dict[str, Histogram], Counter[str]],
) -> list[str]:
    """Per stage (and gauge) p50/p99/max-bucket over the phase, and the counters."""
    lines = []
    for name in [*STAGES, *GAUGES]:
        if name not in after[0]:
            continue
        hist = after[0][name].minus(before[0][name])
        if not hist.count:
            continue
        top = max((i for i, n in enumerate(hist.counts) if n), default=0)
        bound = f"<= {BUCKETS_MS[top]:g}" if top < len(BUCKETS_MS) else f"> {BUCKETS_MS[-1]:g}"
        unit = "" if name.endswith("_queue") else " ms"  # queues: items
        lines.append(
            f"{name:<14} p50 {hist.quantile(0.5):8.1f}{unit}  p99 {hist.quantile(0.99):8.1f}{unit}"
            f"  max {bound}{unit}  (n={hist.count})"
        )
    counted = after[1] - before[1]
    lines.append("counted: " + ", ".join(f"{k} {n}" for k, n in sorted(counted.items())))
    return lines


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
    parser.add_argument("--repo", default=None, help="serve another checkout's code")
    args = parser.parse_args()

    print(f"machine: {machine()}")
    print(
        f"server: gunicorn x{args.workers} uvicorn workers (fbservice.asgi"
        f"{', code of ' + args.repo if args.repo else ''}), "
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
    gc.collect()
    gc.freeze()  # the lobby's thousands of objects: no collection of the paced client walks them
    # the subscribers: spectators mostly (their users hold no seat at these games)
    watchers = lobby.keys[-args.users :]
    rng = random.Random(1)  # noqa: S311 - spreading load, not secrets
    with tempfile.TemporaryDirectory(prefix="fb-bench-feed-") as tmp:
        port = free_port()
        Path(tmp, "metrics").mkdir()
        metrics_env = {"FB_METRICS_TOKEN": METRICS_TOKEN, "FB_METRICS_DIR": f"{tmp}/metrics"}
        server = start_server(
            port, args.workers, args.threads, Path(tmp), repo=args.repo, **SERVER_ENV,
            **metrics_env,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        feeds, feed_base = server, base
        if args.feed_tier:
            feed_port = free_port()
            feeds = start_server(
                feed_port, args.feed_tier, args.threads, Path(tmp), nice=args.feed_nice,
                log_name="feed-server.log", repo=args.repo, **SERVER_ENV, **metrics_env,
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

            Path(tmp, "held").write_text("")  # the subscribers count from here
            traced = scrape(feed_base)
            per_process = {p.pid: p.cpu_times() for p in server_processes(servers)}
            cpu_before, cpu_started = sample(), time.monotonic()
            held_stats, held_health = asyncio.run(
                _paced(base, lobby, paced, args.seconds, args.think)
            )
            held_seconds = time.monotonic() - cpu_started
            cpu_after = sample()
            cpu_held = cpu_split(cpu_before, cpu_after, held_seconds)
            per_process_held = {
                p.pid: p.cpu_times() for p in server_processes(servers) if p.pid in per_process
            }
            traced = (traced, scrape(feed_base))
            final = versions(watched)
            Path(tmp, "final.json").write_text(json.dumps(final))  # the subscribers stop
            # once they all have everything (or after CATCH_UP_SECONDS)
            child.join(timeout=120)
            received = json.loads(Path(tmp, "received.json").read_text())
            caught_up = float(Path(tmp, "caught-up").read_text())
            tallied = json.loads(Path(tmp, "tally.json").read_text())
            if Path(tmp, "tally-before.json").exists():
                tallied["before"] = json.loads(Path(tmp, "tally-before.json").read_text())

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
    print(f"  every subscriber had every event {caught_up:.1f} s after the last move")
    print(
        f"  events delivered {len(latency)}; missed {missed}, duplicated {duplicated}, "
        f"out of order {disordered}"
    )
    print(f"  {cpu_held} (of {os.cpu_count()})")
    busy = [
        (t.user + t.system - per_process[pid].user - per_process[pid].system) / held_seconds
        for pid, t in per_process_held.items()
    ]
    print("  each server worker: " + ", ".join(f"{cores:.2f}" for cores in busy) + " cores")
    print("-- where a delivery's time goes (the server's trace over the held phase, GET /metrics):")
    for text in trace_lines(*traced):
        print("  " + text)
    counted = traced[1][1] - traced[0][1]
    server_cpu = (cpu_after["servers"] - cpu_before["servers"]) * 1000
    requests = counted["answers"] + counted["empty_answers"]
    print(
        f"  server CPU {server_cpu / max(1, len(latency)):.2f} ms per delivered event "
        f"({server_cpu:.0f} ms over {len(latency)} deliveries: {counted['frames']} stream "
        f"frames, {len(latency) - counted['frames']} by long-poll in {counted['answers']} "
        f"answers; {requests} long-poll round trips in all)"
    )
    before_held = Counter(tallied.get("before", {}))
    during = Counter(tallied.get("tally", {})) - before_held
    lags = tallied.get("client_lag", [])
    print(
        f"  the subscribers' own loop: late p50 {percentile(lags, 50):.1f} ms, p99 "
        f"{percentile(lags, 99):.1f} ms, max {max(lags, default=0):.0f} ms (their client "
        "is not what is measured while these stay small)"
    )
    print(
        "  subscribers' reconnects in the held phase, by cause: "
        + (", ".join(f"{k} {n}" for k, n in sorted(during.items())) or "none")
    )
    for cause, gaps in sorted(tallied.get("gaps", {}).items()):
        print(
            f"    without a connection after '{cause}' (whole run): p50 "
            f"{percentile(gaps, 50):.0f} ms, max {max(gaps):.0f} ms (n={len(gaps)})"
        )
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
