"""Standings: computed from the games' results and the rulings, never stored as a score.

Pure: the service (``tournaments.services``) and the offline verifier
(``tournaments.verify``) call the same functions on the same results, so a published
standing is re-computed, not trusted (docs/tournaments.md, "Points" and "Tie-breaks").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from tournaments.formats import draw

BYE_POINTS: Final = Fraction(1)  # a bye scores as a win

# How a game's result came about (``GameResult.how``)
PLAYED: Final = "played"  # the game's own end: its placement
AWARDED: Final = "awarded"  # a director's award: the named seats win, the rest share last
VOIDED: Final = "voided"  # a director's void: no points to anyone
UNFINISHED: Final = "unfinished"  # still running at its round's deadline: no points
RUNNING: Final = "running"  # its round is still on: not counted yet


@dataclass(frozen=True)
class GameResult:
    """One game of a round: its table, its entrants in seat order, and each seat's place
    (1 best; None: it gives no points, ``how`` says why)."""

    table: str
    entrants: tuple[int, ...]
    places: tuple[int, ...] | None
    how: str
    ruling: int | None = None  # the deciding ruling's id, when a ruling decided it

    def counts(self) -> bool:
        return self.how != RUNNING


@dataclass(frozen=True)
class RoundResults:
    number: int
    games: tuple[GameResult, ...]
    byes: tuple[int, ...]


def places_of(placements: Sequence[Sequence[int]], seats: int) -> tuple[int, ...]:
    """Each seat's place (1 best; a tied group shares its best place) from a finished
    game's ``Game.placements`` (its seats in finishing order, ties grouped)."""
    places = [0] * seats
    ahead = 0
    for group in placements:
        for seat in group:
            places[seat] = ahead + 1
        ahead += len(group)
    return tuple(places)


def placement_points(places: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's points from its place at a table of ``n``: place ``p`` is worth
    ``(n - p) / (n - 1)`` (the winner 1, the last 0, even steps between), and seats tied
    at a place share the places they cover (two seats tied for first at a table of two:
    1/2 each; a win at a table of two is 1)."""
    n = len(places)
    if n < 2:
        return tuple(Fraction(0) for _ in places)
    out: list[Fraction] = []
    for p in places:
        tied = sum(1 for q in places if q == p)
        covered = range(p, p + tied)
        out.append(sum((Fraction(n - q, n - 1) for q in covered), Fraction(0)) / tied)
    return tuple(out)


@dataclass
class Standing:
    entrant: int
    points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    head_to_head: int = 0
    draw_rank: int = 0
    games: int = 0
    byes: int = 0
    rank: int = 0
    opponents: list[list[int]] = field(default_factory=list)  # tablemates, per game

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "points": str(self.points),
            "buchholz": str(self.buchholz),
            "head_to_head": self.head_to_head,
            "draw": self.draw_rank,
            "games": self.games,
            "byes": self.byes,
        }


def standings(entrants: Sequence[int], rounds: Sequence[RoundResults], seed: str) -> list[Standing]:
    """Every entrant's standing after ``rounds``, best first, ranked by points, then
    Buchholz (the mean score of one's tablemates, summed over one's games: the plain
    Buchholz at two seats), then head-to-head among those still tied (tied rivals placed
    behind minus those placed ahead, in games they shared), then the seed's draw."""
    table = {e: Standing(entrant=e) for e in entrants}
    counted: list[GameResult] = []
    for rnd in rounds:
        for e in rnd.byes:
            if e in table:
                table[e].points += BYE_POINTS
                table[e].byes += 1
        for game in rnd.games:
            if not game.counts():
                continue
            counted.append(game)
            points = placement_points(game.places) if game.places is not None else None
            for i, e in enumerate(game.entrants):
                s = table[e]
                s.games += 1
                s.opponents.append([o for o in game.entrants if o != e])
                if points is not None:
                    s.points += points[i]
    for s in table.values():
        s.buchholz = sum(
            (
                sum((table[o].points for o in mates), Fraction(0)) / len(mates)
                for mates in s.opponents
                if mates
            ),
            Fraction(0),
        )
    drawn = {e: i + 1 for i, e in enumerate(draw(entrants, seed))}
    for s in table.values():
        s.draw_rank = drawn[s.entrant]
    groups: dict[tuple[Fraction, Fraction], list[int]] = {}
    for s in table.values():
        groups.setdefault((s.points, s.buchholz), []).append(s.entrant)
    for tied in groups.values():
        if len(tied) > 1:
            _head_to_head(table, set(tied), counted)
    ordered = sorted(
        table.values(), key=lambda s: (-s.points, -s.buchholz, -s.head_to_head, s.draw_rank)
    )
    for i, s in enumerate(ordered):
        s.rank = i + 1
    return ordered


def _head_to_head(
    table: Mapping[int, Standing], tied: set[int], games: Sequence[GameResult]
) -> None:
    for game in games:
        if game.places is None:
            continue
        seats = [(e, p) for e, p in zip(game.entrants, game.places, strict=True) if e in tied]
        for e, p in seats:
            table[e].head_to_head += sum(1 for _, q in seats if q > p) - sum(
                1 for _, q in seats if q < p
            )


def met(rounds: Sequence[RoundResults]) -> dict[int, frozenset[int]]:
    """Whom each entrant has sat at a table with (voided and unfinished games too: they
    were paired)."""
    out: dict[int, set[int]] = {}
    for rnd in rounds:
        for game in rnd.games:
            for e in game.entrants:
                out.setdefault(e, set()).update(o for o in game.entrants if o != e)
    return {e: frozenset(s) for e, s in out.items()}


def had_bye(rounds: Sequence[RoundResults]) -> frozenset[int]:
    return frozenset(e for rnd in rounds for e in rnd.byes)


def standings_json(rows: Sequence[Standing]) -> list[dict[str, Any]]:
    return [s.as_json() for s in rows]
