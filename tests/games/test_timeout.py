"""The card a timed-out turn discards (``timeout_discard``): never a counter while another
card could go."""

from __future__ import annotations

from games.family_business import CARD_KIND, Kind, timeout_discard
from tests.games.builders import MOB, make_state, play_kind

B = MOB[1]


def test_a_timeout_discards_the_first_card_that_is_not_a_counter():
    state = make_state(
        3, hands={0: ["FAMILY_INFLUENCE", "MOB_POWER", "FINGER", "TRUCE", "INTRIGUE"]}
    )
    assert CARD_KIND[state.players[0].hand[0]] is Kind.FAMILY_INFLUENCE  # first in hand
    assert CARD_KIND[timeout_discard(state, 0)] is Kind.TRUCE  # type: ignore[index]


def test_a_hand_of_counters_only_gives_up_a_counter():
    state = make_state(3, hands={0: ["SAFE_HOUSE", "FINGER"]})
    assert timeout_discard(state, 0) == state.players[0].hand[0]


def test_nothing_to_discard_off_turn_during_a_window_or_with_an_empty_hand():
    state = make_state(3, hands={0: ["CONTRACT", "TRUCE"], 1: ["FAMILY_INFLUENCE"]})
    assert timeout_discard(state, 1) is None  # not seat 1's turn
    windowed, _ = play_kind(state, 0, "CONTRACT", B[0])
    assert windowed.window is not None and timeout_discard(windowed, 0) is None
    empty = make_state(3, hands={1: ["TRUCE"]})
    assert timeout_discard(empty, 0) is None
