"""The pure rules engine: simulator throughput and the time to fold long games.

    python -m bench.engine [--games 500]

No database. Prints games/s and events/s of bot games (with and without the invariant
checks), and the time to fold (replay) a 1,000- and a 10,000-event game.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

from games.family_business import PlayCard, decide, evolve, replay, setup_events
from games.family_business.bots import HeuristicBot, RandomBot
from games.family_business.events import Event
from games.family_business.simulate import play_game


def passive_events(length: int) -> list[Event]:
    """A legal game of ``length`` events where every seat discards (it never ends)."""
    events = list(setup_events(4, seed=f"fold-{length}"))
    state = replay(events)
    while len(events) < length:
        seat = state.turn_seat
        for event in decide(state, seat, PlayCard(state.players[seat].hand[0], discard=True)):
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()
    print(
        f"machine: {platform.node()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    for check in (True, False):
        events = 0
        started = time.perf_counter()
        for i in range(args.games):
            players = 2 + i % 5
            bots = [HeuristicBot() if s % 2 else RandomBot() for s in range(players)]
            events += len(play_game(players, bots, f"bench:{i}", check=check).events)
        elapsed = time.perf_counter() - started
        label = "with invariant checks" if check else "without checks"
        print(
            f"simulator, {label}: {args.games / elapsed:.1f} games/s, "
            f"{events / elapsed:.0f} events/s ({events / args.games:.0f} events a game)"
        )
    for length in (1_000, 10_000):
        game = passive_events(length)
        ms = median_ms(lambda g=game: replay(g), runs=5 if length >= 10_000 else 20)
        print(f"fold a {length:,}-event game: {ms:.1f} ms ({length / ms * 1000:,.0f} events/s)")


if __name__ == "__main__":
    main()
