"""The command path in process: ``game_command_execute`` for Family Business games,
without HTTP, timers or bots (what a command costs the service itself).

    python -m bench.command_path [--games 10] [--commands 300] [--rounds 3]

Seats are humans (each its own user); the awaited seat plays what the heuristic bot would
choose. Reports per round the mean and p50/p95 of a command's time, and the median over
rounds. Uses only names that exist before and after issue 15, so the same script measures
both (docs/benchmarks.md, "Command path before and after issue 15").
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid

from bench._setup import machine, setup

setup()

from django.conf import settings  # noqa: E402

from games.family_business.bots import HeuristicBot  # noqa: E402
from games.family_business.codec import encode_command  # noqa: E402
from games.lobby import seat_join, table_create, table_start  # noqa: E402
from games.service import game_command_execute, game_load  # noqa: E402
from tests.factories import UserFactory  # noqa: E402
from tests.windows import run_out, to_answer  # noqa: E402


def new_game() -> uuid.UUID:
    table = table_create(created_by=None, seats=3, reaction_seconds=300)
    for _ in range(3):
        seat_join(table_id=table.id, user=UserFactory())
    table_start(table_id=table.id)
    return table.id


def one_round(games: int, commands: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """Each command's wall time and this process's CPU time for it (ms): the CPU time
    is what the service's own code costs, less disturbed by other load on the machine
    (PostgreSQL's work is in its own processes)."""
    ids = [new_game() for _ in range(games)]
    times: list[float] = []
    cpu: list[float] = []
    bot = HeuristicBot()
    while len(times) < commands:
        game_id = rng.choice(ids)
        loaded = game_load(game_id=game_id)
        if loaded.state.over:
            ids.remove(game_id)
            ids.append(new_game())
            continue
        if run_out(game_id, loaded.state):
            continue  # every seat's pass was sealed (automatic): the window ran its time
        seat = to_answer(game_id, loaded.state)[0]
        choice = bot.choose(loaded.state, seat, rng)
        if choice is None:
            continue
        command = encode_command(choice)
        started, started_cpu = time.perf_counter(), time.process_time()
        game_command_execute(
            game_id=game_id, seat=seat, actor=f"user:{seat}", command=command,
            command_id=uuid.uuid4(),
        )  # fmt: skip
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    settings.FB_BOTS_INLINE = False
    settings.FB_SCHEDULE_TASKS = False
    print(machine())
    rng = random.Random(15)  # noqa: S311 - which game moves next, not a secret
    means, cpu_means = [], []
    for number in range(1, args.rounds + 1):
        wall, cpu = one_round(args.games, args.commands, rng)
        times = sorted(wall)
        means.append(statistics.fmean(times))
        cpu_means.append(statistics.fmean(cpu))
        p50, p95 = times[len(times) // 2], times[int(len(times) * 0.95)]
        print(
            f"round {number}: {len(times)} commands, wall mean {means[-1]:.2f} ms, "
            f"p50 {p50:.2f} ms, p95 {p95:.2f} ms; CPU mean {cpu_means[-1]:.2f} ms"
        )
    print(
        f"median of the rounds' means: wall {statistics.median(means):.2f} ms, "
        f"CPU {statistics.median(cpu_means):.2f} ms a command"
    )


if __name__ == "__main__":
    main()
