"""The sealed sector phase (I-5), jobs (I-6), hazards and Watchdogs (I-7), schemes (I-8.1),
the end of the round (I-8), winning (I-10), resigning and timeouts (I-11)."""

from __future__ import annotations

import pytest

from games.infamy import (
    Bid,
    ChooseSector,
    Discard,
    Forgo,
    Pass,
    Place,
    PlayScheme,
    Resign,
    RuleViolation,
    Timeout,
    minimal_command,
)
from games.infamy.definition import status, timeout_command, undo_blocked
from games.infamy.flow import winners
from games.infamy.view import redact_event, view

from .builders import QUIET, give, kinds, make_game, pass_contacts, play


def refused(code: str, state, seat, command, now: int = 0) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleViolation) as info:
        play(state, seat, command, now)
    assert info.value.code == code, info.value


def to_sector(**kw):  # type: ignore[no-untyped-def]
    return pass_contacts(make_game(**kw))


def placed(state, choices):  # type: ignore[no-untyped-def]
    """Every seat commits ``choices[seat]``; returns the state at the first placement."""
    for seat, sector in choices.items():
        state, _ = play(state, seat, ChooseSector(sector))
    return state


# --- I-5.1, I-5.2: the sealed choice ---------------------------------------------------------


def test_every_seat_is_awaited_at_once_and_commits_in_secret() -> None:
    s = to_sector()
    assert s.step == "sector" and status(s)["awaiting"] == [0, 1, 2]
    assert status(s)["deadlines"] == {0: 60_000, 1: 60_000, 2: 60_000}  # sector_seconds
    s, events = play(s, 1, ChooseSector(4))
    assert kinds(events) == ["SectorChosen"]  # nothing else happens before the last commit
    for viewer in (0, 2, "spectator", "staff"):
        assert redact_event(events[0], viewer)["sector"] is None
        seen = view(s, viewer)["players"][1]
        assert seen["chosen"] is True and "sector" not in seen
    assert redact_event(events[0], 1)["sector"] == 4 and view(s, 1)["players"][1]["sector"] == 4
    refused("already_chosen", s, 1, ChooseSector(3))  # final once made (I-5.1)
    refused("illegal_target", s, 0, ChooseSector(6))  # IR-13
    refused("bad_accomplice", s, 0, ChooseSector(2, 3))
    s, _ = play(s, 0, ChooseSector(4))  # the same sector as another seat is fine
    s, events = play(s, 2, ChooseSector(1))
    assert "SectorsRevealed" in kinds(events)  # I-5.2: the last commit reveals all
    assert view(s, "spectator")["players"][1]["sector"] == 4
    assert undo_blocked(list(events), 2) and undo_blocked(list(events), 0)  # G-5


def test_the_sector_step_times_out_with_the_minimal_default() -> None:
    s = to_sector(options={"sector_seconds": 30})
    assert s.deadline == 30_000
    s, _ = play(s, 0, ChooseSector(3))
    refused("system_only", s, 1, Timeout())
    refused("step_not_expired", s, None, Timeout(), now=29_999)
    assert timeout_command(s, 1) == {"type": "choose_sector", "sector": 1, "accomplice": None}
    assert timeout_command(s, 0) is None  # committed: not awaited
    s, events = play(s, None, Timeout(), now=30_000)
    assert s.revealed and s.choices[1] == (1, 0) and s.choices[2] == (1, 0)  # I-11.4


# --- I-5.3 to I-5.5: placement ----------------------------------------------------------------


def test_placement_follows_contact_order_then_clockwise_from_the_bodyguard() -> None:
    s = make_game(first_seat=0)
    # seat 2 wins position 1, seat 1 position 2; seat 0 wins nothing.
    s, _ = play(s, 0, Pass())
    s, _ = play(s, 1, Pass())
    s, _ = play(s, 2, Bid(1))
    s, _ = play(s, 0, Pass())
    s, _ = play(s, 1, Pass())
    assert s.bodyguard == 2
    s, _ = play(s, 2, Pass())
    s, _ = play(s, 0, Pass())
    s, _ = play(s, 1, Bid(1))
    s, _ = play(s, 2, Pass())
    s, _ = play(s, 0, Pass())
    s = pass_contacts(s)
    s = placed(s, {0: 1, 1: 3, 2: 5})
    assert s.order == (2, 1, 0) and s.step == "place" and s.actor == 2  # IR-11, IR-12


def test_a_figure_takes_one_legal_space_and_resolves_it_at_once() -> None:
    s = placed(to_sector(), {0: 3, 1: 3, 2: 5})
    assert s.order == (0, 1, 2)
    s, events = play(s, 0, Place("own", "supply"))
    assert s.players[0].compound == 2 and "FigurePlaced" in kinds(events)  # I-5.4
    refused("space_taken", s, 1, Place("own", "supply"))
    s, _ = play(s, 1, Place("own", "hq"))
    assert s.players[1].rep_of("harada") == 1 and s.players[1].compound == 2  # 0R: 1R, Runner


def test_an_hq_visit_with_reputation_draws_a_scheme() -> None:
    s = placed(to_sector(holdings={0: {"rep": {"pkd": 1}}}, schemes={"pkd": ["m05"]}),
               {0: 1, 1: 3, 2: 5})  # fmt: skip
    s, events = play(s, 0, Place("own", "hq"))
    assert s.players[0].hand == ("m05",) and s.players[0].rep_of("pkd") == 1


def test_a_job_is_paid_and_gives_rewards_then_infamy_then_reputation() -> None:
    s = placed(
        to_sector(jobs=["j05", "j11", "j21"], holdings={0: {"data": 2, "favor": 1}}),
        {0: 1, 1: 3, 2: 5},
    )
    refused("wrong_faction", s, 0, Place("own", "job", "j05", "harada"))
    refused("illegal_target", s, 0, Place("own", "job", "j11", "harada"))  # other sector
    s, events = play(s, 0, Place("own", "job", "j05", "pkd"))
    p = s.players[0]
    # Paid D2 C1 F1; 2i; 1R with PKD, whose level-1 perk (Sympathizer) gives a weapon.
    assert (p.weapon, p.data, p.compound, p.favor, p.infamy) == (2, 0, 0, 0, 2)
    assert p.jobs == ("j05",) and p.rep_of("pkd") == 1 and s.supply_of("favor") == 6
    names = kinds(events)
    assert names.index("JobCompleted") < names.index("Gained") < names.index("PerkReached")
    assert "j05" not in s.jobs  # replaced only at I-8.6


def test_a_job_reward_resolves_before_its_infamy() -> None:
    s = placed(
        to_sector(jobs=["j02", "j11", "j21"], holdings={0: {"weapon": 1}}), {0: 1, 1: 3, 2: 5}
    )
    s, events = play(s, 0, Place("own", "job", "j02", "pkd"))
    gains = [(e.what, e.n) for e in events if type(e).__name__ == "Gained"]
    assert gains == [("henchman", 1), ("infamy", 1)]  # Cargo Skim: +1 henchman, 1i, 0R


def test_a_job_space_needs_a_payable_job() -> None:
    s = placed(to_sector(jobs=["j01", "j11", "j21"]), {0: 1, 1: 3, 2: 5})
    refused("cannot_pay", s, 0, Place("own", "job", "j01", "pkd"))


def test_hazards_block_spaces_and_a_watchdog_arriving_later_blocks_the_figure() -> None:
    s = to_sector()
    s = s.__class__(**{**s.__dict__, "hazards": ("1/supply",)})
    s = placed(s, {0: 1, 1: 1, 2: 2})
    refused("hazard_on_space", s, 0, Place("own", "supply"))
    # A Watchdog moved into sector 2 after the choice: that figure is not placed (IR-39).
    s2 = s.__class__(**{**s.__dict__, "watchdogs": (2, 6)})
    s2, events = play(s2, 0, Place("own", "hq"))
    reasons = {e.seat: e.reason for e in events if type(e).__name__ == "FigureNotPlaced"}
    assert reasons == {1: "no_legal_space", 2: "watchdog"} and s2.step == "scheme"


def test_sector_2_recovers_bribes_by_day() -> None:
    s = placed(to_sector(holdings={0: {"available": 7}}), {0: 2, 1: 3, 2: 5})
    s, _ = play(s, 0, Place("own", "supply"))
    assert (s.players[0].available, s.players[0].spent) == (10, 2)


def test_smuggler_day_may_forgo_a_placement() -> None:
    s = make_game(contacts=[["c12", *QUIET[:4]]])
    s, _ = play(s, 0, Bid(1))
    s, _ = play(s, 1, Pass())
    s, _ = play(s, 2, Pass())
    s = pass_contacts(s)
    s = placed(s, {0: 1, 1: 3, 2: 5})
    refused("no_smuggler", s.__class__(**{**s.__dict__, "smuggler": 1}), 0,
            Forgo("own", "data", "trust"))  # fmt: skip
    s, events = play(s, 0, Forgo("own", "data", "trust"))
    assert kinds(events)[0] == "PlacementForgone" and s.players[0].data == 2
    assert len(s.players[0].hand) == 1 and s.actor == 1


# --- I-8.1 schemes -----------------------------------------------------------------------------


def to_schemes(**kw):  # type: ignore[no-untyped-def]
    s = placed(to_sector(**kw), {0: 1, 1: 3, 2: 5})
    while s.step == "place":
        s, _ = play(s, s.actor, minimal_command(s, s.actor))
    assert s.step == "scheme" and s.actor == 0
    return s


def test_schemes_are_played_in_turn_and_payments_are_mandatory() -> None:
    s = to_schemes(hands={0: ["h09", "h05", "h11"], 1: ["m11"]})
    s = give(s, 0, compound=1)
    refused("cannot_pay", s, 0, PlayScheme("h09"))  # Launder: 2 compound (IR-27)
    refused("not_allowed_now", s, 0, PlayScheme("h11"))  # Loyal Soldiers: Night only (IR-29)
    refused("card_not_in_hand", s, 0, PlayScheme("h01"))
    refused("illegal_target", s, 0, PlayScheme("h05", {"rival": 0, "resource": "data"}))
    s, events = play(s, 0, PlayScheme("h05", {"rival": 1, "resource": "data"}))
    assert s.players[0].data == 2 and s.players[1].data == 0 and s.actor == 1
    assert "h05" in s.scheme_discards[0]


def test_informer_network_draws_two_then_discards() -> None:
    s = to_schemes(hands={0: ["t19"]}, schemes={"trust": ["t01", "t02"]})
    s, _ = play(s, 0, PlayScheme("t19", {"decks": ["trust", "trust"]}))
    assert s.step == "scheme" and s.players[0].hand == ("t01", "t02")  # 3.3, 3.8.9
    assert s.in_play == "t19" and "t19" not in s.scheme_discards[1]  # resolving (I-8.1)
    refused("not_allowed_now", s, 0, Pass())  # the discard half of the step
    refused("not_allowed_now", s, 0, PlayScheme("t01", {}))
    s, events = play(s, 0, Discard("t01"))
    assert s.players[0].hand == ("t02",) and s.actor == 1
    assert [(e.card, e.cause) for e in events if type(e).__name__ == "SchemeDiscarded"] == [
        ("t01", "scheme"), ("t19", "resolved")]  # fmt: skip
    assert s.scheme_discards[1][-2:] == ("t01", "t19") and not s.in_play


def test_industrial_espionage_steals_a_random_scheme_shown_only_to_the_two_seats() -> None:
    s = to_schemes(hands={0: ["t15"], 1: ["h01", "h02"]})
    s, events = play(s, 0, PlayScheme("t15", {"rival": 1}))
    stolen = next(e for e in events if type(e).__name__ == "SchemeStolen")
    assert stolen.card in ("h01", "h02") and stolen.card in s.players[0].hand
    assert redact_event(stolen, 2)["card"] is None and redact_event(stolen, 1)["card"]


# --- I-8.2 to I-8.7, I-10 ----------------------------------------------------------------------


def test_the_night_scores_henchmen_and_recovers_bribes() -> None:
    s = to_schemes(holdings={0: {"henchman": 5, "available": 4}})
    s = s.__class__(**{**s.__dict__, "round": 2})  # a Night round
    for seat in (0, 1, 2):
        s, events = play(s, seat, Pass())
    assert "HenchmenScored" in kinds(events) and s.players[0].infamy == 2  # floor(5/2)
    assert s.players[0].available == 12 and s.round == 3  # I-8.5, I-8.7


def test_winner_classes_follow_ir_25() -> None:
    s = make_game()
    s = give(s, 0, infamy=15)
    assert winners(s) == (0,)
    s = give(s, 1, rep={"trust": 5})
    assert winners(s) == (1,)  # rule 3: 5R beats exactly 15i
    s = give(s, 2, infamy=16)
    assert winners(s) == (2,)  # rule 4: more than 15i beats 5R
    s = give(s, 0, infamy=16)
    s = give(s, 0, rep={"trust": 1})
    assert winners(s) == (0,)  # rule 1: then the highest single Reputation... (16 = 16)


def test_the_game_ends_at_the_check_and_everything_is_revealed() -> None:
    s = to_schemes(holdings={1: {"infamy": 15}})
    for seat in (0, 1, 2):
        s, events = play(s, seat, Pass())
    assert s.over and s.winners == (1,) and kinds(events)[-1] == "GameEnded"
    assert view(s, 0)["seed"] == "scenario"
    refused("game_over", s, 0, Pass())


# --- I-11 resigning --------------------------------------------------------------------------


def test_resigning_returns_tokens_and_passes_the_bodyguard() -> None:
    s = make_game(players=4)
    s, _ = play(s, 0, Bid(2))
    s, events = play(s, 0, Resign())  # the high bidder leaves mid-auction (3.8.3)
    assert s.players[0].out and s.bodyguard == 1 and s.auction.high is None
    assert s.supply_of("weapon") == 18 - 3
    refused("not_in_game", s, 0, Pass())
    s, _ = play(s, 2, Resign())
    s, events = play(s, 3, Resign())
    assert s.over and s.winners == (1,)  # one seat left wins (IR-30)


def test_a_resignation_in_the_sealed_step_reveals_when_the_rest_have_committed() -> None:
    s = to_sector(players=4)
    s, _ = play(s, 0, ChooseSector(1))
    s, _ = play(s, 1, ChooseSector(2))
    s, _ = play(s, 2, ChooseSector(3))
    s, events = play(s, 3, Resign())
    assert "SectorsRevealed" in kinds(events) and s.step == "place"
    assert s.choices[3] is None and 3 not in s.order


def test_the_sector_chiefs_winner_resigned_the_lowest_watchdog_goes() -> None:
    from games.infamy import Reward

    s = make_game(players=4, contacts=[["c11", *QUIET[:4]]], watchdog_sector=6)
    s, _ = play(s, 0, Bid(1))
    for seat in (1, 2, 3):
        s, _ = play(s, seat, Pass())
    s, _ = play(s, 0, Reward(sector=2))
    s, _ = play(s, 0, Resign())  # 3.8.5
    s = pass_contacts(s)
    for seat in (1, 2, 3):
        s, _ = play(s, seat, ChooseSector(seat + 2))
    while s.step in ("place", "scheme"):
        s, events = play(s, s.actor, minimal_command(s, s.actor))
    assert s.round == 2 and s.watchdogs == (6,)
    assert len(s.jobs) == 4  # a refill only tops up, to the seats in the game (3.8.4)


def test_an_hq_visit_with_an_empty_faction_deck_draws_nothing() -> None:
    from .builders import give_hand

    s = to_sector(holdings={0: {"rep": {"pkd": 1}}})
    s = give_hand(s, 1, s.deck_of("pkd"))  # the PKD deck is empty, no discards (I-9.4)
    s = placed(s, {0: 1, 1: 3, 2: 5})
    s, events = play(s, 0, Place("own", "hq"))
    assert "SchemesDrawn" not in kinds(events) and s.players[0].hand == ()
