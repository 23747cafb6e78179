"""I-2 setup, table options, and the contact phase (I-4): auctions, favors, rewards."""

from __future__ import annotations

import pytest

from games.infamy import (
    Bid,
    ChooseSector,
    Discard,
    MoveWatchdog,
    Pass,
    PlayScheme,
    Reward,
    RuleViolation,
    ThugResponse,
    UseFavor,
    initial_state,
    validate_options,
)
from games.infamy.cards import CONTENT_VERSION
from games.infamy.events import GameStarted
from games.infamy.setup import setup_events
from games.infamy.view import view

from .builders import QUIET, give, kinds, make_game, pass_contacts, play


def refused(code: str, state, seat, command) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleViolation) as info:
        play(state, seat, command)
    assert info.value.code == code, info.value


# --- I-2 setup -----------------------------------------------------------------------------


def test_setup_deals_what_i_2_lists() -> None:
    s = initial_state(4, seed="setup")
    assert len(s.jobs) == 4 and len(s.job_deck) == 26  # I-2.1
    assert [len(d) for d in s.scheme_decks] == [20, 20, 20]  # I-2.3
    assert s.hazards == () and s.round == 1 and s.day  # I-2.4, I-2.5, I-2.11
    for p in s.players:  # I-2.6, I-2.7, IR-3
        assert (p.weapon, p.data, p.compound) == (1, 1, 1)
        assert (p.available, p.spent, p.henchman, p.favor, p.hand) == (12, 0, 0, 0, ())
        assert p.rep == (0, 0, 0) and p.infamy == 0
    assert [p.colour for p in s.players] == ["pink", "teal", "brown", "yellow"]
    assert len(s.watchdogs) == 1  # I-2.9
    assert len(s.track) == 5 and len(s.contact_deck) == 8  # I-4.2
    assert s.step == "auction" and s.actor == s.bodyguard  # no Watchdog move in round 1 (IR-5)


def test_game_started_records_the_content_version_and_views_mark_it() -> None:
    events = setup_events(3, seed="v")
    started = events[0]
    assert isinstance(started, GameStarted) and started.content_version == CONTENT_VERSION
    v = view(initial_state(3, seed="v"), "spectator")
    assert v["content_version"] == "infamy/standin-1" and v["reconstructed"] is True
    assert all(j["reconstructed"] for j in v["jobs"])
    assert all(sector["reconstructed"] for sector in v["board"])


@pytest.mark.parametrize(
    ("options", "seats"),
    [
        ({}, 2),
        ({}, 5),
        ({"colours": ["black", "pink", "teal"]}, 3),
        ({"colours": ["pink", "pink", "teal"]}, 3),
        ({"advanced": True}, 3),
        ({"sector_seconds": 0}, 3),
        ({"stacked": {"jobs": ["j99"]}}, 3),
        ({"stacked": {"contacts": [["c01", "c01"]]}}, 3),
        ({"stacked": {"schemes.trust": ["h01"]}}, 3),
        ({"stacked": {"first_seat": 3}}, 3),
        ({"stacked": {"deck": []}}, 3),
    ],
)
def test_bad_table_options_are_refused(options: dict[str, object], seats: int) -> None:
    with pytest.raises(RuleViolation) as info:
        validate_options(options, seats)
    assert info.value.code == "bad_options"


def test_options_choose_colours_and_stack_decks() -> None:
    o = validate_options({"players": [{"colour": "yellow"}], "stacked": {"jobs": ["j30"]}}, 3)
    assert o.colours == ("yellow", "pink", "teal")
    s = make_game(jobs=["j30", "j01", "j02"], first_seat=2, watchdog_sector=4)
    assert s.jobs == ("j30", "j01", "j02") and s.bodyguard == 2 and s.watchdogs == (4,)
    assert s.track == tuple(QUIET)


# --- I-4.5 auctions ------------------------------------------------------------------------


def test_a_bid_pays_an_expense_and_moves_bribes_onto_the_contact() -> None:
    s = make_game()
    s, events = play(s, 0, Bid(2))
    p = s.players[0]
    assert (p.available, p.spent, p.on_contacts) == (9, 1, 2)  # I-4.5.3
    assert s.actor == 1 and kinds(events)[0] == "BidPlaced"


def test_bid_too_low_and_not_enough_bribes() -> None:
    s = make_game(holdings={1: {"available": 4}})
    s, _ = play(s, 0, Bid(2))
    refused("bid_too_low", s, 1, Bid(2))  # must exceed the high bid (IR-6)
    refused("not_enough_bribes", s, 1, Bid(4))  # 1 expense + 4 > 4 available
    refused("not_your_turn", s, 2, Bid(5))
    refused("not_allowed_now", s, 1, ChooseSector(1))


def test_passes_are_not_final_and_the_auction_ends_when_all_others_passed() -> None:
    s = make_game()
    s, _ = play(s, 0, Bid(1))
    s, _ = play(s, 1, Pass())
    s, _ = play(s, 2, Bid(2))
    s, _ = play(s, 0, Pass())
    s, _ = play(s, 1, Bid(3))  # passed before, bids again (I-4.5.4)
    s, _ = play(s, 2, Pass())
    s, events = play(s, 0, Pass())
    assert "ContactWon" in kinds(events)
    # Settlement (I-4.5.7): losers take back their bribes, expenses stay spent; the winner
    # leaves one token on the contact and the rest go to its spent area.
    p0, p1, p2 = s.players
    assert (p0.available, p0.spent, p0.on_contacts) == (11, 1, 0)
    assert (p2.available, p2.spent, p2.on_contacts) == (11, 1, 0)
    assert (p1.available, p1.spent, p1.on_contacts) == (8, 3, 1)
    assert s.bodyguard == 1 and s.players[1].weapon == 3  # c02: +2 weapons at once (IR-7)
    assert s.auction is not None and s.auction.position == 1 and s.actor == 1  # IR-10


def test_an_unclaimed_contact_does_not_move_the_bodyguard() -> None:
    s = make_game(first_seat=1)
    for seat in (1, 2, 0):
        s, events = play(s, seat, Pass())
    assert "ContactUnclaimed" in kinds(events) and s.bodyguard == 1  # I-4.5.5, IR-10
    assert s.actor == 1


def test_a_seat_without_a_legal_bid_is_passed_automatically() -> None:
    s = make_game(holdings={1: {"available": 1}})  # one bribe: the expense, nothing to bid
    s, events = play(s, 0, Bid(1))
    assert s.actor == 2
    assert any(getattr(e, "auto", False) and e.seat == 1 for e in events)  # IR-8


def test_a_favor_wins_at_once_as_the_first_bid_only() -> None:
    s = make_game(holdings={1: {"favor": 1}})
    s, _ = play(s, 0, Bid(3))
    s, events = play(s, 1, UseFavor())
    assert kinds(events)[:2] == ["FavorUsed", "ContactWon"]  # I-4.6
    p0, p1 = s.players[0], s.players[1]
    assert (p0.available, p0.spent, p0.on_contacts) == (11, 1, 0)
    assert (p1.favor, p1.available, p1.on_contacts) == (0, 11, 1)
    assert s.supply_of("favor") == 6


def test_favor_refusals() -> None:
    s3 = make_game(contacts=[["c05", *QUIET[:4]]], holdings={0: {"favor": 1}})
    refused("favor_not_allowed", s3, 0, UseFavor())  # never on the Fixer
    s4 = make_game(holdings={0: {"favor": 1}, 1: {"favor": 1}})
    s4, _ = play(s4, 0, Bid(1))
    s4, _ = play(s4, 1, Bid(2))
    s4, _ = play(s4, 2, Pass())
    refused("favor_not_allowed", s4, 0, UseFavor())  # it bid on this contact (IR-9)
    s5 = make_game(holdings={0: {"favor": 1, "available": 0}})
    refused("cannot_pay", s5, 0, UseFavor())  # the expense must still be paid (3.8.2)
    refused("no_favor", make_game(), 0, UseFavor())


# --- I-4.8 rewards -------------------------------------------------------------------------


def win(state, seat, position_contact=None):  # type: ignore[no-untyped-def]
    """``seat`` bids 1 on the running auction and everyone else passes."""
    while state.actor != seat:
        state, _ = play(state, state.actor, Pass())
    state, _ = play(
        state, seat, Bid(state.auction.bids[seat] + 1 if state.auction.high is not None else 1)
    )
    while state.step == "auction" and state.auction.high == seat and state.actor != seat:
        state, _ = play(state, state.actor, Pass())
    return state


def test_liaison_gives_infamy_or_reputation() -> None:
    s = win(make_game(contacts=[["c08", *QUIET[:4]]]), 0)
    assert s.step == "reward" and s.actor == 0
    refused("illegal_target", s, 0, Reward(choice="rep", faction="nobody"))
    r, _ = play(s, 0, Reward(choice="rep", faction="trust"))
    assert r.players[0].rep_of("trust") == 1 and r.players[0].data == 2  # Stringer (I-9.2)
    i, _ = play(s, 0, Reward(choice="infamy"))
    assert i.players[0].infamy == 2


def test_peddler_takes_a_resource_the_supply_holds() -> None:
    s = win(make_game(contacts=[["c09", *QUIET[:4]]]), 0)
    s, _ = play(s, 0, Reward(resource="compound"))
    assert s.players[0].compound == 2


def test_informant_draws_two_then_discards_then_plays_two_schemes() -> None:
    s = win(
        make_game(
            contacts=[["c07", *QUIET[:4]]], schemes={"harada": ["h01", "h02"], "trust": ["t03"]}
        ),
        0,
    )
    s, _ = play(s, 0, Reward(deck="harada"))
    s, _ = play(s, 0, Reward(deck="trust"))
    assert s.step == "reward" and s.players[0].hand == ("h01", "t03")  # 3.3: its discard
    refused("not_allowed_now", s, 0, Reward(deck="pkd"))  # the discard half of the step
    refused("card_not_in_hand", s, 0, Discard("h02"))
    s, _ = play(s, 0, Discard("t03"))
    assert s.players[0].hand == ("h01",) and s.step == "auction" and s.informant == 0


def test_saboteur_may_sabotage_and_place_a_hazard_on_a_non_faction_space() -> None:
    s = win(make_game(contacts=[["c10", *QUIET[:4]]], jobs=["j01", "j02", "j03"]), 0)
    refused("illegal_target", s, 0, Reward(job="j01", hazard="3/hq"))
    s, events = play(s, 0, Reward(job="j01", hazard="3/supply"))
    assert s.jobs == ("j02", "j03") and s.job_deck[-1] == "j01" and s.hazards == ("3/supply",)
    d = win(make_game(contacts=[["c10", *QUIET[:4]]]), 0)
    d, events = play(d, 0, Reward())  # both parts optional (IR-36)
    assert "JobSabotaged" not in kinds(events) and not d.hazards


def test_thug_rival_cancels_or_pays() -> None:
    s = win(make_game(contacts=[["c13", *QUIET[:4]]]), 0)
    s, _ = play(s, 0, Reward(rival=2, resource="data"))
    assert s.step == "thug_response" and s.actor == 2
    paid, _ = play(s, 2, ThugResponse(False))
    assert paid.players[0].data == 2 and paid.players[2].data == 0
    cancelled, _ = play(s, 2, ThugResponse(True))
    assert cancelled.players[2].available == 9 and cancelled.players[0].data == 1
    poor = give(s, 2, available=2)
    refused("cannot_cancel", poor, 2, ThugResponse(True))
    none = win(make_game(contacts=[["c13", *QUIET[:4]]], holdings={2: {"data": 0}}), 0)
    none, events = play(none, 0, Reward(rival=2, resource="data"))
    assert none.step == "auction" and "ThugAsked" not in kinds(events)  # not asked


def test_sector_chief_adds_a_watchdog_ignores_them_and_removes_one_at_the_end() -> None:
    s = win(make_game(contacts=[["c11", *QUIET[:4]]], watchdog_sector=6), 0)
    s, _ = play(s, 0, Reward(sector=3))
    assert s.watchdogs == (3, 6) and s.chief == 0
    s = pass_contacts(s)
    refused("illegal_target", s, 1, ChooseSector(3))  # IR-13
    s, _ = play(s, 0, ChooseSector(3))  # the Chief's winner may (IR-13)
    s, _ = play(s, 1, ChooseSector(1))
    s, _ = play(s, 2, ChooseSector(2))
    while s.step == "place":
        from games.infamy import minimal_command

        s, _ = play(s, s.actor, minimal_command(s, s.actor))
    while s.step == "scheme":
        s, _ = play(s, s.actor, Pass())
    assert s.step == "chief_remove" and s.actor == 0  # IR-18
    s, events = play(
        s, 0, __import__("games.infamy", fromlist=["RemoveWatchdog"]).RemoveWatchdog(6)
    )
    assert s.watchdogs == (3,) and "JobsRefilled" in kinds(events) or s.watchdogs == (3,)
    assert s.round == 2 and s.step == "watchdog"  # I-4.4 from round 2


def test_watchdog_move_from_round_2_and_night_uses_the_rest_of_the_deck() -> None:
    s = make_game(contacts=[QUIET + ["c01", "c07", "c08", "c09", "c10", "c11", "c12", "c13"]])
    s = pass_contacts(s)
    for seat in (0, 1, 2):
        s, _ = play(s, seat, ChooseSector(seat + 1))
    while s.step != "watchdog":
        from games.infamy import minimal_command

        s, _ = play(s, s.actor, minimal_command(s, s.actor))
    assert s.round == 2 and not s.day and s.track == ("c01", "c07", "c08", "c09", "c10")
    refused("illegal_target", s, 0, MoveWatchdog(6, 6))
    s, _ = play(s, 0, MoveWatchdog(6, 2))
    assert s.watchdogs == (2,) and s.step == "auction"


def test_scheme_play_needs_its_step() -> None:
    s = make_game(hands={0: ["h01"]})
    refused("not_allowed_now", s, 0, PlayScheme("h01"))
