"""The simulator (section 7): bots at every seat play whole games; the invariants of 3.7
are checked after every event, every bot command must be accepted, and each game is
replayed from its events to the same state. ``python -m games.scarface.simulate N``
prints the figures of docs/rules-scarface.md."""

from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass, field

from .bots import bot_for
from .content import GANGS
from .evolve import evolve, replay
from .invariants import broken
from .rng import shuffled
from .rules import awaiting, decide
from .setup import setup_events
from .state import GameState

MAX_COMMANDS = 2000


@dataclass
class Result:
    seats: int
    commands: int
    rounds: int
    turns: int
    reorgs: tuple[int, ...]
    winners: tuple[int, ...]
    gangs: tuple[str, ...]
    first_seat: int
    ended_by_news: bool
    crime_raids: int
    totals: tuple[int, ...]
    final_income: tuple[int, ...]
    violations: list[str] = field(default_factory=list)


def play(seats: int, seed: str, kinds: tuple[str, ...] | None = None, *, check: bool = True
         ) -> Result:  # fmt: skip
    gangs = shuffled(GANGS, seed, "sim:gangs")[:seats]
    names = [f"bot{i}" for i in range(seats)]
    events = list(setup_events(names, {"gangs": list(gangs)}, seed))
    state = GameState()
    violations: list[str] = []
    for e in events:
        state = evolve(state, e)
        if check:
            violations += broken(state)
    bots = [bot_for((kinds or ("heuristic",) * seats)[i]) for i in range(seats)]
    commands = 0
    while not state.over and commands < MAX_COMMANDS:
        seat = awaiting(state)[0]
        command = bots[seat].choose(state, seat)
        commands += 1
        try:
            new = decide(state, seat, command)
        except Exception as exc:  # noqa: BLE001 - a refused bot command is a finding (T2)
            violations.append(f"refused {command}: {exc!r}")
            break
        for e in new:
            state = evolve(state, e)
            if check:
                violations += [f"after {type(e).__name__}: {v}" for v in broken(state)]
        events += new
    if check and replay(events) != state:
        violations.append("replay differs")
    totals = tuple(c + f for c, f in zip(state.cash, state.final_income, strict=False))
    return Result(
        seats=seats, commands=commands, rounds=(state.turn + seats - 1) // seats,
        turns=state.turn, reorgs=tuple(p.reorgs for p in state.players),
        winners=state.winners, gangs=tuple(gangs), first_seat=state.first_seat,
        ended_by_news=state.news == "w16", crime_raids=state.crime_raids,
        totals=totals, final_income=state.final_income, violations=violations,
    )  # fmt: skip


def summary(results: list[Result]) -> dict[str, object]:
    n = results[0].seats
    wins: dict[str, list[int]] = {g: [0, 0] for g in GANGS}
    positions = [0] * n
    for r in results:
        for seat, gang in enumerate(r.gangs):
            wins[gang][1] += 1
            if seat in r.winners:
                wins[gang][0] += 1
                positions[(seat - r.first_seat) % n] += 1
    winning = sorted(max(r.totals) for r in results if r.totals)
    # T7: the winner's (the best total's) final income below half its total
    low_income = sum(
        2 * r.final_income[r.totals.index(max(r.totals))] < max(r.totals)
        for r in results
        if r.totals
    )
    reorgs = [x for r in results for x in r.reorgs]
    return {
        "games": len(results),
        "violations": sum(len(r.violations) for r in results),
        "ended_by_news": sum(r.ended_by_news for r in results),
        "max_commands": max(r.commands for r in results),
        "rounds_median": statistics.median(r.rounds for r in results),
        "rounds_max": max(r.rounds for r in results),
        "reorgs_median": statistics.median(reorgs),
        "reorgs_4_to_6": sum(4 <= x <= 6 for x in reorgs) / len(reorgs),
        "games_all_4_to_6": sum(all(4 <= x <= 6 for x in r.reorgs) for r in results) / len(results),
        "shared": sum(len(r.winners) > 1 for r in results) / len(results),
        "crime_raid_games": sum(r.crime_raids > 0 for r in results) / len(results),
        "winning_total_median": statistics.median(winning) if winning else 0,
        "winning_total_5_95": [winning[len(winning) // 20], winning[-1 - len(winning) // 20]]
        if winning
        else [],
        "winner_income_below_half": round(low_income / len(results), 3),
        "gang_win_rate": {g: round(w / t, 3) for g, (w, t) in wins.items() if t},
        "position_win_rate": [round(k / len(results), 3) for k in positions],
    }


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 100
    kind = argv[2] if len(argv) > 2 else "heuristic"
    counts = [int(a) for a in argv[3:]] or [2, 3, 4]
    for seats in counts:
        results = [play(seats, f"sim-{seats}-{k}", (kind,) * seats) for k in range(games)]
        print(seats, summary(results), flush=True)
        for r in results:
            for v in r.violations[:3]:
                print("  ", v)


if __name__ == "__main__":
    main(sys.argv)
