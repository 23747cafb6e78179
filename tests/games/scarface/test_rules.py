"""Focused rule tests of Scarface 1920 stage 1 (specification sections 2, 3 and 8), each
from a dealt game or a patched position (SR-74)."""

from __future__ import annotations

import pytest

from games.core import RuleViolation
from games.scarface.codec import decode_command
from games.scarface.content import STANDIN, starting_cards
from games.scarface.invariants import broken
from games.scarface.rules import decide
from games.scarface.state import Stored, with_changes

from .builders import at_actions, dealt, kinds, player, send, tile


def refused(state, seat, command) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        decide(state, seat, decode_command(command))
    return info.value


# --- setup (S-3) -----------------------------------------------------------------------------


def test_setup_gives_each_gang_its_pieces_and_three_hidden_jobs() -> None:
    state = dealt(4, gangs=["outfit", "wolves", "gems", "northside"])
    for p in state.players:
        assert p.money == 10 and p.crime == 1 and p.boss == 0
        assert len(p.hand) == 3 and len(p.deck) == 3 and len(p.jobs) == 3
        assert sorted(p.hand + p.deck) == sorted(starting_cards(p.gang))
        assert len(p.aside) == 4
        home = STANDIN.homes[p.gang]
        district = STANDIN.tiles[home].district
        assert dict(p.thugs) == {"slums": 4, "safe": 3, "hq": 3, district: 2}
        assert state.tile(home).owner == p.seat and state.tile(home).alcohol == 2
        assert p.cars == (district,) and p.trucks == (district,)
    assert state.police == ("D1",) and state.ness == 0 and state.time == 0
    assert len([c for c in state.market_low if c]) == 5 and len(state.market_high) == 3
    assert state.news_deck[-1] == "w16" and len(state.news_deck) == 5
    assert state.ring is None and state.step == "plan" and not broken(state)


def test_time_marker_starts_by_player_count() -> None:
    assert [dealt(n).time for n in (2, 3, 4)] == [2, 1, 0]


def test_unknown_or_repeated_gang_is_bad_options() -> None:
    from games.scarface.setup import validate_options

    for players in ([{"gang": "outfit"}, {"gang": "outfit"}], [{"gang": "x"}, {"gang": "gems"}]):
        with pytest.raises(RuleViolation) as info:
            validate_options({"players": players}, 2, sandbox=False)
        assert info.value.code == "bad_options"


# --- the plan (S-5.1) ------------------------------------------------------------------------


def test_plan_totals_and_crime_for_each_card_beyond_two() -> None:
    state = dealt(2, stacked={"deck.0": ["outfit-boss", "outfit-s1", "outfit-s3"], "first_seat": 0})
    state, events = send(
        state, 0, {"type": "plan", "cards": ["outfit-boss", "outfit-s1", "outfit-s3"]}
    )
    assert kinds(events)[:2] == ["PlanLaidOut", "CrimeChanged"]
    assert (state.muscle, state.influence) == (1 + 2 + 0, 1 + 0 + 2)
    assert state.players[0].crime == 2 and state.step == "actions"


def test_planning_a_card_not_in_hand_is_refused() -> None:
    state = dealt(2, stacked={"first_seat": 0, "deck.0": ["outfit-s1", "outfit-s2", "outfit-s3"]})
    assert refused(state, 0, {"type": "plan", "cards": ["outfit-boss"]}).code == "card_not_in_hand"
    assert refused(state, 1, {"type": "plan", "cards": ["wolves-boss"]}).code == "not_your_turn"
    assert refused(state, 0, {"type": "end_turn"}).code == "not_allowed_now"


def test_end_turn_discards_the_plan_and_draws_up_to_the_limit() -> None:
    state = dealt(2, stacked={"first_seat": 0})
    card = sorted(state.players[0].hand)[0]
    state, _ = send(state, 0, {"type": "plan", "cards": [card]})
    state, events = send(state, 0, {"type": "end_turn"})
    p = state.players[0]
    assert p.discard == (card,) and len(p.hand) == 3 and len(p.deck) == 2
    assert kinds(events)[:2] == ["CardsDrawn", "TurnEnded"] and state.seat == 1


# --- order refusals in SR-57's precedence ------------------------------------------------


def test_second_order_is_order_used_before_no_thug_in_hq() -> None:
    state = at_actions(dealt(2), influence=3, order_used=True)
    seat = state.seat
    state = player(state, seat, thugs=(("slums", 12),))
    assert refused(state, seat, {"type": "order", "order": "lower_crime"}).code == "order_used"


def test_underworld_orders_need_a_thug_in_hq_then_influence() -> None:
    state = at_actions(dealt(2), influence=0)
    seat = state.seat
    assert (
        refused(state, seat, {"type": "order", "order": "take_job"}).code == "requirement_not_met"
    )
    empty = player(state, seat, thugs=(("slums", 12),))
    assert refused(empty, seat, {"type": "order", "order": "take_job"}).code == "no_thug_in_hq"


def test_a_command_of_another_seat_is_not_your_turn_and_after_the_end_game_over() -> None:
    state = at_actions(dealt(2), influence=2)
    other = 1 - state.seat
    assert refused(state, other, {"type": "order", "order": "take_job"}).code == "not_your_turn"
    over = with_changes(state, over=True)
    assert refused(over, other, {"type": "resign"}).code == "game_over"
    assert refused(state, 7, {"type": "end_turn"}).code == "not_a_player"


# --- the Underworld (S-6.1) ------------------------------------------------------------------


def test_underworld_raises_crime_by_thugs_already_there() -> None:
    state = at_actions(dealt(2), influence=2)
    seat = state.seat
    hq = state.players[seat].at("hq")
    state = player(
        state,
        seat,
        thugs=tuple(
            sorted({**dict(state.players[seat].thugs), "hq": hq - 2, "underworld": 2}.items())
        ),
    )
    state, events = send(
        state, seat, {"type": "order", "order": "recruit_thugs", "steps": ["safe"]}
    )
    assert state.players[seat].crime == 1 + 2 and state.players[seat].at("underworld") == 3


def test_recruit_associate_shifts_the_row_and_takes_the_ring() -> None:
    state = at_actions(dealt(2), influence=3)
    seat = state.seat
    row = list(state.market_low)
    card = next(c for c in row[1:] if STANDIN.associates[c].stars <= 3)
    k = row.index(card)
    top = state.low_deck[0]
    state, events = send(
        state, seat, {"type": "order", "order": "recruit_associate", "associate": card}
    )
    assert state.market_low == (top, *row[:k], *row[k + 1 :])
    assert state.players[seat].discard[-1] == card and state.ring == seat
    assert "RingTaken" in kinds(events) and kinds(events)[-1] == "OrderCarriedOut"


def test_recruit_to_hand_pays_alcohol_exactly() -> None:
    state = at_actions(dealt(2), influence=3)
    seat = state.seat
    home = STANDIN.homes[state.players[seat].gang]
    card = next(c for c in state.market_low if STANDIN.associates[c].stars <= 3)
    wrong = [{"from": home, "good": "alcohol", "n": 2}]
    command = {"type": "order", "order": "recruit_associate", "associate": card, "to": "hand"}
    assert refused(state, seat, {**command, "pay": wrong}).code == "cannot_pay"
    state, _ = send(state, seat, {**command, "pay": [{"from": home, "good": "alcohol", "n": 1}]})
    assert card in state.players[seat].hand and state.tile(home).alcohol == 1


def test_associate_beyond_influence_is_requirement_not_met() -> None:
    state = at_actions(dealt(2), influence=1)
    seat = state.seat
    card = next(c for c in state.market_high)
    command = {"type": "order", "order": "recruit_associate", "associate": card}
    assert refused(state, seat, command).code == "requirement_not_met"
    assert refused(state, seat, {**command, "associate": "a99"}).code == "illegal_target"


def test_take_job_offers_influence_cards_then_choose_keeps_one_hidden() -> None:
    state = at_actions(dealt(2), influence=3)
    seat = state.seat
    top = state.job_deck[:3]
    state, _ = send(state, seat, {"type": "order", "order": "take_job"})
    assert state.step == "choose" and state.offered == top
    assert refused(state, seat, {"type": "end_turn"}).code == "not_allowed_now"
    job = state.players[seat].jobs[0]
    assert refused(state, seat, {"type": "complete_job", "job": job}).code == "not_allowed_now"
    state, events = send(
        state, seat, {"type": "choose", "keep": top[1], "bottom": [top[2], top[0]]}
    )
    assert top[1] in state.players[seat].jobs and state.job_deck[-2:] == (top[2], top[0])
    assert state.step == "actions" and state.order_used
    assert kinds(events) == ["JobKept", "CardsBottomed", "OrderCarriedOut", "StepStarted"]


def test_get_dealer_new_row_and_police_captain_storage() -> None:
    state = at_actions(dealt(2, stacked={"dealers": ["d22", "d01"]}), influence=2)
    seat = state.seat
    state, _ = send(state, seat, {"type": "order", "order": "get_dealer"})
    state, _ = send(state, seat, {"type": "choose", "keep": "d22", "row": "new", "storage": "gun"})
    p = state.players[seat]
    assert p.rows == (("d22",),) and p.stored == (Stored("d22", "gun", 0),)
    assert state.dealer_deck[-1] == "d01"


def test_empty_job_deck_is_illegal_target() -> None:
    state = at_actions(dealt(2), influence=2, job_deck=())
    assert (
        refused(state, state.seat, {"type": "order", "order": "take_job"}).code == "illegal_target"
    )


def test_sell_with_trucks_and_police() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, influence=2)
    state = with_changes(state, police=("D1", "D7"))
    state, events = send(state, 0, {"type": "order", "order": "sell",
                                    "sales": [{"tile": "n18", "pay": [{"from": "n18", "good": "alcohol", "n": 1}]}]})  # fmt: skip
    # The Levee asks 2 alcohol; one truck in D7 waives one; a police car in D7 takes $2
    assert state.tile("n18").alcohol == 1 and state.players[0].money == 10 + 10 - 2
    assert "Sale" in kinds(events)


def test_sell_twice_in_one_tile_is_refused() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, influence=2)
    command = {"type": "order", "order": "sell", "sales": [{"tile": "n18"}, {"tile": "n18"}]}
    assert refused(state, 0, command).code == "illegal_target"


# --- the Authorities (S-6.2) -----------------------------------------------------------------


def test_lower_crime_stops_above_ness() -> None:
    state = at_actions(dealt(2), 0, influence=5, ness=3)
    state = player(state, 0, crime=8)
    state, _ = send(state, 0, {"type": "order", "order": "lower_crime"})
    assert state.players[0].crime == 4 and state.players[0].at("authorities") == 1


def test_free_thugs_needs_two_influence_and_frees_all() -> None:
    state = at_actions(dealt(2), 0, influence=1)
    state = player(state, 0, thugs=(("hq", 3), ("prison", 3), ("safe", 3), ("slums", 3)))
    assert refused(state, 0, {"type": "order", "order": "free_thugs"}).code == "requirement_not_met"
    state = with_changes(state, influence=2)
    state, _ = send(state, 0, {"type": "order", "order": "free_thugs"})
    assert state.players[0].at("hq") == 5 and state.players[0].at("prison") == 0


def test_add_business_limits() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, influence=3)
    state = tile(state, "n18", businesses=("speakeasy", "speakeasy"))
    command = {
        "type": "order",
        "order": "add_business",
        "adds": [{"tile": "n18", "type": "gambling_den"}, {"tile": "n18", "type": "speakeasy"}],
    }
    assert refused(state, 0, command).code == "limit_reached"
    command["adds"] = [{"tile": "n12", "type": "speakeasy"}]
    assert refused(state, 0, command).code == "illegal_target"
    command["adds"] = [{"tile": "n18", "type": "laundry_front"}]
    state, _ = send(state, 0, command)
    assert state.tile("n18").businesses == ("speakeasy", "speakeasy", "laundry_front")


def test_remove_control_needs_five_influence_per_marker() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, influence=4)
    command = {"type": "order", "order": "remove_control", "tiles": ["n12"]}
    assert refused(state, 0, command).code == "requirement_not_met"
    state = with_changes(state, influence=5)
    state, _ = send(state, 0, command)
    assert state.tile("n12").owner is None and state.tile("n12").alcohol == 2


# --- other orders (S-6.3) --------------------------------------------------------------------


def test_send_thugs_presence_and_police_fees() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, muscle=3)
    assert (
        refused(state, 0, {"type": "order", "order": "send_thugs", "to": {"D3": 1}}).code
        == "no_presence"
    )
    assert (
        refused(state, 0, {"type": "order", "order": "send_thugs", "to": {"D7": 4}}).code
        == "no_thug_in_hq"
    )
    state = with_changes(state, police=("D1", "D7"))
    state, _ = send(state, 0, {"type": "order", "order": "send_thugs", "to": {"D7": 2}})
    assert state.players[0].at("D7") == 4 and state.players[0].money == 10 - 4


def test_move_thug_adjacent_and_car_with_riders() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, muscle=4)
    bad = {"type": "order", "order": "move", "moves": [{"what": "thug", "from": "D7", "to": "D4"}]}
    assert refused(state, 0, bad).code == "illegal_target"
    three = {
        "type": "order",
        "order": "move",
        "moves": [{"what": "car", "from": "D7", "to": "D3", "riders": 3}],
    }
    assert refused(state, 0, three).code == "limit_reached"
    command = {
        "type": "order",
        "order": "move",
        "moves": [
            {"what": "car", "from": "D7", "to": "D3", "riders": 2},
            {"what": "truck", "from": "D7", "to": "D1"},
        ],
    }
    state, _ = send(state, 0, command)
    p = state.players[0]
    assert p.cars == ("D3",) and p.trucks == ("D1",) and p.at("D3") == 2 and p.at("D7") == 0
    assert state.players[0].money == 10 - 2  # the truck enters the Loop, one police car


def test_take_needs_attack_above_defence() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, muscle=0)
    # Bronzeville: defence 3; attack = muscle + 2 thugs + 1 car in D7
    state, events = send(state, 0, {"type": "order", "order": "take", "tile": "n17"})
    assert not events[0].won and state.tile("n17").owner is None and state.order_used
    state = at_actions(state, 0, muscle=1, order_used=False)
    state, events = send(state, 0, {"type": "order", "order": "take", "tile": "n17"})
    assert events[0].won and state.tile("n17").owner == 0
    assert (
        refused(at_actions(state, 0), 0, {"type": "order", "order": "take", "tile": "n03"}).code
        == "no_presence"
    )


def test_buy_from_a_row_then_it_is_busy() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, muscle=1, influence=1)
    state = player(state, 0, rows=(("d10",),), stored=(Stored("d10", "alcohol", 0),))
    state, _ = send(state, 0, {"type": "order", "order": "buy", "row": 0})
    assert state.players[0].storage("d10").n == 3 and state.players[0].at("row:0") == 1
    state = at_actions(state, 0, muscle=1, influence=1)
    assert refused(state, 0, {"type": "order", "order": "buy", "row": 0}).code == "row_busy"


def test_upgrade_pays_raises_crime_and_unlocks_a_hat() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, muscle=2, influence=2)
    state = player(state, 0, boss=1)
    command = {"type": "order", "order": "upgrade", "column": "lawyer"}
    assert refused(state, 0, command).code == "bad_command"  # lands on a hat space
    state, _ = send(state, 0, {**command, "hat": {"card": "outfit-h2", "to": "discard"}})
    p = state.players[0]
    assert p.lawyer == 1 and p.boss == 2 and p.money == 7 and p.crime == 2
    assert "outfit-h2" in p.discard and "outfit-h2" not in p.aside


def test_upgrade_at_track_end_is_limit_reached() -> None:
    state = player(at_actions(dealt(2), 0, muscle=5, influence=5), 0, boss=12)
    command = {"type": "order", "order": "upgrade", "column": "lawyer"}
    assert refused(state, 0, command).code == "limit_reached"


# --- skills (S-7) ----------------------------------------------------------------------------


def test_skill_once_per_card_and_targeted_skills_wait_for_stage_two() -> None:
    # rules version 1 (stage 1): a skill with a target is refused (rules 2: test_targeted_skills)
    game = dealt(2, gangs=["outfit", "gems"], rules_version=1)
    state = at_actions(game, 0, plan=("outfit-s4", "outfit-s5"))
    state, _ = send(state, 0, {"type": "skill", "card": "outfit-s4"})
    assert state.players[0].money == 11
    assert refused(state, 0, {"type": "skill", "card": "outfit-s4"}).code == "not_allowed_now"
    assert refused(state, 0, {"type": "skill", "card": "outfit-s5"}).code == "not_allowed_now"
    assert refused(state, 0, {"type": "skill", "card": "outfit-s1"}).code == "illegal_target"


def test_matching_skill_needs_a_match_and_raises_the_plan() -> None:
    state = at_actions(dealt(2), 0, muscle=2, plan=("a20",))
    assert refused(state, 0, {"type": "skill", "card": "a20"}).code == "requirement_not_met"
    state = at_actions(state, 0, muscle=4, plan=("a20", "a16"))
    state, _ = send(state, 0, {"type": "skill", "card": "a20"})
    assert state.muscle == 5


def test_boss_skills_three_uses() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, plan=("outfit-boss",))
    for _ in range(3):
        state, _ = send(state, 0, {"type": "boss_skill", "skill": 1})
    assert state.players[0].money == 16
    assert refused(state, 0, {"type": "boss_skill", "skill": 1}).code == "not_allowed_now"
    # rules version 1: Al Capone's skill 2 (a business marker) has a target
    rules1 = dealt(2, gangs=["outfit", "gems"], rules_version=1)
    fresh = at_actions(rules1, 0, plan=("outfit-boss",))
    assert refused(fresh, 0, {"type": "boss_skill", "skill": 2}).code == "not_allowed_now"


def test_city_treasurer_taxes_each_opponent() -> None:
    state = at_actions(dealt(3), 0, plan=("a09", "a01"))
    state = player(state, 2, money=0)
    state, _ = send(state, 0, {"type": "skill", "card": "a09"})
    assert [p.money for p in state.players] == [11, 9, 0]  # seat 2 has nothing to pay


# --- jobs (S-8) -----------------------------------------------------------------------------


def test_jobs_have_plan_spend_and_permanent() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"]), 0, muscle=5)
    state = player(state, 0, jobs=("j01", "j10", "j27", "j04"), money=10)
    assert refused(state, 0, {"type": "complete_job", "job": "j01"}).code == "job_condition_not_met"
    assert refused(state, 0, {"type": "complete_job", "job": "j04"}).code == "cannot_pay"
    assert refused(state, 0, {"type": "complete_job", "job": "j02"}).code == "card_not_in_hand"
    state, events = send(state, 0, {"type": "complete_job", "job": "j10"})
    assert state.players[0].money == 16 and state.job_discard == ("j10",)
    state, _ = send(state, 0, {"type": "complete_job", "job": "j27"})
    assert state.players[0].done == ("j27",) and state.players[0].money == 10


def test_out_of_turn_job_waits_for_stage_two() -> None:
    state = dealt(2, rules_version=1)  # rules 1: stage 1 (rules 2 allows it, G-8)
    other = 1 - state.seat
    job = state.players[other].jobs[0]
    assert refused(state, other, {"type": "complete_job", "job": job}).code == "not_allowed_now"


def test_plan_job_outside_the_action_phase() -> None:
    state = dealt(2)
    state = player(state, state.seat, jobs=("j10",))
    assert (
        refused(state, state.seat, {"type": "complete_job", "job": "j10"}).code == "not_allowed_now"
    )


# --- raids, Extra! Extra!, the end (S-9, S-10, S-11) ---------------------------------------


def test_crime_rising_to_eleven_raids_after_the_step() -> None:
    state = at_actions(dealt(2, gangs=["outfit", "gems"], stacked={"raids": ["r23"]}), 0,
                       plan=("a24",))  # fmt: skip
    state = with_changes(
        state,
        low_deck=tuple(c for c in state.low_deck if c != "a24"),
        market_low=tuple(None if c == "a24" else c for c in state.market_low),
    )
    state = player(
        state,
        0,
        crime=10,
        thugs=(("D7", 2), ("hq", 3), ("safe", 3), ("underworld", 2), ("slums", 2)),
    )
    state, events = send(state, 0, {"type": "skill", "card": "a24"})
    names = kinds(events)
    assert names[:3] == ["SkillUsed", "CrimeChanged", "RaidStarted"]
    assert "ThugsImprisoned" in names and names[-1] == "RaidEnded"
    assert state.players[0].at("prison") >= 2 and state.crime_raids == 1 and not broken(state)


def test_minimal_game_reaches_prohibition_end_in_35_rounds() -> None:
    from games.scarface.simulate import play

    for seats in (2, 3, 4):
        result = play(seats, f"t5-{seats}", ("minimal",) * seats)
        assert not result.violations and result.ended_by_news
        assert result.rounds == 35 and set(result.reorgs) == {5}
        assert len(result.winners) == seats  # all share the win (T5)


def test_resign_frees_tiles_and_the_last_seat_wins() -> None:
    state = dealt(2, gangs=["outfit", "gems"], stacked={"first_seat": 0})
    state, events = send(state, 1, {"type": "resign"})
    assert state.over and state.winners == (0,) and state.tile("n12").owner is None
    assert refused(state, 0, {"type": "resign"}).code == "game_over"


def test_resign_of_the_active_seat_passes_the_turn() -> None:
    state = dealt(3, stacked={"first_seat": 0})
    state, _ = send(state, 0, {"type": "resign"})
    assert state.seat == 1 and state.step == "plan" and not state.over
    assert refused(state, 0, {"type": "end_turn"}).code == "not_in_game"


@pytest.mark.parametrize("junk", [
    {"type": "order", "order": "fly"}, {"type": "order", "order": "sell", "sales": []},
    {"type": "plan", "cards": []}, {"type": "plan", "cards": "a01"},
    {"type": "order", "order": "take"}, {"type": "order", "order": "take_job", "tile": "n01"},
    {"type": "boss_skill", "skill": 9}, {"type": "skill", "card": 3}, [], {"type": "x"},
    {"type": "order", "order": "sell", "sales": [{"tile": "n18", "pay": [{"from": "n18", "good": "wine", "n": 1}]}]},
])  # fmt: skip
def test_junk_is_bad_command(junk) -> None:
    with pytest.raises(RuleViolation) as info:
        decode_command(junk)
    assert info.value.code == "bad_command"
