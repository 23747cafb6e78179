"""How a finished game was decided (``games.core.Outcome``), by the same rule that picked
the winners (S-11.3, SR-26, SR-72)."""

from __future__ import annotations

from games.core import Outcome, TieBreak

from .flow import winners_of
from .state import GameState


def outcome(state: GameState) -> Outcome | None:
    if not state.over:
        return None
    seats = state.in_game()
    names = state.names
    if len(seats) == 1 and len(state.players) > 1 and state.news != "w16":
        return Outcome(seats, "last_seat", f"{names[seats[0]]} is the last gang standing.")
    cash, income = state.cash, state.final_income
    totals = tuple((s, cash[s] + income[s]) for s in seats)
    best = max((v for _, v in totals), default=0)
    top = tuple(s for s, v in totals if v == best)
    breaks = [TieBreak("money (cash + final income)", totals, top)]
    if len(top) > 1:
        most = max(cash[s] for s in top)
        breaks.append(TieBreak("cash before final income", tuple((s, cash[s]) for s in top),
                               tuple(s for s in top if cash[s] == most)))  # fmt: skip
    winners = winners_of(seats, cash, income)
    assert winners == state.winners  # noqa: S101 - one rule picks and explains
    who = " and ".join(names[s] for s in winners)
    if len(winners) > 1:
        return Outcome(winners, "shared", f"Prohibition ends: {who} share the win with "
                       f"${best}.", tuple(breaks))  # fmt: skip
    return Outcome(winners, "victory", f"Prohibition ends: {who} wins with ${best} "
                   f"(${cash[winners[0]]} cash, ${income[winners[0]]} final income).",
                   tuple(breaks))  # fmt: skip
