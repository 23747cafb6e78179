"""Play many bot games and check the invariants after every event.

    python -m games.family_business.simulate --games 10000 --players 2-6 --seed 1 \\
        --bots random,heuristic [--advanced]

Prints games/s, events/s, events per game, winners by seat and how often each card kind
was played (with ``--advanced``: how often each ability was assigned and used); exits 1 if
any invariant was violated.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random

from .abilities import shielded
from .bots import BOTS, Bot, RandomBot
from .cards import ABILITY, ABILITY_KINDS, CARD_KIND, KINDS, Kind
from .commands import CloseWindow, Command, PlayCard
from .events import (
    AbilityAssigned,
    AbilityUsed,
    ButcherUsed,
    CardPlayed,
    CounterPlayed,
    DiscardTaken,
    Event,
    PlayerResigned,
    WindowClosed,
)
from .evolve import evolve, replay
from .invariants import violations
from .rules import SYSTEM, decide
from .setup import Options, setup_events
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
    ability_uses: Counter[str] = field(default_factory=Counter)


def _ability_uses(
    state: GameState, seat: int | None, command: Command, new: Sequence[Event]
) -> list[str]:
    """Which abilities acted in one command (advanced rules)."""
    used: list[str] = []
    if isinstance(command, PlayCard) and not command.discard and seat is not None:
        kind = CARD_KIND[command.card]
        if kind in ABILITY.doppelganger_shields_from and any(
            shielded(state, m, kind) for m in state.mobsters_in_play() if state.owner(m) != seat
        ):
            used.append(Kind.DOPPELGANGER.value)  # a CONTRACT was played; it could not reach it
    for e in new:
        if isinstance(e, AbilityUsed):
            used.append(e.ability)
        elif isinstance(e, ButcherUsed):
            used.append(Kind.BUTCHER.value)
        elif isinstance(e, DiscardTaken):
            used.append(Kind.CRIME_SCENE_CLEANER.value)
    return used


def play_game(
    players: int,
    bots: Sequence[Bot],
    seed: str,
    *,
    check: bool = True,
    rng: Random | None = None,
    advanced: bool = False,
) -> GameRecord:
    """One full game between ``bots`` (one per seat). Windows are answered in a random order;
    a window nobody answers is closed by the system at its deadline (so is a pending
    decision of the advanced rules)."""
    rng = rng or Random(seed)
    options = Options(advanced=True) if advanced else None
    events = list(setup_events(players, options, seed=seed))
    state = replay(events)
    record = GameRecord(seed, players, tuple(b.name for b in bots), events, state)
    now = 0
    while not state.over:
        record.commands += 1
        if record.commands > STEP_LIMIT:
            record.violations.append("the game did not end")
            break
        now += 1000
        seat: int | None
        if state.window is not None:
            waiting = list(state.window.waiting_on)
            rng.shuffle(waiting)
            for seat in waiting:
                command = bots[seat].choose(state, seat, rng)
                if command is not None:
                    break
            else:
                seat, command = SYSTEM, CloseWindow(state.window.id)
                now = max(now, state.window.deadline)
        else:
            seat = state.turn_seat
            command = bots[seat].choose(state, seat, rng)
            assert command is not None
        new = decide(state, seat, command, now=now)
        if advanced:
            record.ability_uses.update(_ability_uses(state, seat, command, new))
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


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / max(time.perf_counter() - started, 1e-9)
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games ({rate:.0f}/s)"
    )
    sys.stderr.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", default="2-6", help="a count or a range such as 2-6")
    parser.add_argument("--seed", default="0")
    parser.add_argument(
        "--bots", default="random,heuristic", help=f"bots seated in turn, from: {', '.join(BOTS)}"
    )
    parser.add_argument(
        "--resign", type=float, default=0.001, help="chance a random bot resigns at a decision"
    )
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    parser.add_argument(
        "--advanced", action="store_true", help="play with the advanced rules (ability cards)"
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar (it is shown only on a terminal anyway)",
    )
    args = parser.parse_args(argv)

    counts = _player_counts(args.players)
    names = args.bots.split(",")
    if not counts or min(counts) < 2 or max(counts) > 6 or any(n not in BOTS for n in names):
        parser.error("players must lie in 2-6 and bots be among: " + ", ".join(BOTS))
    played: Counter[str] = Counter()
    discarded: Counter[str] = Counter()
    countered: Counter[str] = Counter()
    closes: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    wins_by_bot: Counter[str] = Counter()
    assigned: Counter[str] = Counter()
    ability_uses: Counter[str] = Counter()
    total_events = resigned = draws = 0
    bad: list[str] = []
    show_progress = not args.quiet and sys.stderr.isatty()
    started = time.perf_counter()
    for i in range(args.games):
        n = counts[i % len(counts)]
        bots: list[Bot] = []
        for s in range(n):
            name = names[s % len(names)]
            bots.append(RandomBot(resign=args.resign) if name == "random" else BOTS[name]())
        record = play_game(
            n, bots, f"{args.seed}:{i}", check=not args.no_check, advanced=args.advanced
        )
        total_events += len(record.events)
        ability_uses.update(record.ability_uses)
        bad.extend(f"game {i}: {v}" for v in record.violations)
        for e in record.events:
            if isinstance(e, CardPlayed):
                (discarded if e.discard else played)[e.kind] += 1
            elif isinstance(e, CounterPlayed):
                countered[e.kind] += 1
            elif isinstance(e, WindowClosed):
                closes[e.reason] += 1
            elif isinstance(e, PlayerResigned):
                resigned += 1
            elif isinstance(e, AbilityAssigned):
                assigned[e.kind] += 1
        if len(record.state.winners) != 1:
            draws += 1
        for w in record.state.winners:
            winners[f"{n}p seat {w}"] += 1
            wins_by_bot[record.bots[w]] += 1
        if show_progress and (i + 1) % max(1, args.games // 100) == 0:
            _progress(i + 1, args.games, started)
    elapsed = time.perf_counter() - started
    if show_progress:
        sys.stderr.write("\n")

    rules = ", advanced rules" if args.advanced else ""
    print(
        f"games: {args.games} ({args.players} players, bots {args.bots}, seed {args.seed}{rules})"
    )
    print(
        f"time: {elapsed:.2f} s   games/s: {args.games / elapsed:.1f}   "
        f"events/s: {total_events / elapsed:.0f}"
    )
    print(
        f"events per game: {total_events / max(args.games, 1):.1f}   draws: {draws}   "
        f"resignations: {resigned}"
    )
    print("wins by bot: " + ", ".join(f"{k} {v}" for k, v in sorted(wins_by_bot.items())))
    print("winners by seat: " + ", ".join(f"{k}: {v}" for k, v in sorted(winners.items())))
    print("windows closed: " + ", ".join(f"{k} {v}" for k, v in sorted(closes.items())))
    print(f"{'card kind':<22}{'played':>8}{'discarded':>11}{'countered':>11}")
    for info in KINDS:
        print(
            f"{info.kind.value:<22}{played[info.kind]:>8}{discarded[info.kind]:>11}"
            f"{countered[info.kind]:>11}"
        )
    unplayed = [i.kind.value for i in KINDS if not played[i.kind] and not countered[i.kind]]
    if unplayed:
        print("never played for effect: " + ", ".join(unplayed))
    if args.advanced:
        print(f"{'ability':<22}{'assigned':>9}{'used':>8}")
        for info in ABILITY_KINDS:
            print(f"{info.kind.value:<22}{assigned[info.kind]:>9}{ability_uses[info.kind]:>8}")
        unused = [i.kind.value for i in ABILITY_KINDS if not ability_uses[i.kind]]
        if unused:
            print("abilities never used: " + ", ".join(unused))
    print(f"invariant violations: {len(bad)}")
    for line in bad[:20]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
