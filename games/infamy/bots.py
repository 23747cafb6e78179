"""Bots: a random legal-move bot and a heuristic bot. Both decide from the seat's
observation (``view.observe``: other hands, deck orders and sealed choices hidden, G-12)
and are deterministic given the ``Random`` they are handed; ``decision_rng`` derives one per
decision point from a bot seed, so a stateless server makes the same choice on a retry."""

from __future__ import annotations

from random import Random
from typing import Protocol

from .cards import BOARD, JOBS, WIN_INFAMY, WIN_REPUTATION
from .commands import Bid, ChooseSector, Command, Pass, Resign, ThugResponse, UseFavor
from .content import content_of
from .errors import RuleViolation
from .evolve import evolve
from .flow import can_favor, payable, phase
from .legal import _raw, candidates, legal_sectors
from .rules import decide
from .state import GameState
from .view import observe


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, seat: int, rng: Random) -> Command:
        """The bot's command for an awaited ``seat`` (it reads only ``observe(state, seat)``)."""


def decision_rng(bot_seed: str, state: GameState, seat: int) -> Random:
    """A generator fixed by the bot's seed and the decision point, not by call history."""
    return Random(f"{bot_seed}:{state.round}:{state.steps}:{seat}")


class RandomBot:
    """Any legal command, uniformly; resigns with a small probability."""

    name = "random"

    def __init__(self, resign: float = 0.0) -> None:
        self.resign = resign

    def choose(self, state: GameState, seat: int, rng: Random) -> Command:
        if self.resign and rng.random() < self.resign:
            return Resign()
        return rng.choice(candidates(observe(state, seat), seat))


# --- the heuristic bot's valuation (in "points"; 1 Infamy is about 9) --------------------

_PER_INFAMY = 100 / WIN_INFAMY + 2
_PER_REP = 100 / WIN_REPUTATION + 2
_TOKEN = {"weapon": 4.0, "data": 4.0, "compound": 4.0, "henchman": 5.0, "favor": 6.0}
CONTACT_VALUE = {  # what winning each contact is worth, before bribes
    "c01": 12, "c02": 8, "c03": 8, "c04": 5, "c05": 6, "c06": 8, "c07": 12, "c08": 18,
    "c09": 4, "c10": 3, "c11": 5, "c12": 6, "c13": 4,
}  # fmt: skip


def value(state: GameState, seat: int) -> float:
    """How well ``seat`` stands: progress on its better route, then everything it holds."""
    p = state.players[seat]
    if state.over:
        return 1000.0 if seat in state.winners else -1000.0
    best = max(p.infamy / WIN_INFAMY, max(p.rep) / WIN_REPUTATION)
    v = 100 * best + 2 * p.infamy + 2 * sum(p.rep)
    v += sum(_TOKEN[t] * p.count(t) for t in _TOKEN)
    v += 0.8 * p.available + 0.3 * (p.spent + p.on_contacts) + 5 * len(p.hand)
    return v


def _relative(state: GameState, seat: int) -> float:
    rivals = [value(state, s) for s in state.in_game() if s != seat]
    return value(state, seat) - 0.25 * max(rivals, default=0.0)


def _after(state: GameState, seat: int, command: Command) -> GameState | None:
    try:
        events = decide(state, seat, command)
    except RuleViolation:
        return None
    for event in events:
        state = evolve(state, event)
    return state


def _job_value(state: GameState, seat: int, job_id: str) -> float:
    j = content_of(state).jobs[job_id]
    rep = max(state.players[seat].rep_of(f) for f in j.factions)
    gain = j.infamy * _PER_INFAMY + j.rep * _PER_REP * (1 + rep / 5)
    return gain - sum(_TOKEN[w] * n for w, n in j.requires)


def _space_values(state: GameState, seat: int, sector: int) -> list[float]:
    """What each free space of ``sector`` would give ``seat`` (ignoring other figures)."""
    p = state.players[seat]
    out: list[float] = []
    if f"{sector}/supply" not in state.hazards:
        kind = content_of(state).board[sector].supply
        if kind == "special":
            out.append(min(3, p.spent) * 1.5 if state.day else _PER_INFAMY)
        else:
            out.append(_TOKEN[kind])
    if f"{sector}/hq" not in state.hazards:
        zero = p.rep_of(BOARD[sector].hq) == 0
        out.append(_PER_REP if zero and state.accomplice != seat else 5.0)
    jobs = [_job_value(state, seat, j) for j in state.jobs
            if JOBS[j].sector == sector and payable(state, seat, j)]  # fmt: skip
    if jobs:
        out.append(max(jobs))
    return sorted(out, reverse=True)


class HeuristicBot:
    """Values contacts by a fixed table and bids while they are worth the bribes, picks the
    sector with the best space it can use, and otherwise looks one command ahead."""

    name = "heuristic"

    def choose(self, state: GameState, seat: int, rng: Random) -> Command:
        obs = observe(state, seat)
        step = phase(obs)
        if step == "auction":
            return self._auction(obs, seat, rng)
        if step == "sector":
            return self._sector(obs, seat, rng)
        if step == "thug_response":
            p = obs.players[seat]
            return ThugResponse(p.available >= 3 and (not obs.day or p.available >= 8))
        if step in ("watchdog", "chief_remove"):
            return rng.choice(candidates(obs, seat))
        best: tuple[float, int] | None = None
        choice: Command | None = None
        for i, command in enumerate(_raw(obs, seat)):
            after = _after(obs, seat, command)
            if after is None:
                continue
            score = (_relative(after, seat) + rng.random() * 0.5, -i)
            if best is None or score > best:
                best, choice = score, command
        assert choice is not None, step
        return choice

    def _auction(self, state: GameState, seat: int, rng: Random) -> Command:
        a = state.auction
        assert a is not None
        p = state.players[seat]
        worth = CONTACT_VALUE[a.contact] * (0.8 + 0.4 * rng.random())
        if a.contact == "c01" and max(p.rep) >= 3:
            worth /= 2  # the Accomplice forfeits Reputation this round
        if not any(r == seat for r in state.results):
            worth += 3  # an early placement slot
        left = len(state.track) - a.position  # auctions still to come, this one included
        bribe = (1.5 if state.day else 0.6) * (1 + 0.15 * (left - 1))
        if UseFavor() in _favor_ok(state, seat) and worth > 14:
            return UseFavor()
        high = a.bids[a.high] if a.high is not None else 0
        own = a.bids[seat]
        total = max(1, high + 1, own + 1)
        cost = 1 + total - own
        if cost <= p.available and (total + 1) * bribe <= worth:
            return Bid(total)
        return Pass()

    def _sector(self, state: GameState, seat: int, rng: Random) -> Command:
        scored = []
        for sector in legal_sectors(state, seat):
            spaces = _space_values(state, seat, sector)
            score = (spaces[0] if spaces else 0) + 0.3 * sum(spaces[1:2]) + rng.random() * 3
            scored.append((score, sector, spaces))
        scored.sort(reverse=True)
        first = scored[0][1]
        if state.accomplice != seat:
            return ChooseSector(first)
        spaces = scored[0][2]
        second = scored[1] if len(scored) > 1 else scored[0]
        same = len(spaces) > 1 and spaces[1] >= second[0]
        return ChooseSector(first, first if same else second[1])


def _favor_ok(state: GameState, seat: int) -> list[Command]:
    return [UseFavor()] if can_favor(state, seat) else []


BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "decision_rng", "value"]
