"""Who sits where in a round: round-robin and Swiss pairings for two-seat games, and the
Swiss-style seating of games for 3 to 6 at balanced tables (docs/tournaments.md).

Pure: no Django, no I/O, no clock, no global random. Every choice that is not fixed by
the standings is drawn from the tournament's seed (``games.rng``, labelled by round and
table), so the verifier (``tournaments.verify``) re-derives every seating from the seed
and the standings before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from games.rng import shuffled

SWISS: Final = "swiss"
ROUND_ROBIN: Final = "round_robin"
FORMATS: Final = (SWISS, ROUND_ROBIN)

# How many swap passes the Swiss-style seating tries to take repeated opponents apart:
# each pass strictly lowers the count of repeated pairs, so this only bounds the work.
SWAP_PASSES: Final = 50
# Backtracking two-seat Swiss pairing gives up looking for a pairing with no repeat after
# this many steps and pairs by standing, repeats allowed (large events with many rounds).
PAIRING_STEPS: Final = 20_000


@dataclass(frozen=True)
class Seating:
    """One round's seating: each table's entrants in seat order (seat 0 first) and the
    entrants who sit out with a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]

    def as_json(self) -> dict[str, list[list[int]] | list[int]]:
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes)}


class SeatingError(ValueError):
    """Too few entrants for one table of the tournament's size."""


def table_sizes(players: int, low: int, high: int) -> tuple[tuple[int, ...], int]:
    """The sizes of the round's tables (largest first) and the number of byes: the fewest
    byes that let every table hold ``low`` to ``high`` players, then the fewest tables,
    their sizes differing by one at most (13 players at 2 to 6 seats: 5, 4, 4)."""
    if not 1 <= low <= high:
        raise ValueError("a table holds low to high players, 1 <= low <= high")
    for byes in range(players + 1):
        seated = players - byes
        if seated < low:
            break
        tables = -(-seated // high)  # ceil
        if tables * low <= seated:
            small, extra = divmod(seated, tables)
            return tuple([small + 1] * extra + [small] * (tables - extra)), byes
    raise SeatingError(f"{players} entrants cannot fill one table of {low} to {high}")


def bye_takers(order: Sequence[int], count: int, had_bye: frozenset[int]) -> tuple[int, ...]:
    """Who sits out: the lowest-standing entrants who have not had a bye yet (then, when
    everyone has, the lowest-standing)."""
    if count == 0:
        return ()
    fresh = [e for e in reversed(order) if e not in had_bye]
    rest = [e for e in reversed(order) if e in had_bye]
    return tuple((fresh + rest)[:count])


def _repeats(table: Sequence[int], met: Mapping[int, frozenset[int]]) -> int:
    return sum(1 for a, b in combinations(table, 2) if b in met.get(a, frozenset()))


def group_by_standing(
    order: Sequence[int], sizes: Sequence[int], met: Mapping[int, frozenset[int]]
) -> list[list[int]]:
    """Entrants best first, cut into tables of ``sizes`` in that order (similar standing
    together), then neighbouring tables swap players while a swap strictly lowers the
    number of repeated pairs (first such swap in a fixed order: deterministic)."""
    tables: list[list[int]] = []
    at = 0
    for size in sizes:
        tables.append(list(order[at : at + size]))
        at += size
    for _ in range(SWAP_PASSES):
        if not _one_swap(tables, met):
            break
    return tables


def _one_swap(tables: list[list[int]], met: Mapping[int, frozenset[int]]) -> bool:
    for t in range(len(tables) - 1):
        upper, lower = tables[t], tables[t + 1]
        before = _repeats(upper, met) + _repeats(lower, met)
        if before == 0:
            continue
        # the lowest of the upper table first, the highest of the lower: the closest in
        # standing are tried first
        for i in reversed(range(len(upper))):
            for j in range(len(lower)):
                a, b = upper[i], lower[j]
                new_upper = [*upper[:i], b, *upper[i + 1 :]]
                new_lower = [*lower[:j], a, *lower[j + 1 :]]
                if _repeats(new_upper, met) + _repeats(new_lower, met) < before:
                    tables[t], tables[t + 1] = new_upper, new_lower
                    return True
    return False


def pair_two_seat(order: Sequence[int], met: Mapping[int, frozenset[int]]) -> list[list[int]]:
    """Swiss pairing: the best unpaired entrant meets the best next one it has not met
    (backtracking when the rest cannot then be paired without a repeat); when no pairing
    avoids every repeat, pairs by standing (1-2, 3-4, ...)."""
    steps = [0]

    def solve(left: list[int]) -> list[list[int]] | None:
        if not left:
            return []
        steps[0] += 1
        if steps[0] > PAIRING_STEPS:
            return None
        first, rest = left[0], left[1:]
        for k, other in enumerate(rest):
            if other in met.get(first, frozenset()):
                continue
            tail = solve(rest[:k] + rest[k + 1 :])
            if tail is not None:
                return [[first, other], *tail]
        return None

    pairs = solve(list(order))
    if pairs is None:
        pairs = [list(order[i : i + 2]) for i in range(0, len(order), 2)]
    return pairs


def round_robin_pairs(entrants: Sequence[int], round_no: int) -> tuple[list[list[int]], list[int]]:
    """The circle method over ``entrants`` in their drawn order: round ``round_no`` (from 1)
    of ``n - 1`` rounds (``n`` for an odd count, one bye a round). Returns the pairs and
    the byes."""
    players: list[int | None] = list(entrants)
    if len(players) % 2:
        players.append(None)  # whoever meets it has the bye
    n = len(players)
    turn = (round_no - 1) % (n - 1)
    rotated = [players[0], *(players[1:][-turn:] + players[1:][:-turn] if turn else players[1:])]
    pairs: list[list[int]] = []
    byes: list[int] = []
    for i in range(n // 2):
        a, b = rotated[i], rotated[n - 1 - i]
        if a is None or b is None:
            byes.extend(x for x in (a, b) if x is not None)
        else:
            pairs.append([a, b])
    return pairs, byes


def round_robin_rounds(entrants: int) -> int:
    """How many rounds a round-robin of ``entrants`` plays: everyone meets everyone once."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def seat_round(
    *,
    format: str,
    round_no: int,
    order: Sequence[int],
    met: Mapping[int, frozenset[int]],
    had_bye: frozenset[int],
    low: int,
    high: int,
    seed: str,
    drawn: Sequence[int] = (),
) -> Seating:
    """The seating of round ``round_no``.

    ``order``: the entrants to seat, best standing first (the standings' order; the seed's
    draw before round 1). ``met``: whom each has sat with before. ``drawn``: a round-robin's
    entrants in the order drawn for round 1 (its schedule is fixed by it; an entrant who
    withdrew leaves a bye to its opponent). The seats of each table are drawn from the
    seed (who plays first is no one's privilege)."""
    if format == ROUND_ROBIN:
        active = set(order)
        pairs, byes = round_robin_pairs(drawn, round_no)
        tables: list[list[int]] = []
        for pair in pairs:
            present = [e for e in pair if e in active]
            if len(present) == 2:
                tables.append(pair)
            else:
                byes.extend(present)
        byes = [e for e in byes if e in active]
    elif format == SWISS:
        sizes, bye_count = table_sizes(len(order), low, high)
        byes = list(bye_takers(order, bye_count, had_bye))
        seated = [e for e in order if e not in byes]
        tables = pair_two_seat(seated, met) if high == 2 else group_by_standing(seated, sizes, met)
    else:
        raise ValueError(f"unknown format {format!r}")
    seats = tuple(
        shuffled(sorted(t), seed, f"round:{round_no}:table:{i}") for i, t in enumerate(tables)
    )
    return Seating(tables=seats, byes=tuple(sorted(byes, key=list(order).index)))


def draw(entrants: Sequence[int], seed: str) -> tuple[int, ...]:
    """The entrants in the order the seed draws them: round 1's order (everyone level) and
    the last tie-break of the standings."""
    return shuffled(sorted(entrants), seed, "draw")
