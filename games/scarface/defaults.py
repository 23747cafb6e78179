"""Every step's legal default (S-12.4, SR-59): what a timed-out seat plays under the
``minimal`` policy, and what the minimal bot always plays."""

from __future__ import annotations

from .commands import Choose, Command, EndTurn, PlanCards, ReorgRecruit, ReorgSales
from .jobs import default_steps
from .state import GameState


def minimal_command(state: GameState, seat: int) -> Command:
    step = state.step
    if step == "plan":
        return PlanCards((sorted(state.players[seat].hand)[0],))
    if step == "choose":
        keep, *rest = state.offered
        if state.offered_deck == "jobs":
            return Choose(keep, tuple(rest))
        return Choose(keep, tuple(rest))
    if step == "reorg_sales":
        return ReorgSales(())
    if step == "reorg_recruit":
        p = state.players[seat]
        return ReorgRecruit(default_steps(state, seat, p.recruiter))
    return EndTurn()
