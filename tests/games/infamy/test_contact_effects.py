"""The contacts whose effects last the round (I-4.8): Accomplice (IR-17), Smuggler at Night
(IR-15), Informant's second scheme (IR-26); perk income (IR-37); empty decks (IR-28)."""

from __future__ import annotations

import pytest

from games.infamy import (
    Bid,
    ChooseSector,
    Discard,
    Pass,
    Place,
    PlayScheme,
    Reward,
    RuleViolation,
    minimal_command,
)
from games.infamy.flow import Builder, draw

from .builders import QUIET, kinds, make_game, pass_contacts, play


def won_first(contacts: list[str], **kw):  # type: ignore[no-untyped-def]
    """Seat 0 wins the first contact with a bid of 1; everything else goes unclaimed."""
    s = make_game(contacts=[contacts], **kw)
    s, _ = play(s, 0, Bid(1))
    s, _ = play(s, 1, Pass())
    s, _ = play(s, 2, Pass())
    return pass_contacts(s)


def test_the_accomplice_places_a_second_figure_and_its_winner_gains_no_reputation() -> None:
    s = won_first(["c01", *QUIET[:4]])
    assert s.accomplice == 0
    s, _ = play(s, 0, ChooseSector(3, 5))  # both cards, sealed together
    s, _ = play(s, 1, ChooseSector(1))
    s, _ = play(s, 2, ChooseSector(2))
    assert s.order[0] == 0 and s.actor == 0
    s, _ = play(s, 0, Place("accomplice", "hq"))  # Trust HQ at 0R: nothing (IR-17)
    assert s.players[0].rep == (0, 0, 0) and s.actor == 0  # the same slot (IR-11)
    s, events = play(s, 0, Place("own", "supply"))
    assert s.players[0].compound == 2 and s.actor == 1


def test_the_smuggler_at_night_doubles_supply_effects_re_evaluated() -> None:
    s = make_game(contacts=[QUIET + ["c12", "c01", "c07", "c08", "c09", "c10", "c11", "c13"]],
                  schemes={"harada": ["h01"]})  # fmt: skip
    s = pass_contacts(s)
    for seat in (0, 1, 2):
        s, _ = play(s, seat, ChooseSector(seat + 1))
    while s.step != "watchdog":
        s, _ = play(s, s.actor, minimal_command(s, s.actor))
    s, _ = play(s, s.bodyguard, minimal_command(s, s.bodyguard))
    assert not s.day and s.track[0] == "c12"
    while s.actor != 0:
        s, _ = play(s, s.actor, Pass())
    s, _ = play(s, 0, Bid(1))
    s = pass_contacts(s)
    assert s.smuggler == 0
    for seat, sector in ((0, 3), (1, 4), (2, 5)):
        s, _ = play(s, seat, ChooseSector(sector))
    while s.actor != 0:
        s, _ = play(s, s.actor, minimal_command(s, s.actor))
    before = s.players[0]
    s, events = play(s, 0, Place("own", "hq"))  # Harada HQ at 0R: 1R, then a scheme
    after = s.players[0]
    assert after.rep_of("harada") == 1 and len(after.hand) == len(before.hand) + 1


def test_the_informant_plays_a_second_scheme_in_the_same_turn() -> None:
    s = make_game(
        contacts=[["c07", *QUIET[:4]]], schemes={"pkd": ["m01", "m02"]}, hands={0: ["h01"]}
    )
    s, _ = play(s, 0, Bid(1))
    s, _ = play(s, 1, Pass())
    s, _ = play(s, 2, Pass())
    s, _ = play(s, 0, Reward(deck="pkd"))
    s, _ = play(s, 0, Reward(deck="pkd"))
    s, _ = play(s, 0, Discard("m01"))
    s = pass_contacts(s)
    for seat in (0, 1, 2):
        s, _ = play(s, seat, ChooseSector(seat + 3))
    while s.step == "place":
        s, _ = play(s, s.actor, minimal_command(s, s.actor))
    assert s.step == "scheme" and s.actor == 0
    s, _ = play(s, 0, PlayScheme("m02"))  # Arms Cache
    assert s.actor == 0 and s.step == "scheme"  # a second scheme (IR-26)
    s, events = play(s, 0, Pass())
    assert s.actor == 1 and "SchemeStepEnded" in kinds(events)


def test_level_3_perks_pay_their_income_each_day() -> None:
    s = make_game(holdings={1: {"rep": {"pkd": 3}}})
    s = pass_contacts(s)
    for seat in (0, 1, 2):
        s, _ = play(s, seat, ChooseSector(seat + 1))
    while s.round < 3:
        seat = (
            s.actor if s.actor is not None else next(x for x in s.in_game() if s.choices[x] is None)
        )
        s, events = play(s, seat, minimal_command(s, seat))
        if "RoundStarted" in kinds(events) and s.day:
            assert any(getattr(e, "cause", "") == "perk.pkd.3" for e in events)  # IR-37


def test_an_empty_scheme_deck_is_reshuffled_from_its_discards() -> None:
    s = make_game()
    decks = list(s.scheme_decks)
    discards = list(s.scheme_discards)
    discards[1] = decks[1][:3]
    decks[1] = ()
    s = s.__class__(**{**s.__dict__, "scheme_decks": tuple(decks),
                       "scheme_discards": tuple(discards)})  # fmt: skip
    b = Builder(s)
    draw(b, 0, "trust", 1, "test")
    assert kinds(b.events) == ["SchemeDeckShuffled", "SchemesDrawn"]  # IR-28
    assert len(b.state.deck_of("trust")) == 2 and not b.state.scheme_discards[1]


def test_after_the_accomplice_the_liaison_must_give_infamy() -> None:
    s = make_game(contacts=[["c01", "c08", *QUIET[:3]]])
    s, _ = play(s, 0, Bid(1))
    s, _ = play(s, 1, Pass())
    s, _ = play(s, 2, Pass())
    while s.actor != 0:
        s, _ = play(s, s.actor, Pass())
    s, _ = play(s, 0, Bid(1))
    while s.step == "auction":
        s, _ = play(s, s.actor, Pass())
    assert s.step == "reward" and s.accomplice == 0
    with pytest.raises(RuleViolation) as info:
        play(s, 0, Reward(choice="rep", faction="pkd"))
    assert info.value.code == "illegal_target"  # IR-17
    s, _ = play(s, 0, Reward(choice="infamy"))
    assert s.players[0].infamy == 2


def test_a_resource_of_choice_must_come_from_a_type_the_supply_holds() -> None:
    s = make_game(contacts=[["c09", *QUIET[:4]]], holdings={1: {"data": 16}})
    s, _ = play(s, 0, Bid(1))
    s, _ = play(s, 1, Pass())
    s, _ = play(s, 2, Pass())
    assert s.supply_of("data") == 0
    with pytest.raises(RuleViolation) as info:
        play(s, 0, Reward(resource="data"))
    assert info.value.code == "supply_empty"  # IR-33
    s, _ = play(s, 0, Reward(resource="weapon"))
    assert s.players[0].weapon == 2
