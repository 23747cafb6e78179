"""Commands over HTTP under load: bot games played by an asyncio client against gunicorn.

    make bench BENCHES=api_load            (or: python -m bench.api_load)
    python -m bench.api_load --games 50,200 --rounds 3 --seconds 10 --paced 50,200 --think 1

Starts its own production-style server (gunicorn with ``--workers`` uvicorn workers serving
fbservice.asgi, or ``--server wsgi``: gthread workers serving fbservice.wsgi; DEBUG off,
persistent database connections: CONN_MAX_AGE 60, task queue of its own) against the
configured database, with ``FB_BENCH_ENDPOINTS`` on. Then, in one run:

1. for each ``--games`` figure N, ``--rounds`` rounds of two phases: the bare endpoint
   (``POST /api/v1/bench/bare``: the same DRF stack and token authentication around a
   one-row INSERT) from N concurrent clients, then N concurrent games with no think time
   (a closed loop: throughput at saturation). The ratio commands/s over bare/s is taken
   per round and its median reported, so that a machine whose speed drifts (a shared VM)
   compares the two under the same conditions;
2. for each ``--paced`` figure N, N games whose seats think ``--think`` seconds on average
   (0.5x to 1.5x) before each command: the latency of a command at that load, not the
   queueing of a saturated server.

A game: ``--seats`` human seats (each its own user and token, so every move is an HTTP
command), played by one client task: it reads the game as the seat on turn
(``GET /games/{id}``), picks one of its ``legal`` options (a play whose targets it can
name, else a discard) and sends it (``POST .../commands``); in a reaction window every
awaited seat passes (the window id is public). A finished game is replaced by a new table.

It reports p50/p95/p99 latency and the rate of commands, of the state reads and of the
bare endpoint, the status codes, the load average, and at the end replays every game it
played: full replay equals the snapshot load, sequence numbers are gap-free, each
command's events are where its record says, and the export verifies.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._setup import machine, setup

setup()

import aiohttp  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from api.bench_views import BARE_TABLE, CREATE_BARE_TABLE  # noqa: E402
from events.models import CommandRecord, StoredEvent  # noqa: E402
from games.lobby import seat_join, table_create, table_start  # noqa: E402
from games.record import game_export  # noqa: E402
from games.service import game_load  # noqa: E402
from games.verify import verify_record  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
QUEUE = f"bench-api-{uuid.uuid4().hex[:10]}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# --- the server --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int,
    workers: int,
    threads: int,
    folder: Path,
    app: str = "asgi",
    nice: int = 0,
    log_name: str = "server.log",
    repo: str | None = None,
    **extra_env: str,
) -> subprocess.Popen[bytes]:
    """gunicorn on ``port``: ``asgi`` (production: uvicorn workers serving fbservice.asgi,
    ``threads`` = FB_WEB_THREADS) or ``wsgi`` (gthread workers serving fbservice.wsgi);
    ``nice``: its CPU niceness (a tier that yields the CPU to the others); ``repo``:
    another checkout whose code it serves (this one's by default)."""
    if not os.environ.get("DATABASE_URL"):
        raise SystemExit("DATABASE_URL must be set (make bench sets it)")
    env = dict(
        os.environ,
        DEBUG="false",
        SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-" + uuid.uuid4().hex,
        FB_EMBEDDED="false",
        FB_BENCH_ENDPOINTS="true",
        FB_COMMAND_RATE="1000000/min",  # measure the commands, not the rate limit
        FB_READ_RATE="1000000/min",
        CELERY_TASK_DEFAULT_QUEUE=QUEUE,  # no other worker takes this run's timers
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        FB_WEB_THREADS=str(threads),
        **extra_env,
    )
    if app == "asgi":
        served = ["fbservice.asgi:application", "--worker-class", "fbservice.server.UvicornWorker",
                  "--worker-connections", "20000", "--timeout", "60"]  # fmt: skip
    else:
        served = ["fbservice.wsgi", "--threads", str(threads)]
    log = (folder / log_name).open("wb")
    proc = subprocess.Popen(  # noqa: S603 - our interpreter, our arguments
        [sys.executable, "-m", "gunicorn", *served, "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--backlog", "4096", "--log-level", "warning",
         "--no-control-socket"],
        cwd=repo or REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,  # noqa: PLW1509 - no threads yet
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                break
        except urllib.error.HTTPError:
            break  # 503: the broker is down, the server is up
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            print((folder / log_name).read_text(errors="replace")[-3000:])
            raise SystemExit("the server did not start")
        time.sleep(0.2)
    return proc


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def drop_queue(broker: str) -> None:
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


# --- fixtures ----------------------------------------------------------------------------


def tokens(count: int) -> list[str]:
    users = get_user_model()
    keys = []
    for i in range(count):
        user = users.objects.get_or_create(username=f"bench-api-{i}")[0]
        keys.append(Token.objects.get_or_create(user=user)[0].key)
    return keys


class Lobby:
    """Hands out started tables of human seats, each seat a distinct user."""

    def __init__(self, seats: int, users: int) -> None:
        self.seats = seats
        self.keys = tokens(users)
        self.users = {
            t.key: t.user for t in Token.objects.filter(key__in=self.keys).select_related("user")
        }
        self.next = 0

    def table(self) -> tuple[str, list[str]]:
        keys = [self.keys[(self.next + i) % len(self.keys)] for i in range(self.seats)]
        self.next += self.seats
        table = table_create(created_by=None, seats=self.seats, reaction_seconds=10)
        for position, key in enumerate(keys):
            seat_join(table_id=table.id, user=self.users[key], position=position)
        table_start(table_id=table.id)
        return str(table.id), keys


# --- the client --------------------------------------------------------------------------


@dataclass
class Stats:
    commands: list[float] = field(default_factory=list)  # latency, ms
    reads: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    status: dict[int, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    games: set[str] = field(default_factory=set)
    finished: int = 0
    elapsed: float = 0.0  # seconds the phase counted
    waits: dict[str, float] = field(default_factory=dict)  # seconds clients slept, by why
    server_cores: float = 0.0  # the server's CPU over the phase, in cores

    def count(self, code: int) -> None:
        self.status[code] = self.status.get(code, 0) + 1


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """One of ``legal``: a play whose targets are simple to name (60%), else a discard."""
    plays, discards = [], []
    for option in legal:
        card = option.get("card")
        if option["command"] == "discard":
            discards.append({"type": "play", "card": card, "discard": True})
        elif option["command"] == "play":
            choices = option.get("choices") or {}
            targets = choices.get("targets") or {}
            if not choices:
                plays.append({"type": "play", "card": card})
            elif set(choices) == {"targets"} and "mobsters" in targets and "count" in targets:
                count = int(targets["count"])
                if len(targets["mobsters"]) >= count:
                    picked = rng.sample(targets["mobsters"], count)
                    plays.append({"type": "play", "card": card, "targets": picked})
            elif set(choices) == {"player"} and choices["player"]:
                plays.append({"type": "play", "card": card, "player": choices["player"][0]})
    if plays and (not discards or rng.random() < 0.6):
        return rng.choice(plays)
    return rng.choice(discards) if discards else None


class Runner:
    def __init__(
        self, base: str, lobby: Lobby, stats: Stats, until: float, seed: int, think: float = 0.0
    ) -> None:
        self.base = base
        self.lobby = lobby
        self.stats = stats
        self.until = until
        self.rng = random.Random(seed)  # noqa: S311 - picking moves, not secrets
        self.think = think  # mean seconds a seat thinks before each command (0: none)

    async def request(
        self, client: aiohttp.ClientSession, method: str, path: str, key: str, **kw: Any
    ) -> tuple[int, Any, float]:
        headers = {"Authorization": f"Token {key}", **kw.pop("headers", {})}
        started = time.perf_counter()
        async with client.request(method, self.base + path, headers=headers, **kw) as response:
            body = await response.read()
        elapsed = (time.perf_counter() - started) * 1000
        self.stats.count(response.status)
        try:
            data = json.loads(body)
        except ValueError:
            data = {"text": body[:200].decode(errors="replace")}
        return response.status, data, elapsed

    async def command(
        self, client: aiohttp.ClientSession, game: str, key: str, command: dict[str, Any]
    ) -> dict[str, Any] | None:
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        code, data, ms = await self.request(
            client,
            "POST",
            f"/api/v1/games/{game}/commands",
            key,
            json={"command": command},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        if time.monotonic() <= self.until:
            self.stats.commands.append(ms)
        if code == 201:
            return dict(data["state"])
        if code < 500:
            error = data.get("error", {}).get("code", str(code))
            self.stats.refused[error] = self.stats.refused.get(error, 0) + 1
        return None

    async def wait(self, why: str, seconds: float) -> None:
        self.stats.waits[why] = self.stats.waits.get(why, 0.0) + seconds
        await asyncio.sleep(seconds)

    async def read(self, client: aiohttp.ClientSession, game: str, key: str) -> dict[str, Any]:
        code, data, ms = await self.request(client, "GET", f"/api/v1/games/{game}", key)
        if time.monotonic() <= self.until:
            self.stats.reads.append(ms)
        if code != 200:
            raise RuntimeError(f"GET game {game}: {code} {data}")
        return dict(data["state"])

    async def play(self, client: aiohttp.ClientSession, game: str, keys: list[str]) -> None:
        """One table, played to the end or until time is up."""
        self.stats.games.add(game)
        if self.think:
            # players do not all sit down in the same instant: spread the starts over one
            # think time, or the first reads and moves of every game arrive together
            await asyncio.sleep(self.rng.uniform(0, self.think))
        state = await self.read(client, game, keys[0])
        passed: set[str] = set()
        while time.monotonic() < self.until and not state.get("over"):
            window = state.get("window")
            awaiting = list(state.get("awaiting") or [])
            if window is not None and awaiting:
                if window["id"] in passed:
                    # passes by hand end a window once every seat answered (docs/rules.md,
                    # "Hand passes are public"); one still open after ours (a pass refused
                    # as the window closed, a read before the close) is read again
                    await self.wait("window still open after every pass", 0.5)
                    state = await self.read(client, game, keys[0])
                    continue
                passed.add(window["id"])  # everyone the window waits on passes, once
                for seat in awaiting:
                    after = await self.command(
                        client, game, keys[seat], {"type": "pass", "window": window["id"]}
                    )
                    state = after or state
                if window == state.get("window"):
                    state = await self.read(client, game, keys[0])
                continue
            if not awaiting:
                state = await self.read(client, game, keys[0])
                if not state.get("awaiting") and not state.get("over"):
                    await self.wait("nobody awaited", 0.05)
                continue
            seat = awaiting[0]
            if state.get("viewer") != seat:
                state = await self.read(client, game, keys[seat])
            command = choose(list(state.get("legal") or []), self.rng)
            if command is None:
                command = {"type": "resign"}
            after = await self.command(client, game, keys[seat], command)
            state = after if after is not None else await self.read(client, game, keys[seat])
        if state.get("over"):
            self.stats.finished += 1

    async def player(self, client: aiohttp.ClientSession) -> None:
        while time.monotonic() < self.until:
            game, keys = await asyncio.to_thread(self.lobby.table)
            await self.play(client, game, keys)

    async def bare(self, client: aiohttp.ClientSession, key: str) -> None:
        while time.monotonic() < self.until:
            code, data, ms = await self.request(
                client, "POST", "/api/v1/bench/bare", key, json={"note": "bench"}
            )
            if time.monotonic() <= self.until:
                self.stats.bare.append(ms)
            if code != 201:
                raise RuntimeError(f"bare: {code} {data}")


async def run_phase(
    base: str,
    lobby: Lobby,
    kind: str,
    concurrency: int,
    seconds: float,
    ready: list[Any],
    think: float = 0.0,
) -> Stats:
    stats = Stats()
    connector = aiohttp.TCPConnector(limit=concurrency + 10)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
        runner = Runner(
            base, lobby, stats, time.monotonic() + seconds, seed=concurrency, think=think
        )
        started = time.monotonic()
        if kind == "bare":
            await asyncio.gather(
                *(runner.bare(client, lobby.keys[i % len(lobby.keys)]) for i in range(concurrency))
            )
        else:

            async def first(game: str, keys: list[str]) -> None:
                await runner.play(client, game, keys)
                await runner.player(client)

            await asyncio.gather(*(first(g, k) for g, k in ready))
        stats.elapsed = min(time.monotonic() - started, seconds)
    return stats


def line(name: str, samples: list[float], seconds: float) -> str:
    return (
        f"{name:<9} {len(samples) / seconds:8.1f}/s  p50 {percentile(samples, 50):6.1f} ms  "
        f"p95 {percentile(samples, 95):6.1f} ms  p99 {percentile(samples, 99):6.1f} ms  "
        f"(n={len(samples)})"
    )


# --- checks ------------------------------------------------------------------------------


def check(games: set[str]) -> list[str]:
    """Replay every game: nothing lost, nothing duplicated, the chain intact."""
    problems = []
    for game in sorted(games):
        gid = uuid.UUID(game)
        seqs = list(
            StoredEvent.objects.filter(stream_id=gid).order_by("seq").values_list("seq", flat=True)
        )
        if seqs != list(range(1, len(seqs) + 1)):
            problems.append(f"{game}: sequence numbers are not 1..{len(seqs)}")
        full, fast = game_load(game_id=gid, use_snapshots=False), game_load(game_id=gid)
        if full.state != fast.state or full.version != fast.version:
            problems.append(f"{game}: the snapshot load differs from the full replay")
        for record in CommandRecord.objects.filter(
            stream_id=gid, outcome=CommandRecord.ACCEPTED, first_seq__isnull=False
        ):
            count = StoredEvent.objects.filter(
                stream_id=gid, command_id=record.command_id, seq__gte=record.first_seq
            ).count()
            if count != record.last_seq - record.first_seq + 1:
                problems.append(f"{game}: command {record.command_id} has {count} events")
        report = verify_record(game_export(full.table))
        if not report.ok:
            problems.append(f"{game}: export does not verify: {report.problems[:3]}")
    return problems


def merged(parts: list[Stats]) -> Stats:
    total = Stats()
    for part in parts:
        total.commands += part.commands
        total.reads += part.reads
        total.bare += part.bare
        for code, n in part.status.items():
            total.status[code] = total.status.get(code, 0) + n
        for code, n in part.refused.items():
            total.refused[code] = total.refused.get(code, 0) + n
        total.games |= part.games
        total.finished += part.finished
        for why, seconds in part.waits.items():
            total.waits[why] = total.waits.get(why, 0.0) + seconds
    total.elapsed = sum(p.elapsed for p in parts)
    return total


def server_cpu(server: subprocess.Popen[bytes]) -> float:
    """CPU seconds used so far by the server's processes."""
    import psutil

    total = 0.0
    master = psutil.Process(server.pid)
    for each in [master, *master.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = each.cpu_times()
            total += times.user + times.system
    return total


def fives(stats: Stats) -> int:
    return sum(n for code, n in stats.status.items() if code >= 500)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="50,200", help="concurrent games, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase")
    parser.add_argument("--rounds", type=int, default=3, help="bare/games phases alternated")
    parser.add_argument(
        "--paced", default="50,200", help="concurrent games of the paced run ('' for none)"
    )
    parser.add_argument("--think", type=float, default=1.0, help="paced: mean think time, s")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 2))
    parser.add_argument(
        "--server", choices=("asgi", "wsgi"), default="asgi",
        help="asgi: uvicorn workers serving fbservice.asgi (production); wsgi: gthread",
    )  # fmt: skip
    parser.add_argument(
        "--threads", type=int, default=4, help="threads a worker (FB_WEB_THREADS or gthread)"
    )
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--no-check", action="store_true", help="skip the replay checks")
    parser.add_argument(
        "--repo", default=None, help="serve another checkout's code (a before/after pair)"
    )
    args = parser.parse_args()
    levels = [int(x) for x in args.games.split(",") if x]
    paced = [int(x) for x in args.paced.split(",") if x]

    print(f"machine: {machine()}")
    print(
        f"server: gunicorn ({args.server}) x{args.workers} workers x{args.threads} threads, "
        "DEBUG off, "
        f"CONN_MAX_AGE {connection.settings_dict['CONN_MAX_AGE']}; "
        f"tables of {args.seats} human seats; {args.seconds:g} s a phase"
        f"{'; code of ' + args.repo if args.repo else ''}"
    )
    with connection.cursor() as cursor:
        cursor.execute(CREATE_BARE_TABLE)
        cursor.execute(f"TRUNCATE {BARE_TABLE}")  # noqa: S608 - a constant
    lobby = Lobby(args.seats, users=max([*levels, *paced]) * args.seats * 2)
    port = free_port()
    failures: list[str] = []
    played: set[str] = set()

    def phase(kind: str, level: int, think: float = 0.0) -> Stats:
        # the first tables are made before the clock starts
        ready = [lobby.table() for _ in range(level)] if kind == "games" else []
        cpu_before, started = server_cpu(server), time.monotonic()
        stats = asyncio.run(run_phase(base, lobby, kind, level, args.seconds, ready, think))
        stats.server_cores = (server_cpu(server) - cpu_before) / (time.monotonic() - started)
        played.update(stats.games)
        if fives(stats):
            failures.append(f"{fives(stats)} responses 5xx in {kind} x{level}")
        return stats

    with tempfile.TemporaryDirectory(prefix="fb-bench-api-") as tmp:
        server = start_server(
            port, args.workers, args.threads, Path(tmp), args.server, repo=args.repo
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for level in levels:
                # Closed loop (no think time): throughput at saturation. Bare and games
                # phases alternate, so the ratio of each round is taken under the same
                # conditions; the median ratio is the figure.
                print(f"-- {level} concurrent clients, no think time, {args.rounds} rounds")
                bares, games, ratios = [], [], []
                for number in range(1, args.rounds + 1):
                    bare = phase("bare", level)
                    game = phase("games", level)
                    bare_rate = len(bare.bare) / bare.elapsed
                    rate = len(game.commands) / game.elapsed
                    ratios.append(rate / bare_rate)
                    bares.append(bare)
                    games.append(game)
                    print(
                        f"  round {number}: bare {bare_rate:6.1f}/s, commands {rate:6.1f}/s, "
                        f"ratio {rate / bare_rate:.2f}; server cores busy: bare "
                        f"{bare.server_cores:.2f}, games {game.server_cores:.2f} (of "
                        f"{os.cpu_count()}); load average {load_average()}"
                    )
                bare, game = merged(bares), merged(games)
                print("  " + line("bare", bare.bare, bare.elapsed))
                print("  " + line("commands", game.commands, game.elapsed))
                print("  " + line("reads", game.reads, game.elapsed))
                print(
                    f"  commands/s over bare/s: median {statistics.median(ratios):.2f} "
                    f"(rounds {', '.join(f'{r:.2f}' for r in ratios)}); games "
                    f"{len(game.games)} ({game.finished} finished); refused {game.refused or 0}"
                )
                print(f"  status codes {dict(sorted((bare.status | game.status).items()))}")
                waited = ", ".join(f"{why}: {s:.0f} s" for why, s in game.waits.items())
                print(f"  clients waited (all clients, all rounds): {waited or 'never'}")
            for level in paced:
                # Paced: each seat thinks before every command, as players (even quick
                # bots) do; latency is then the service's, not a queue's at saturation.
                stats = phase("games", level, think=args.think)
                print(
                    f"-- {level} concurrent games, paced (think {args.think * 0.5:g} to "
                    f"{args.think * 1.5:g} s before each command); load average {load_average()}"
                )
                print("  " + line("commands", stats.commands, stats.elapsed))
                print("  " + line("reads", stats.reads, stats.elapsed))
                print(f"  status codes {dict(sorted(stats.status.items()))}; 5xx: {fives(stats)}")
        finally:
            stop_server(server)
            drop_queue(os.environ.get("CELERY_BROKER_URL", ""))
            log = (Path(tmp) / "server.log").read_text(errors="replace")
            if "Traceback" in log:
                print(log[-3000:])
    connection.close()
    if not args.no_check:
        started = time.monotonic()
        problems = check(played)
        print(
            f"checked {len(played)} games in {time.monotonic() - started:.1f}s: "
            f"{len(problems)} problems"
        )
        failures += problems[:20]
    if failures:
        raise SystemExit("FAILED:\n" + "\n".join(failures))


if __name__ == "__main__":
    main()
