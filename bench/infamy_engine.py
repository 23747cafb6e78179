"""Infamy's pure rules engine: simulator throughput and the time to fold a long game.

    python -m bench.infamy_engine [--games 50]

No database. Prints games/s and events/s of heuristic- and random-bot games (with and
without the invariant checks), and the median time to fold (replay) the longest game
played and a 10,000-event game made of several games' worth of rounds.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

from games.infamy import Pass, decide, evolve, minimal_command, replay, setup_events
from games.infamy.bots import HeuristicBot, RandomBot
from games.infamy.events import Event
from games.infamy.simulate import play_game


def passive_events(length: int) -> list[Event]:
    """A legal game of ``length`` events where every seat plays the minimal default, which
    never completes a job and rarely ends a game (4 seats)."""
    events = list(setup_events(4, seed=f"fold-{length}"))
    state = replay(events)
    while len(events) < length and not state.over:
        seat = state.actor if state.actor is not None else state.in_game()[0]
        command = Pass() if state.step == "scheme" else minimal_command(state, seat)
        if state.step == "sector":
            seat = next(s for s in state.in_game() if state.choices[s] is None)
            command = minimal_command(state, seat)
        for event in decide(state, seat, command):
            events.append(event)
            state = evolve(state, event)
    return events[:length]


def median_ms(fn: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def throughput(kind: str, games: int, *, check: bool) -> tuple[float, float, int]:
    started = time.perf_counter()
    events = longest = 0
    for i in range(games):
        bots = [HeuristicBot() if kind == "heuristic" else RandomBot() for _ in range(4)]
        record = play_game(4, bots, f"bench:{kind}:{i}", check=check)
        events += len(record.events)
        longest = max(longest, len(record.events))
    elapsed = time.perf_counter() - started
    return games / elapsed, events / elapsed, longest


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs")
    for kind in ("heuristic", "random"):
        for check in (True, False):
            gps, eps, longest = throughput(kind, args.games, check=check)
            label = "with invariant checks" if check else "no checks"
            print(f"{kind:9} bots, 4 seats, {label:21}: {gps:6.1f} games/s, {eps:8.0f} events/s"
                  f" (longest game {longest} events)")  # fmt: skip
    record = play_game(4, [HeuristicBot()] * 4, "bench:fold", check=False)
    events = record.events
    print(f"fold a {len(events)}-event heuristic game ({record.state.round} rounds): "
          f"{median_ms(lambda: replay(events), 20):.2f} ms")  # fmt: skip
    long = passive_events(10_000)
    print(f"fold a {len(long)}-event game: {median_ms(lambda: replay(long), 10):.1f} ms")


if __name__ == "__main__":
    main()
