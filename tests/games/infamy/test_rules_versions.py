"""Issue 28's Infamy fixes (rules version 2), each against the specification, and rules 1
deciding exactly as before for a game recorded under it (games/infamy/versions.py)."""

from __future__ import annotations

from typing import Any

import pytest

from games.infamy import Bid, ChooseSector, Discard, Pass, PlayScheme, Resign, RuleViolation
from games.infamy.cards import faction_schemes
from games.infamy.state import GameState
from games.infamy.versions import RULES, RULES_VERSION, RULES_VERSIONS, rules_of

from .builders import kinds, make_game, play
from .test_sector_and_schemes import placed, to_sector

PKD = list(faction_schemes("pkd"))  # m19, m20: Cell Network


def refusal(state: GameState, seat: int, command: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        play(state, seat, command)
    return info.value


def scheme_step(rules_version: int, **kw: Any) -> GameState:
    s = placed(to_sector(rules_version=rules_version, **kw), {0: 1, 1: 3, 2: 5})
    from games.infamy import minimal_command

    while s.step == "place":
        assert s.actor is not None
        s, _ = play(s, s.actor, minimal_command(s, s.actor))
    assert s.step == "scheme" and s.actor == 0 and s.rules_version == rules_version
    return s


def test_versions_are_named_in_one_table() -> None:
    assert RULES_VERSIONS == (1, 2) and RULES_VERSION == 2
    assert rules_of(make_game()) is RULES[2]
    assert rules_of(make_game(rules_version=1)) is RULES[1]
    assert make_game().rules_version == 2  # new games: the newest


# --- I-8.1: a scheme resolves, then is discarded -------------------------------------------


def test_cell_network_cannot_reshuffle_itself_into_an_empty_deck() -> None:
    """Seat 0 holds every PKD scheme: the PKD deck and its discard pile are empty. Naming
    it is refused, and Cell Network stays in the hand, unplayed (nothing happened)."""
    s = scheme_step(2, hands={0: PKD})
    error = refusal(s, 0, PlayScheme("m19", {"deck": "pkd"}))
    assert error.code == "illegal_target" and error.data["reason"] == "deck_empty"
    assert error.data["choices"] == ["harada", "trust"]
    assert "m19" in s.players[0].hand and not s.scheme_discards[2]
    s, events = play(s, 0, PlayScheme("m19", {"deck": "trust"}))
    assert kinds(events)[:3] == ["SchemePlayed", "SchemesDrawn", "Gained"]
    discarded = [e for e in events if type(e).__name__ == "SchemeDiscarded"]
    assert [(e.card, e.cause) for e in discarded] == [("m19", "resolved")]  # then discarded
    assert s.scheme_discards[2] == ("m19",) and "m19" not in s.players[0].hand


def test_rules_1_reshuffled_the_played_scheme_and_drew_it_again() -> None:
    """What a rules-1 game decided (and must still decide, so its record verifies)."""
    s = scheme_step(1, hands={0: PKD})
    s, events = play(s, 0, PlayScheme("m19", {"deck": "pkd"}))
    assert kinds(events)[:3] == ["SchemePlayed", "SchemeDeckShuffled", "SchemesDrawn"]
    drawn = next(e for e in events if type(e).__name__ == "SchemesDrawn")
    assert drawn.cards == ("m19",) and "m19" in s.players[0].hand
    assert "SchemeDiscarded" not in kinds(events)


def test_a_deck_with_discards_reshuffles_them_without_the_scheme_being_played() -> None:
    s = scheme_step(2, hands={0: PKD[:-2] + ["m19"]})  # m20 left in the deck
    s, _ = play(s, 0, PlayScheme("m19", {"deck": "pkd"}))
    assert s.players[0].hand[-1] == "m20" and s.scheme_discards[2] == ("m19",)


# --- 3.8.3: the high bidder resigns mid-auction ---------------------------------------------


def resign_high_bidder(rules_version: int) -> tuple[GameState, tuple[Any, ...]]:
    """Seat 0 bids 1, seats 1 and 2 pass, seat 3 bids 2; seat 0 is asked; seat 3 resigns."""
    s = make_game(4, rules_version=rules_version)
    s, _ = play(s, 0, Bid(1))
    s, _ = play(s, 1, Pass())
    s, _ = play(s, 2, Pass())
    s, _ = play(s, 3, Bid(2))
    assert s.step == "auction" and s.actor == 0
    return play(s, 3, Resign())


def test_the_remaining_high_bid_stands_with_the_passes_made_since_it() -> None:
    s, events = resign_high_bidder(2)
    won = [e for e in events if type(e).__name__ == "ContactWon"]
    assert [(e.seat, e.contact) for e in won] == [(0, "c02")]  # the auction ends at once
    assert s.players[0].weapon == 3 and s.auction is not None and s.auction.position == 1


def test_rules_1_kept_the_auction_open_and_asked_again() -> None:
    s, events = resign_high_bidder(1)
    assert kinds(events) == ["PlayerResigned"]
    assert s.step == "auction" and s.actor == 0 and s.auction is not None
    assert s.auction.high == 0 and s.auction.passes == ()


def test_with_no_bid_left_passes_are_counted_afresh() -> None:
    s = make_game(4)
    s, _ = play(s, 0, Pass())
    s, _ = play(s, 1, Bid(1))
    s, _ = play(s, 2, Pass())
    s, events = play(s, 1, Resign())
    assert s.auction is not None and s.auction.high is None and s.auction.passes == ()
    assert s.step == "auction" and s.actor == 3


# --- 3.3, IR-29, IR-13: refusal codes ---------------------------------------------------------


def test_a_scheme_of_the_other_round_is_not_allowed_now() -> None:
    s = scheme_step(2, hands={0: ["h11"]})  # Loyal Soldiers: Night only
    error = refusal(s, 0, PlayScheme("h11"))
    assert (error.code, error.data["reason"], error.data["round"]) == (
        "not_allowed_now", "wrong_round", "night")  # fmt: skip


def test_a_sector_a_watchdog_guards_is_an_illegal_target() -> None:
    s = to_sector()
    error = refusal(s, 0, ChooseSector(6))
    assert (error.code, error.data["reason"], error.data["watchdogs"]) == (
        "illegal_target", "watchdog_sector", [6])  # fmt: skip


# --- 3.3: steps ---------------------------------------------------------------------------------


def test_rules_1_names_the_discard_steps_as_it_did() -> None:
    s = scheme_step(1, hands={0: ["t19"]}, schemes={"trust": ["t01", "t02"]})
    s, _ = play(s, 0, PlayScheme("t19", {"decks": ["trust", "trust"]}))
    assert s.step == "scheme_discard" and not s.in_play and s.scheme_discards[1] == ("t19",)
    s, events = play(s, 0, Discard("t01"))
    assert [e.card for e in events if type(e).__name__ == "SchemeDiscarded"] == ["t01"]


def test_informer_network_cannot_draw_its_second_card_from_a_deck_it_emptied() -> None:
    """I-9.4: a free draw from an empty deck with no discards must use another deck."""
    trust = [c for c in faction_schemes("trust") if c not in ("t19", "t01")]
    s = scheme_step(2, hands={0: ["t19"], 1: trust}, schemes={"trust": ["t01"]})
    error = refusal(s, 0, PlayScheme("t19", {"decks": ["trust", "trust"]}))
    assert (error.code, error.data["reason"]) == ("illegal_target", "deck_empty")
    s, _ = play(s, 0, PlayScheme("t19", {"decks": ["trust", "harada"]}))
    assert s.players[0].hand[0] == "t01" and s.in_play == "t19"


def test_a_seat_resigning_with_its_scheme_in_play_discards_it() -> None:
    s = scheme_step(2, hands={0: ["t19"]}, schemes={"trust": ["t01", "t02"]})
    s, _ = play(s, 0, PlayScheme("t19", {"decks": ["trust", "trust"]}))
    assert s.in_play == "t19" and s.step == "scheme" and s.actor == 0
    s, events = play(s, 0, Resign())  # (play checks every invariant)
    assert not s.in_play and "t19" in s.scheme_discards[1] and s.actor == 1
