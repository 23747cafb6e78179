"""The pure core: seating (property tests: sizes balanced, everybody seated once, the same
per seed), points, tie-breaks, the log's chain and the verifier's refusals of tampering
that need no games."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import formats
from tournaments.log import check_chain, entry_body, entry_hash
from tournaments.standings import (
    PLAYED,
    VOIDED,
    GameResult,
    RoundResults,
    placement_points,
    standings,
)


def test_thirteen_at_tables_of_two_to_six_sit_five_four_four() -> None:
    assert formats.table_sizes(13, 2, 6) == ((5, 4, 4), 0)
    assert formats.table_sizes(8, 3, 4) == ((4, 4), 0)
    assert formats.table_sizes(5, 3, 4) == ((4,), 1)  # 3 + 2 would leave a table short
    assert formats.table_sizes(7, 2, 2) == ((2, 2, 2), 1)
    with pytest.raises(formats.SeatingError):
        formats.table_sizes(2, 3, 4)


@st.composite
def events(draw):  # type: ignore[no-untyped-def]
    low = draw(st.integers(2, 4))
    high = draw(st.integers(low, 6))
    n = draw(st.integers(low, 40))
    entrants = draw(st.lists(st.integers(1, 500), min_size=n, max_size=n, unique=True))
    met: dict[int, frozenset[int]] = {}
    for e in entrants:
        met[e] = frozenset(draw(st.lists(st.sampled_from(entrants), max_size=4))) - {e}
    had = frozenset(draw(st.lists(st.sampled_from(entrants), max_size=3)))
    seed = draw(st.text(min_size=1, max_size=8))
    round_no = draw(st.integers(1, 9))
    return low, high, entrants, met, had, seed, round_no


@settings(max_examples=80, deadline=None)
@given(events())
def test_swiss_seating_balanced_once_each_and_the_same_per_seed(case) -> None:  # type: ignore[no-untyped-def]
    low, high, order, met, had, seed, round_no = case
    kw = dict(format=formats.SWISS, round_no=round_no, met=met, had_bye=had, low=low, high=high)
    seating = formats.seat_round(order=order, seed=seed, **kw)
    seated = [e for t in seating.tables for e in t]
    assert sorted(seated + list(seating.byes)) == sorted(order)  # everybody once
    sizes = [len(t) for t in seating.tables]
    assert all(low <= s <= high for s in sizes)
    assert max(sizes) - min(sizes) <= 1  # balanced
    assert (sizes, len(seating.byes)) == (
        sorted(formats.table_sizes(len(order), low, high)[0], reverse=True),
        formats.table_sizes(len(order), low, high)[1],
    ) or high == 2
    assert formats.seat_round(order=order, seed=seed, **kw) == seating  # deterministic
    if len(order) > high:
        other = formats.seat_round(order=order, seed=seed + "x", **kw)
        assert sorted(map(sorted, other.tables)) == sorted(map(sorted, seating.tables))


def test_byes_go_to_the_lowest_standing_without_one() -> None:
    seating = formats.seat_round(
        format=formats.SWISS,
        round_no=2,
        order=[1, 2, 3, 4, 5],
        met={},
        had_bye=frozenset({5}),
        low=2,
        high=2,
        seed="s",
    )
    assert seating.byes == (4,)


def test_swiss_pairs_avoid_a_rematch_when_one_can_be_avoided() -> None:
    met = {1: frozenset({2}), 2: frozenset({1}), 3: frozenset({4}), 4: frozenset({3})}
    pairs = formats.pair_two_seat([1, 2, 3, 4], met)
    assert sorted(map(sorted, pairs)) == [[1, 3], [2, 4]]


def test_multi_seat_tables_swap_repeated_opponents_apart() -> None:
    met = {1: frozenset({2}), 2: frozenset({1})}
    tables = formats.group_by_standing([1, 2, 3, 4, 5, 6], [3, 3], met)
    assert not any({1, 2} <= set(t) for t in tables)


def test_a_round_robin_meets_everyone_once() -> None:
    entrants = [3, 1, 4, 5, 9]
    pairs = set()
    for r in range(1, formats.round_robin_rounds(len(entrants)) + 1):
        round_pairs, byes = formats.round_robin_pairs(entrants, r)
        assert len(byes) == 1
        pairs |= {frozenset(p) for p in round_pairs}
    assert len(pairs) == 10


def test_placement_points() -> None:
    assert placement_points((1, 2)) == (1, 0)
    assert placement_points((1, 1)) == (Fraction(1, 2), Fraction(1, 2))
    assert placement_points((1, 2, 2, 2)) == (1, Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    assert placement_points((2, 1, 3)) == (Fraction(1, 2), 1, 0)


def test_tie_breaks_buchholz_then_head_to_head_then_the_draw() -> None:
    r1 = RoundResults(
        1,
        (
            GameResult("a", (1, 2), (1, 2), PLAYED),
            GameResult("b", (3, 4), (1, 2), PLAYED),
        ),
        (),
    )
    r2 = RoundResults(
        2,
        (
            GameResult("c", (1, 3), (2, 1), PLAYED),
            GameResult("d", (2, 4), (1, 2), PLAYED),
        ),
        (),
    )
    rows = standings([1, 2, 3, 4], [r1, r2], "seed")
    by = {s.entrant: s for s in rows}
    assert by[3].points == 2 and rows[0].entrant == 3
    # 1 and 2 have 1 point each; 1 met 2 and 3 (3 points), 2 met 1 and 4 (1 point)
    assert by[1].buchholz == 3 and by[2].buchholz == 1
    assert [s.entrant for s in rows] == [3, 1, 2, 4]
    void = RoundResults(2, (GameResult("c", (1, 3), None, VOIDED),), ())
    assert {s.entrant: s.points for s in standings([1, 2, 3, 4], [r1, void], "x")}[3] == 1


def test_the_log_chain_refuses_a_rewritten_entry() -> None:
    entries = []
    prev = "0" * 64
    for n, (kind, data) in enumerate([("created", {"a": 1}), ("registered", {"b": 2})], 1):
        body = entry_body("t", n, kind, data, "2026-01-01T00:00:00+00:00")
        h = entry_hash(prev, body)
        entries.append(
            {"n": n, "kind": kind, "data": data, "at": body["at"], "prev_hash": prev, "hash": h}
        )
        prev = h
    assert check_chain("t", entries) is None
    entries[1]["data"] = {"b": 3}
    assert "hash" in (check_chain("t", entries) or "")
