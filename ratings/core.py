"""The rating model, pure: no Django, no I/O, no clock (docs/ratings.md).

Every game is rated with openskill's Weng-Lin Bayesian approximation, Plackett-Luce model:
a player's skill in one game is a normal belief, ``mu`` (the estimate) and ``sigma`` (the
uncertainty), and each finished game's placements move the beliefs of everyone in it. The
ratings of a game are a fold over its finished games in the order they ended (``replay``),
so anything computed from the same results in the same order gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from openskill.models import PlackettLuce

# openskill's defaults, written out because the numbers a record gives depend on them: a
# new player is mu 25, sigma 25/3; beta (how far skill shows in one game) 25/6; tau (how
# much a belief loosens before each game, so ratings keep moving) 25/300.
MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = MU / 300
# The rating people read: the conservative estimate mu - 3 sigma (the model is about 99%
# sure the skill is above it), scaled and shifted so a newcomer shows 1000 and it grows.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True)
class Rating:
    """One identity's belief in one game, after ``games`` rated games."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


def display(mu: float, sigma: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Result:
    """A finished game as the rating reads it: who sat in each seat (an identity: a
    player, or a bot kind) and the seats' placements, best first, ties sharing a group."""

    game_id: str
    seats: tuple[str, ...]
    placements: tuple[tuple[int, ...], ...]


class NotRated(ValueError):
    """A result that says nothing about anyone's skill (one identity in every seat) or
    that does not rank its seats (a seat missing or placed twice)."""


def ranks(result: Result) -> tuple[int, ...]:
    """Each seat's place (1 = best; tied seats share theirs), or ``NotRated``."""
    place: dict[int, int] = {}
    for index, group in enumerate(result.placements, start=1):
        for seat in group:
            if seat in place or not 0 <= seat < len(result.seats):
                raise NotRated(f"seat {seat} is placed twice or is no seat of the game")
            place[seat] = index
    if len(place) != len(result.seats):
        raise NotRated("a seat is not placed")
    return tuple(place[seat] for seat in range(len(result.seats)))


def rate(ratings: Mapping[str, Rating], result: Result) -> dict[str, Rating]:
    """The new ratings of the identities in ``result`` (the others are unchanged), from
    their ``ratings`` before it (a newcomer: ``Rating()``).

    Every seat is its own team of one. An identity in several seats of the same game (two
    bots of the same kind) is rated at each from its one rating before the game, and its
    new belief is the mean of those seats' (a game between copies of one bot says nothing
    about it beyond what its other opponents do); a game with one identity only is
    ``NotRated``."""
    places = ranks(result)
    if len(set(result.seats)) < 2:
        raise NotRated("nobody to compare with")
    before = [ratings.get(who, Rating()) for who in result.seats]
    teams = [[_MODEL.create_rating([r.mu, r.sigma])] for r in before]
    after = _MODEL.rate(teams, ranks=[float(p) for p in places])
    seats_of: dict[str, list[int]] = {}
    for seat, who in enumerate(result.seats):
        seats_of.setdefault(who, []).append(seat)
    updated: dict[str, Rating] = {}
    for who, seats in seats_of.items():
        mu = fmean(after[s][0].mu for s in seats)
        sigma = fmean(after[s][0].sigma for s in seats)
        updated[who] = Rating(mu, sigma, before[seats[0]].games + 1)
    return updated


@dataclass(frozen=True)
class Rated:
    """One result folded in: every identity's rating before and after it."""

    result: Result
    before: Mapping[str, Rating]
    after: Mapping[str, Rating]


def replay(results: Iterable[Result], start: Mapping[str, Rating] | None = None) -> Iterator[Rated]:
    """Fold ``results`` (one game's, in the order they ended) from ``start`` (default:
    nobody rated yet); results that say nothing (``NotRated``) are skipped."""
    current: dict[str, Rating] = dict(start or {})
    for result in results:
        try:
            after = rate(current, result)
        except NotRated:
            continue
        before = {who: current.get(who, Rating()) for who in after}
        current.update(after)
        yield Rated(result, before, after)


def final(results: Sequence[Result]) -> dict[str, Rating]:
    """Everyone's rating after ``results``."""
    current: dict[str, Rating] = {}
    for rated in replay(results):
        current.update(rated.after)
    return current
