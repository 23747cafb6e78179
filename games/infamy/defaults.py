"""The minimal default of every step (I-11.4, 3.8.6-7): what the system plays for a seat
whose time ran out under the ``minimal`` timeout policy."""

from __future__ import annotations

from .cards import (
    BOARD,
    FACTIONS,
    INFORMANT,
    JOBS,
    LIAISON,
    PEDDLER,
    RESOURCES,
    SABOTEUR,
    SECTOR_CHIEF,
    THUG,
)
from .commands import (
    ChooseSector,
    Command,
    Discard,
    Forgo,
    MoveWatchdog,
    Pass,
    Place,
    RemoveWatchdog,
    Reward,
    ThugResponse,
)
from .flow import legal_spaces, may_forgo, payable, pending_figures, phase
from .legal import _job_variants, legal_sectors
from .state import GameState


def _first_deck(state: GameState) -> str:
    return next((f for f in FACTIONS if state.can_draw(f)), FACTIONS[0])


def _fewest(state: GameState, seat: int) -> str:
    p = state.players[seat]
    held = [r for r in RESOURCES if state.supply_of(r)] or list(RESOURCES)
    return min(held, key=lambda r: (p.count(r), RESOURCES.index(r)))


def minimal_command(state: GameState, seat: int) -> Command:
    """I-11.4's default for ``seat`` in the current step (the seat must be awaited)."""
    step = phase(state)
    p = state.players[seat]
    if step == "watchdog":
        source = min(state.watchdogs)
        return MoveWatchdog(source, min(s for s in BOARD if s != source))
    if step == "auction":
        return Pass()
    if step == "reward":
        contact = state.track[len(state.results) - 1]
        if contact == LIAISON:
            return Reward(choice="infamy")
        if contact == PEDDLER:
            return Reward(resource=_fewest(state, seat))
        if contact == INFORMANT:
            return Reward(deck=_first_deck(state))
        if contact == SECTOR_CHIEF:
            return Reward(sector=min(BOARD))
        assert contact in (SABOTEUR, THUG), contact
        return Reward()
    if step in ("discard", "scheme_discard"):
        return Discard(p.hand[-1])  # the most recently drawn card
    if step == "thug_response":
        return ThugResponse(False)
    if step == "sector":
        lowest = min(legal_sectors(state, seat))
        return ChooseSector(lowest, lowest if state.accomplice == seat else None)
    if step == "place":
        return _placement(state, seat)
    if step == "scheme":
        return Pass()
    assert step == "chief_remove", step
    return RemoveWatchdog(min(state.watchdogs))


def _placement(state: GameState, seat: int) -> Command:
    """Own figure first; the first legal of supply, HQ, job (lowest job id; its Reputation
    to the listed faction with the least; a reward's first option). Smuggler, Day: place
    normally, forgo only when nothing can be placed."""
    p = state.players[seat]
    for figure in pending_figures(state, seat):  # "own" comes first
        spaces = legal_spaces(state, seat, figure)
        for kind in ("supply", "hq", "job"):
            if not any(s.endswith(kind) for s in spaces):
                continue
            if kind != "job":
                return Place(figure, kind)
            sector = int(spaces[-1][0])
            job = min(j for j in state.jobs if JOBS[j].sector == sector and payable(state, seat, j))
            faction = min(JOBS[job].factions, key=lambda f: (p.rep_of(f), FACTIONS.index(f)))
            choices = _job_variants(state, job)[0]
            if JOBS[job].reward == "sabotage":
                choices = {"sabotage": None}
            return Place(figure, "job", job, faction, choices)
    figure = pending_figures(state, seat)[0]
    assert may_forgo(state, seat)
    return Forgo(figure, _fewest(state, seat), _first_deck(state))
