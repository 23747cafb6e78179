"""What a delivery costs the feed's server, alone: CPU per long-poll round trip and per
stream frame, with the moves made outside the server.

    python -m bench.feed_cpu [--subscribers 400] [--games 40] [--moves 20] [--seconds 20]
    python -m bench.feed_cpu --repo ../older-checkout     # the same, served by other code

Starts one production-style server (gunicorn, one uvicorn worker serving fbservice.asgi,
DEBUG off; ``--repo`` serves another checkout's code on the same database) and
``--subscribers`` spectators over ``--games`` started games, in a process of their own.
This process makes ``--moves`` moves a second across the games by calling the service
directly, so the server's CPU is the feed's: announcements heard, reads, redaction,
frames and answers, and the long-polls coming back. Two phases, each with every
subscriber on one kind: long-polls of 25 s, then event streams. For each: the server's
CPU while idle with the subscribers held (per second, subtracted) and while the moves
are made, over what was delivered (counted by the clients): ms per long-poll round trip
and per event delivered, ms per stream frame.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import tempfile
import time
import uuid
from pathlib import Path

from bench._setup import machine, setup

setup()

import aiohttp  # noqa: E402
import psutil  # noqa: E402
from django.conf import settings  # noqa: E402

from bench.api_load import Lobby, drop_queue, free_port, start_server, stop_server  # noqa: E402
from games.core import RuleViolation  # noqa: E402
from games.family_business.bots import HeuristicBot  # noqa: E402
from games.family_business.codec import encode_command  # noqa: E402
from games.service import game_command_execute, game_load  # noqa: E402
from tests.windows import run_out, to_answer  # noqa: E402


async def _follow(base: str, plan: list[tuple[str, str, int]], stream: bool, folder: str) -> None:
    counts = {"answers": 0, "events": 0, "frames": 0}
    stop = asyncio.Event()

    async def one(client: aiohttp.ClientSession, token: str, game: str, after: int) -> None:
        headers = {"Authorization": f"Token {token}"}
        while not stop.is_set():
            try:
                if stream:
                    url = f"{base}/api/v1/games/{game}/events/stream"
                    async with client.get(
                        url, headers={**headers, "Last-Event-ID": str(after)}
                    ) as r:
                        async for raw in r.content:
                            if raw.startswith(b"data: {"):
                                after = json.loads(raw[6:])["seq"]
                                counts["frames"] += 1
                            if stop.is_set():
                                return
                else:
                    url = f"{base}/api/v1/games/{game}/events"
                    async with client.get(
                        url, headers=headers, params={"after": after, "wait": 25}
                    ) as r:
                        body = await r.json()
                    counts["answers"] += 1
                    counts["events"] += len(body["events"])
                    if body["events"]:
                        after = body["events"][-1]["seq"]
            except (TimeoutError, aiohttp.ClientError):
                await asyncio.sleep(0.2)

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=None, sock_read=60)
    ) as client:
        tasks = [asyncio.create_task(one(client, *entry)) for entry in plan]
        Path(folder, "in").write_text("")
        while not Path(folder, "stop").exists():
            Path(folder, "counts.json").write_text(json.dumps(counts))
            await asyncio.sleep(0.2)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def followers(base: str, plan: list[tuple[str, str, int]], stream: bool, folder: str) -> None:
    asyncio.run(_follow(base, plan, stream, folder))


def server_cpu(server: object) -> float:
    master = psutil.Process(server.pid)  # type: ignore[attr-defined]
    total = 0.0
    for each in [master, *master.children(recursive=True)]:
        try:
            times = each.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def counts(folder: str) -> dict[str, int]:
    for _ in range(10):
        try:
            return dict(json.loads(Path(folder, "counts.json").read_text()))
        except (OSError, ValueError):
            time.sleep(0.05)
    raise RuntimeError("no counts from the followers")


def move(game_ids: list[str], rng: random.Random, bot: HeuristicBot) -> bool:
    """One move (or a pass in a window) in one of the games; False if none was made."""
    game_id = uuid.UUID(rng.choice(game_ids))
    loaded = game_load(game_id=game_id)
    if loaded.state.over or run_out(game_id, loaded.state):
        return False
    seat = to_answer(game_id, loaded.state)[0]
    choice = bot.choose(loaded.state, seat, rng)
    if choice is None:
        return False
    try:
        game_command_execute(
            game_id=game_id, seat=seat, actor=f"user:{seat}", command=encode_command(choice),
            command_id=uuid.uuid4(),
        )  # fmt: skip
    except RuleViolation:
        return False  # a window closed meanwhile (a read on the server closes overdue ones)
    return True


def phase(args: argparse.Namespace, lobby: Lobby, stream: bool, tmp: str) -> str:
    games = [lobby.table()[0] for _ in range(args.games)]
    watchers = lobby.keys[-args.users :]
    plan = [
        (watchers[i % len(watchers)], games[i % len(games)],
         game_load(game_id=uuid.UUID(games[i % len(games)])).version)
        for i in range(args.subscribers)
    ]  # fmt: skip
    folder = Path(tmp, "stream" if stream else "poll")
    folder.mkdir()
    port = free_port()
    server = start_server(
        port, 1, 4, folder, repo=args.repo, FB_FEED_MAX_PER_USER="1000",
        FB_FEED_MAX_CONNECTIONS="20000", FB_SSE_LIFETIME="600",
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    child = multiprocessing.get_context("spawn").Process(
        target=followers, args=(base, plan, stream, str(folder))
    )
    try:
        child.start()
        while not Path(folder, "in").exists():
            time.sleep(0.1)
        time.sleep(5)  # every subscriber connected and waiting
        idle_cpu, idle_at = server_cpu(server), time.monotonic()
        time.sleep(5)
        idle = (server_cpu(server) - idle_cpu) / (time.monotonic() - idle_at)
        before, cpu_before, started = counts(str(folder)), server_cpu(server), time.monotonic()
        rng, bot, made = random.Random(30), HeuristicBot(), 0  # noqa: S311 - not a secret
        while time.monotonic() - started < args.seconds:
            if move(games, rng, bot):
                made += 1
            time.sleep(max(0.0, started + made / args.moves - time.monotonic()))
        time.sleep(2)  # the last deliveries
        seconds = time.monotonic() - started
        used = (server_cpu(server) - cpu_before - idle * seconds) * 1000
        after = counts(str(folder))
    finally:
        Path(folder, "stop").write_text("")
        child.join(timeout=30)
        stop_server(server)
    got = {k: after[k] - before[k] for k in after}
    if stream:
        return (
            f"streams: {made} moves, {got['frames']} frames; server CPU {used:.0f} ms over "
            f"idle ({idle * 1000:.1f} ms/s held): {used / max(1, got['frames']):.2f} ms per frame"
        )
    return (
        f"long-polls: {made} moves, {got['answers']} answers carrying {got['events']} events; "
        f"server CPU {used:.0f} ms over idle ({idle * 1000:.1f} ms/s held): "
        f"{used / max(1, got['answers']):.2f} ms per round trip, "
        f"{used / max(1, got['events']):.2f} ms per event delivered"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=400)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--users", type=int, default=100, help="users holding the subscribers")
    parser.add_argument("--moves", type=float, default=20.0, help="moves a second, in all")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--repo", default=None, help="serve this checkout's code instead")
    args = parser.parse_args()
    settings.FB_SCHEDULE_TASKS = False  # the windows' timers: this run passes by hand
    print(f"machine: {machine()}")
    print(
        f"server: gunicorn x1 uvicorn worker ({args.repo or 'this checkout'}), DEBUG off; "
        f"{args.subscribers} spectators over {args.games} games, {args.moves:g} moves/s "
        f"made outside the server, {args.seconds:g} s a phase"
    )
    lobby = Lobby(3, users=args.users + 3 * args.games * 2)
    with tempfile.TemporaryDirectory(prefix="fb-bench-feed-cpu-") as tmp:
        try:
            print(phase(args, lobby, stream=False, tmp=tmp))
            print(phase(args, lobby, stream=True, tmp=tmp))
        finally:
            drop_queue(settings.CELERY_BROKER_URL)


if __name__ == "__main__":
    main()
