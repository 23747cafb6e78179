"""Play many bot games and check the invariants after every event.

    python -m games.infamy.simulate --games 1000 --players 3-4 --seed 0 --bots heuristic

Prints games/s, rounds per game (median), wins by route (15 Infamy / 5 Reputation) and by
seat position, and draws; exits 1 if any invariant was violated or a game did not end.
The acceptance figures for the stand-in data (issue 17) are checked with ``--acceptance``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random

from .bots import BOTS, Bot, RandomBot
from .cards import WIN_INFAMY, WIN_REPUTATION
from .commands import Command, Timeout
from .events import Event
from .evolve import evolve, replay
from .invariants import violations
from .rules import SYSTEM, awaiting, decide
from .setup import setup_events
from .state import GameState

STEP_LIMIT = 20_000  # far beyond any real game; a stuck game is a bug


@dataclass
class GameRecord:
    seed: str
    players: int
    bots: tuple[str, ...]
    events: list[Event]
    state: GameState
    violations: list[str] = field(default_factory=list)
    commands: int = 0

    @property
    def routes(self) -> list[str]:
        """How each winner won: "infamy", "reputation" or "last_seat"."""
        out = []
        for seat in self.state.winners:
            p = self.state.players[seat]
            if p.infamy >= WIN_INFAMY and not (
                max(p.rep) >= WIN_REPUTATION and p.infamy == WIN_INFAMY
            ):
                out.append("infamy")
            elif max(p.rep) >= WIN_REPUTATION:
                out.append("reputation")
            else:
                out.append("last_seat")
        return out


def play_game(
    players: int,
    bots: Sequence[Bot],
    seed: str,
    *,
    check: bool = True,
    rng: Random | None = None,
    timeouts: float = 0.0,
) -> GameRecord:
    """One full game between ``bots`` (one per seat). In the sealed step the seats commit in
    a random order; with ``timeouts`` some steps are left to their deadline and closed by
    the system's ``Timeout`` (the minimal default, I-11.4)."""
    rng = rng or Random(seed)
    events = list(setup_events(players, {"turn_seconds": 30}, seed=seed))
    state = replay(events)
    record = GameRecord(seed, players, tuple(b.name for b in bots), events, state)
    now = 0
    while not state.over:
        record.commands += 1
        if record.commands > STEP_LIMIT:
            record.violations.append("the game did not end")
            break
        now += 1000
        waiting = awaiting(state)
        seat: int | None
        command: Command
        if timeouts and state.deadline is not None and rng.random() < timeouts:
            seat, command = SYSTEM, Timeout()
            now = max(now, state.deadline)
        else:
            seat = rng.choice(waiting)
            command = bots[seat].choose(state, seat, rng)
        new = decide(state, seat, command, now=now)
        for event in new:
            state = evolve(state, event)
            if check:
                record.violations.extend(violations(state, settled=False))
        if check:
            record.violations.extend(violations(state))
        events.extend(new)
    record.state = state
    if check and replay(events) != state:
        record.violations.append("replaying the events gives another state")
    return record


def _player_counts(spec: str) -> list[int]:
    low, _, high = spec.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", default="3-4", help="a count or a range such as 3-4")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--bots", default="heuristic", help=f"seated in turn: {', '.join(BOTS)}")
    parser.add_argument("--resign", type=float, default=0.0, help="random bots' resign chance")
    parser.add_argument("--timeouts", type=float, default=0.0, help="chance a step times out")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    parser.add_argument("--acceptance", action="store_true", help="check issue 17's targets")
    args = parser.parse_args(argv)
    counts = _player_counts(args.players)
    names = args.bots.split(",")
    if min(counts) < 3 or max(counts) > 4 or any(n not in BOTS for n in names):
        parser.error("players must lie in 3-4 and bots be among: " + ", ".join(BOTS))
    rounds: list[int] = []
    routes: Counter[str] = Counter()
    by_seat: Counter[int] = Counter()
    seats_played: Counter[int] = Counter()
    draws = total_events = 0
    bad: list[str] = []
    started = time.perf_counter()
    for i in range(args.games):
        n = counts[i % len(counts)]
        bots: list[Bot] = []
        for s in range(n):
            name = names[s % len(names)]
            bots.append(RandomBot(resign=args.resign) if name == "random" else BOTS[name]())
        record = play_game(n, bots, f"{args.seed}:{i}", check=not args.no_check,
                           timeouts=args.timeouts)  # fmt: skip
        total_events += len(record.events)
        bad.extend(f"game {i}: {v}" for v in record.violations)
        rounds.append(record.state.round)
        routes.update(record.routes)
        if len(record.state.winners) > 1:
            draws += 1
        first = record.events[0]
        for seat in range(n):
            seats_played[seat] += 1
        for seat in record.state.winners:
            by_seat[seat] += 1
        del first
    elapsed = time.perf_counter() - started
    wins = sum(routes.values())
    print(
        f"{args.games} games in {elapsed:.1f}s: {args.games / elapsed:.1f} games/s, "
        f"{total_events / elapsed:.0f} events/s, {total_events / args.games:.0f} events/game"
    )
    print(f"rounds: median {statistics.median(rounds)}, min {min(rounds)}, max {max(rounds)}")
    for route in ("infamy", "reputation", "last_seat"):
        print(f"wins by {route}: {routes[route]} ({100 * routes[route] / max(wins, 1):.1f}%)")
    for seat in sorted(seats_played):
        share = 100 * by_seat[seat] / max(wins, 1)
        print(f"seat {seat}: {by_seat[seat]} wins ({share:.1f}% of wins, "
              f"{seats_played[seat]} games)")  # fmt: skip
    print(f"shared wins (draws): {draws}")
    if bad:
        print(f"{len(bad)} invariant violations, e.g.:", *bad[:10], sep="\n  ")
        return 1
    if args.acceptance:
        failed = []
        median = statistics.median(rounds)
        if not 12 <= median <= 18:
            failed.append(f"median rounds {median} outside 12-18")
        for route in ("infamy", "reputation"):
            if routes[route] < 0.25 * wins:
                failed.append(f"{route} wins {routes[route]} below 25% of {wins}")
        for seat, n in by_seat.items():
            if n > 0.35 * wins:
                failed.append(f"seat {seat} wins {n}, above 35% of {wins}")
        if failed:
            print("acceptance FAILED:", *failed, sep="\n  ")
            return 1
        print("acceptance: met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
