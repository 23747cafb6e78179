"""Scripted scenarios for every action card of the base game, one table at a time.

Seats play the families in order: seat 0 (``A``) the Capone Mob, seat 1 (``B``) Murder Inc.,
seat 2 (``C``) the Moran Gang, seat 3 (``D``) the Purple Gang. Every scenario starts from
``make_state`` and asserts on the resulting state, the events' types and error codes.
"""

from __future__ import annotations

import pytest

from games.family_business import Kind, PlayCard, RuleViolation, decide, legal_commands
from games.family_business.events import (
    CardPlayed,
    GameEnded,
    MobsterEliminated,
    MobWarEnded,
    MobWarRateChanged,
    MobWarStarted,
    PlayerOut,
    TurnStarted,
    WindowClosed,
    WindowOpened,
)
from tests.games.builders import (
    MOB,
    card_of,
    counter,
    make_state,
    of_type,
    pass_all,
    play,
    play_kind,
    refused,
    types,
)

A, B, C, D = MOB[0], MOB[1], MOB[2], MOB[3]
FI, MP = Kind.FAMILY_INFLUENCE, Kind.MOB_POWER
ALL_COUNTERS = ["FAMILY_INFLUENCE", "MOB_POWER", "FINGER", "SAFE_HOUSE"]


def table(card: str, **kwargs: object):  # type: ignore[no-untyped-def]
    """Three players; seat 0 holds ``card``, seats 1 and 2 hold counters."""
    hands = {
        0: [card, "CONTRACT"],
        1: ["FAMILY_INFLUENCE", "MOB_POWER"],
        2: ["FAMILY_INFLUENCE", "FINGER", "SAFE_HOUSE"],
    }
    return make_state(3, hands=hands, **kwargs)  # type: ignore[arg-type]


def playable(state, seat: int, kind: str) -> bool:  # type: ignore[no-untyped-def]
    card = card_of(state, seat, kind)
    return any(o.command == "play" and o.card == card for o in legal_commands(state, seat))


# --- CONTRACT and its variants ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "counters"),
    [
        ("CONTRACT", {FI, MP}),
        ("CONTRACT_NO_MP", {FI}),
        ("CONTRACT_NO_FI", {MP}),
        ("PRIORITY_CONTRACT", {FI, MP}),
    ],
)
def test_each_contract_opens_a_window_for_exactly_the_counters_it_admits(kind, counters):
    state, events = play_kind(table(kind), 0, kind, B[0])
    assert types(events) == ["CardPlayed", "WindowOpened"]
    assert set(state.window.counters) == counters
    assert state.window.eligible == (1, 2)
    assert state.window.deadline == 10_000
    assert B[0] in state.players[1].crew  # nothing happens before the window closes


@pytest.mark.parametrize(
    ("kind", "counter_kind"),
    [
        ("CONTRACT_NO_MP", "MOB_POWER"),
        ("CONTRACT_NO_FI", "FAMILY_INFLUENCE"),
        ("CONTRACT", "FINGER"),
        ("CONTRACT", "SAFE_HOUSE"),
        ("PRIORITY_CONTRACT", "FINGER"),
        ("DOUBLE_CONTRACT", "SAFE_HOUSE"),
    ],
)
def test_a_counter_the_card_does_not_admit_is_refused_as_not_counterable(kind, counter_kind):
    state = make_state(3, hands={0: [kind], 1: ALL_COUNTERS})
    targets = (B[0], B[1]) if kind == "DOUBLE_CONTRACT" else (B[0],)
    state, _ = play_kind(state, 0, kind, *targets)
    err = refused(state, 1, _counter_cmd(state, 1, counter_kind, A[0]))
    assert err.code == "not_counterable"


def test_a_card_that_is_no_counter_is_refused_as_not_counterable():
    state = make_state(3, hands={0: ["CONTRACT"], 1: ["CONTRACT", "FAMILY_INFLUENCE"]})
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    assert refused(state, 1, _counter_cmd(state, 1, "CONTRACT")).code == "not_counterable"


def _counter_cmd(state, seat, kind, mobster=None):  # type: ignore[no-untyped-def]
    from games.family_business import Counter

    return Counter(state.window.id, card_of(state, seat, kind), mobster)


def test_contract_puts_its_target_at_the_end_of_the_hit_list_once_everyone_passed():
    state = table("CONTRACT", hit_list=[C[0]])
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    state, events = pass_all(state)
    assert state.hit_list == (C[0], B[0])
    assert B[0] not in state.players[1].crew
    assert of_type(events, WindowClosed)[0].reason == "all_passed"
    assert state.window is None
    assert state.turn_seat == 1


def test_contract_on_an_empty_hit_list_puts_its_target_against_the_wall():
    state, _ = play_kind(table("CONTRACT"), 0, "CONTRACT", B[4])
    state, _ = pass_all(state)
    assert state.hit_list == (B[4],)


def test_contract_with_no_counters_opens_no_window_and_resolves_at_once():
    state = make_state(3, hands={0: ["CONTRACT_NO_COUNTER"], 1: ALL_COUNTERS}, hit_list=[C[0]])
    state, events = play_kind(state, 0, "CONTRACT_NO_COUNTER", B[0])
    assert "WindowOpened" not in types(events)
    assert state.window is None
    assert state.hit_list == (C[0], B[0])
    assert state.turn_seat == 1


@pytest.mark.parametrize(
    "kind",
    ["CONTRACT", "CONTRACT_NO_MP", "CONTRACT_NO_FI", "CONTRACT_NO_COUNTER", "PRIORITY_CONTRACT"],
)
def test_contract_refuses_a_target_that_is_not_an_opponents_mobster_in_front_of_them(kind):
    state = make_state(3, hands={0: [kind]}, hit_list=[B[0]], graveyard=[B[1]])
    card = card_of(state, 0, kind)
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    for target in (A[0], B[0], B[1], "no-such-mobster"):  # own, listed, dead, unknown
        assert refused(state, 0, PlayCard(card, (target,))).code == "illegal_target"
    assert refused(state, 0, PlayCard(card, (B[2], C[0]))).code == "illegal_target"


def test_contract_with_every_opponents_mobster_on_the_hit_list_can_only_be_discarded():
    state = make_state(2, hands={0: ["CONTRACT"]}, crews={1: 0}, hit_list=[B[0], B[1]])
    assert not playable(state, 0, "CONTRACT")
    card = card_of(state, 0, "CONTRACT")
    assert refused(state, 0, PlayCard(card, (B[0],))).code == "illegal_target"
    state, events = play(state, 0, PlayCard(card, discard=True))
    assert of_type(events, CardPlayed)[0].discard
    assert state.hit_list == (B[0], B[1])


def test_priority_contract_puts_its_target_against_the_wall():
    state = table("PRIORITY_CONTRACT", hit_list=[C[0], A[5]])
    state, _ = play_kind(state, 0, "PRIORITY_CONTRACT", B[2])
    state, _ = pass_all(state)
    assert state.hit_list == (B[2], C[0], A[5])


@pytest.mark.parametrize("kind", ["CONTRACT", "CONTRACT_NO_MP", "PRIORITY_CONTRACT"])
def test_family_influence_cancels_a_contract(kind):
    state = table(kind, hit_list=[C[0]])
    state, _ = play_kind(state, 0, kind, B[0])
    state, events = counter(state, 1, FI)
    assert state.hit_list == (C[0],)
    assert B[0] in state.players[1].crew
    assert of_type(events, WindowClosed)[0].reason == "countered"


@pytest.mark.parametrize("kind", ["CONTRACT", "CONTRACT_NO_FI"])
def test_mob_power_lists_the_attackers_named_mobster_at_the_end_instead(kind):
    state = table(kind, hit_list=[C[0]])
    state, _ = play_kind(state, 0, kind, B[0])
    state, _ = counter(state, 1, MP, A[3])
    assert state.hit_list == (C[0], A[3])
    assert B[0] in state.players[1].crew
    assert A[3] not in state.players[0].crew


def test_mob_power_against_priority_contract_puts_the_attackers_mobster_against_the_wall():
    state = table("PRIORITY_CONTRACT", hit_list=[C[0]])
    state, _ = play_kind(state, 0, "PRIORITY_CONTRACT", B[0])
    state, _ = counter(state, 1, MP, A[3])
    assert state.hit_list == (A[3], C[0])


def test_mob_power_must_name_one_of_the_attackers_mobsters_in_front_of_them():
    state = table("CONTRACT", hit_list=[A[0]])
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    assert refused(state, 1, _counter_cmd(state, 1, MP)).code == "missing_target"
    for wrong in (A[0], B[1], C[1]):  # the attacker's listed mobster, anyone else's
        assert refused(state, 1, _counter_cmd(state, 1, MP, wrong)).code == "illegal_target"


def test_mob_power_when_the_attacker_has_no_mobster_in_front_works_like_family_influence():
    state = table("CONTRACT", crews={0: 0}, hit_list=[A[0], A[1]])
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    state, _ = counter(state, 1, MP)
    assert state.hit_list == (A[0], A[1])
    assert B[0] in state.players[1].crew
    assert state.turn_seat == 1


def test_mob_power_naming_a_mobster_when_the_attacker_has_none_in_front_is_refused():
    # Nothing to name: a name is refused, never silently dropped.
    state = table("CONTRACT", crews={0: 0}, hit_list=[A[0], A[1]])
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    for named in (A[0], B[1], C[1]):  # the attacker's listed mobster, anyone else's
        err = refused(state, 1, _counter_cmd(state, 1, MP, named))
        assert err.code == "illegal_target" and err.data["choices"] == []


# --- DOUBLE CONTRACT -------------------------------------------------------------------------


def test_double_contract_lists_two_mobsters_of_one_opponent_in_the_named_order():
    state = table("DOUBLE_CONTRACT", hit_list=[C[0]])
    state, events = play_kind(state, 0, "DOUBLE_CONTRACT", B[3], B[1])
    assert set(of_type(events, WindowOpened)[0].counters) == {FI, MP}
    state, _ = pass_all(state)
    assert state.hit_list == (C[0], B[3], B[1])


def test_double_contract_refuses_targets_that_are_not_two_mobsters_of_one_opponent():
    state = make_state(3, hands={0: ["DOUBLE_CONTRACT"]}, hit_list=[B[8]])
    card = card_of(state, 0, "DOUBLE_CONTRACT")
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    for targets in [
        (B[0],),
        (B[0], C[0]),
        (B[0], B[0]),
        (B[0], B[8]),
        (A[0], A[1]),
        (B[0], B[1], B[2]),
    ]:
        assert refused(state, 0, PlayCard(card, targets)).code == "illegal_target", targets


def test_double_contract_names_an_opponents_last_mobster_in_front_twice():
    state = table("DOUBLE_CONTRACT", crews={1: [B[0]]}, hit_list=[B[1]])
    card = card_of(state, 0, "DOUBLE_CONTRACT")
    assert refused(state, 0, PlayCard(card, (B[0],))).code == "illegal_target"
    state, _ = play(state, 0, PlayCard(card, (B[0], B[0])))
    state, _ = pass_all(state)
    assert state.hit_list == (B[1], B[0])


def test_double_contract_countered_by_family_influence_still_lists_the_second_target():
    state = table("DOUBLE_CONTRACT")
    state, _ = play_kind(state, 0, "DOUBLE_CONTRACT", B[0], B[1])
    state, _ = counter(state, 2, FI)
    assert state.hit_list == (B[1],)
    assert B[0] in state.players[1].crew
    assert state.turn_seat == 2


def test_family_influence_against_a_last_mobster_named_twice_saves_only_the_first_naming():
    state = table("DOUBLE_CONTRACT", crews={1: [B[0]]}, hit_list=[C[0]])
    state, _ = play_kind(state, 0, "DOUBLE_CONTRACT", B[0], B[0])
    state, _ = counter(state, 1, FI)
    assert state.hit_list == (C[0], B[0])


def test_double_contract_countered_by_mob_power_lists_the_attackers_mobster_first():
    state = table("DOUBLE_CONTRACT", hit_list=[C[0]])
    state, _ = play_kind(state, 0, "DOUBLE_CONTRACT", B[0], B[1])
    state, _ = counter(state, 1, MP, A[4])
    assert state.hit_list == (C[0], A[4], B[1])
    assert B[0] in state.players[1].crew


def test_double_contract_countered_by_mob_power_with_no_attacker_mobster_lists_only_the_second():
    state = table("DOUBLE_CONTRACT", crews={0: 0}, hit_list=[A[0]])
    state, _ = play_kind(state, 0, "DOUBLE_CONTRACT", B[0], B[1])
    state, _ = counter(state, 1, MP)
    assert state.hit_list == (A[0], B[1])


# --- HIT -------------------------------------------------------------------------------------


def test_hit_eliminates_an_opponents_mobster_then_lists_one_of_the_players_own():
    state = make_state(3, hands={0: ["HIT"], 1: ALL_COUNTERS}, hit_list=[C[0]])
    state, events = play_kind(state, 0, "HIT", B[0], own=A[2])
    assert "WindowOpened" not in types(events)
    assert of_type(events, MobsterEliminated)[0] == MobsterEliminated(B[0], "hit")
    assert state.graveyard[-1] == B[0]
    assert state.hit_list == (C[0], A[2])
    assert state.turn_seat == 1


def test_hit_may_eliminate_a_mobster_on_the_hit_list():
    state = make_state(3, hands={0: ["HIT"]}, hit_list=[C[0], B[0]])
    state, _ = play_kind(state, 0, "HIT", C[0], own=A[0])
    assert state.hit_list == (B[0], A[0])
    assert C[0] in state.graveyard


def test_hit_may_eliminate_one_of_the_players_own_mobsters():
    state = make_state(3, hands={0: ["HIT"]}, hit_list=[A[0]])
    state, _ = play_kind(state, 0, "HIT", A[0], own=A[1])
    assert state.hit_list == (A[1],)
    assert A[0] in state.graveyard
    state = make_state(3, hands={0: ["HIT"]})
    state, _ = play_kind(state, 0, "HIT", A[0], own=A[1])
    assert state.hit_list == (A[1],)


def test_hit_refuses_an_own_mobster_that_is_not_in_front_of_the_player():
    state = make_state(3, hands={0: ["HIT"]}, hit_list=[A[0]], graveyard=[B[1]])
    card = card_of(state, 0, "HIT")
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    assert refused(state, 0, PlayCard(card, (B[1],), own=A[2])).code == "illegal_target"
    for own in (None, A[0], B[0], B[1]):  # none, own listed, an opponent's, a dead one
        err = refused(state, 0, PlayCard(card, (C[0],), own=own))
        assert err.code == "illegal_target", own
    # the victim itself cannot also be the one put on the list
    assert refused(state, 0, PlayCard(card, (A[5],), own=A[5])).code == "illegal_target"


def test_hit_with_every_own_mobster_already_listed_lists_nothing_more():
    state = make_state(3, hands={0: ["HIT"]}, crews={0: 0}, hit_list=[A[0], A[1]])
    card = card_of(state, 0, "HIT")
    assert refused(state, 0, PlayCard(card, (B[0],), own=A[0])).code == "illegal_target"
    state, _ = play(state, 0, PlayCard(card, (B[0],)))
    assert state.hit_list == (A[0], A[1])
    assert B[0] in state.graveyard


def test_hit_on_the_players_last_mobster_puts_them_out():
    state = make_state(3, hands={0: ["HIT", "TRUCE"]}, crews={0: [A[0]]})
    truce = card_of(state, 0, "TRUCE")
    state, events = play_kind(state, 0, "HIT", A[0])
    assert state.players[0].out
    assert of_type(events, PlayerOut)[0].discarded == (truce,)
    assert state.turn_seat == 1


# --- ST. VALENTINE'S DAY MASSACRE ------------------------------------------------------------


def test_massacre_eliminates_every_listed_mobster_and_ends_the_war():
    state = make_state(
        3, hands={0: ["MASSACRE"], 1: ALL_COUNTERS}, hit_list=[B[0], C[0], A[0]], mob_war=2
    )
    state, events = play_kind(state, 0, "MASSACRE")
    assert "WindowOpened" not in types(events)
    assert state.hit_list == ()
    assert {B[0], C[0], A[0]} <= set(state.graveyard)
    assert all(e.cause == "massacre" for e in of_type(events, MobsterEliminated))
    assert of_type(events, MobWarEnded) == [MobWarEnded("hit_list_empty")]
    assert state.mob_war == 0


def test_massacre_on_an_empty_hit_list_does_nothing():
    state = make_state(3, hands={0: ["MASSACRE"]})
    state, events = play_kind(state, 0, "MASSACRE")
    assert types(events)[:2] == ["CardPlayed", "TurnStarted"]
    assert all(len(p.crew) == 9 for p in state.players)


def test_massacre_wiping_out_a_player_puts_them_out_and_discards_their_hand():
    state = make_state(
        3, hands={0: ["MASSACRE"], 1: ["TRUCE", "FINGER"]}, crews={1: 0}, hit_list=[B[0], C[0]]
    )
    state, events = play_kind(state, 0, "MASSACRE")
    out = of_type(events, PlayerOut)
    assert [e.seat for e in out] == [1]
    assert state.players[1].out and state.players[1].hand == ()
    assert set(out[0].discarded) <= set(state.discard)
    assert not state.over
    assert state.turn_seat == 2  # the out seat is skipped


def test_two_players_wiped_out_by_one_massacre_share_a_draw_when_nobody_else_is_left():
    state = make_state(2, hands={0: ["MASSACRE"]}, crews={0: 0, 1: 0}, hit_list=[A[0], B[0]])
    state, events = play_kind(state, 0, "MASSACRE")
    assert state.over
    assert of_type(events, GameEnded)[0].winners == (0, 1)
    assert state.winners == (0, 1)


def test_two_players_wiped_out_by_one_massacre_leave_the_remaining_player_the_winner():
    state = make_state(
        3, hands={0: ["MASSACRE"]}, crews={1: 0, 2: 0}, hit_list=[B[0], C[0], C[1], A[0]]
    )
    state, events = play_kind(state, 0, "MASSACRE")
    assert state.over
    assert state.winners == (0,)
    assert [e.seat for e in of_type(events, PlayerOut)] == [1, 2]


# --- DOUBLE CROSS ----------------------------------------------------------------------------


def test_double_cross_lists_one_mobster_of_each_opponent_in_the_chosen_order():
    state = make_state(4, hands={0: ["DOUBLE_CROSS"], 1: ALL_COUNTERS}, hit_list=[A[0]])
    state, events = play_kind(state, 0, "DOUBLE_CROSS", D[2], B[0], C[5])
    assert "WindowOpened" not in types(events)
    assert state.hit_list == (A[0], D[2], B[0], C[5])


def test_double_cross_skips_an_opponent_with_no_mobster_in_front():
    state = make_state(3, hands={0: ["DOUBLE_CROSS"]}, crews={2: 0}, hit_list=[C[0]])
    card = card_of(state, 0, "DOUBLE_CROSS")
    assert refused(state, 0, PlayCard(card, (B[0], C[0]))).code == "illegal_target"
    state, _ = play(state, 0, PlayCard(card, (B[0],)))
    assert state.hit_list == (C[0], B[0])


def test_double_cross_refuses_anything_but_one_mobster_of_each_opponent():
    state = make_state(3, hands={0: ["DOUBLE_CROSS"]})
    card = card_of(state, 0, "DOUBLE_CROSS")
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    for targets in [
        (B[0],),
        (B[0], B[1]),
        (B[0], B[1], C[0]),
        (B[0], C[0], A[0]),
        (B[0], C[0], C[0]),
    ]:
        assert refused(state, 0, PlayCard(card, targets)).code == "illegal_target", targets


# --- VENDETTA and SAFE HOUSE -----------------------------------------------------------------


def test_vendetta_lists_two_of_each_opponent_in_order_and_starts_a_double_rate_war():
    state = make_state(3, hands={0: ["VENDETTA"], 1: ["CONTRACT"], 2: ["CONTRACT"]})
    state, events = play_kind(state, 0, "VENDETTA", B[0], C[0], B[1], C[1])
    assert of_type(events, WindowOpened)[0].counters == (Kind.SAFE_HOUSE,)
    state, events = pass_all(state)
    assert of_type(events, MobWarStarted) == [MobWarStarted(2)]
    # the war strikes at once at the start of seat 1's turn: the front two die
    assert B[0] in state.graveyard and C[0] in state.graveyard
    assert state.hit_list == (B[1], C[1])
    assert state.mob_war == 2


def test_vendetta_takes_every_mobster_of_an_opponent_with_fewer_than_two_in_front():
    state = make_state(3, hands={0: ["VENDETTA"]}, crews={2: 1}, hit_list=[C[8]])
    card = card_of(state, 0, "VENDETTA")
    assert refused(state, 0, PlayCard(card, (B[0], B[1]))).code == "illegal_target"
    assert refused(state, 0, PlayCard(card, (B[0], C[0]))).code == "illegal_target"
    state, _ = play(state, 0, PlayCard(card, (B[0], C[0], B[1])))  # nobody holds a card
    assert state.hit_list[-2:] == (C[0], B[1])
    assert state.mob_war == 2


def test_safe_house_protects_only_the_countering_players_mobsters_and_the_war_starts_anyway():
    state = make_state(
        3, hands={0: ["VENDETTA"], 1: ["SAFE_HOUSE"], 2: ["CONTRACT"]}, hit_list=[A[8]]
    )
    state, _ = play_kind(state, 0, "VENDETTA", B[0], C[0], B[1], C[1])
    state, events = counter(state, 1, Kind.SAFE_HOUSE)
    assert of_type(events, MobWarStarted) == [MobWarStarted(2)]
    assert state.players[1].crew[:2] == (B[0], B[1])
    assert state.turn_seat == 1
    # seat 1's turn started with the double-rate war: A[8] and C[0] died
    assert A[8] in state.graveyard and C[0] in state.graveyard
    assert state.hit_list == (C[1],)


def test_safe_house_by_an_opponent_who_was_skipped_over_takes_the_next_turn():
    state = make_state(3, hands={0: ["VENDETTA"], 1: ["CONTRACT"], 2: ["SAFE_HOUSE"]})
    state, _ = play_kind(state, 0, "VENDETTA", B[0], C[0], B[1], C[1])
    state, events = counter(state, 2, Kind.SAFE_HOUSE)
    assert [e.seat for e in of_type(events, TurnStarted)] == [2]
    assert C[0] in state.players[2].crew and C[1] in state.players[2].crew
    assert B[0] in state.graveyard and B[1] in state.graveyard  # killed at seat 2's start


def test_vendetta_during_a_normal_war_sets_the_rate_to_two():
    state = make_state(3, hands={0: ["VENDETTA"]}, hit_list=[A[8]], mob_war=1)
    state, events = play_kind(state, 0, "VENDETTA", B[0], C[0], B[1], C[1])
    assert of_type(events, MobWarRateChanged) == [MobWarRateChanged(2)]
    assert state.mob_war == 2


# --- MOB WAR and AMBUSH ----------------------------------------------------------------------


def test_mob_war_starts_a_war_at_normal_rate_that_strikes_at_the_next_turn():
    state = make_state(3, hands={0: ["MOB_WAR"], 1: ALL_COUNTERS}, hit_list=[B[0], C[0]])
    state, events = play_kind(state, 0, "MOB_WAR")
    assert "WindowOpened" not in types(events)
    assert of_type(events, MobWarStarted) == [MobWarStarted(1)]
    assert types(events).index("MobWarStarted") < types(events).index("TurnStarted")
    assert of_type(events, MobsterEliminated) == [MobsterEliminated(B[0], "mob_war")]
    assert state.hit_list == (C[0],)
    assert state.mob_war == 1


def test_mob_war_during_a_double_rate_war_leaves_the_double_rate():
    # Rulebook (AMBUSH, VENDETTA): "The double rate effect persists until the Mob War ends";
    # MOB WAR does not end the war. This overrides the rulings page, which said rate 1.
    state = make_state(3, hands={0: ["MOB_WAR"]}, hit_list=[B[0], C[0], A[0]], mob_war=2)
    state, events = play_kind(state, 0, "MOB_WAR")
    assert of_type(events, MobWarRateChanged) == []
    assert state.mob_war == 2
    assert state.hit_list == (A[0],)  # the next turn's double-rate step took two


def test_mob_war_on_an_empty_hit_list_ends_at_once():
    state = make_state(3, hands={0: ["MOB_WAR"]})
    state, events = play_kind(state, 0, "MOB_WAR")
    assert types(events)[1:3] == ["MobWarStarted", "MobWarEnded"]
    assert of_type(events, MobWarEnded) == [MobWarEnded("hit_list_empty")]
    assert state.mob_war == 0


def test_ambush_starts_a_double_rate_war_that_kills_the_front_two_each_turn():
    state = make_state(3, hands={0: ["AMBUSH"], 1: ALL_COUNTERS}, hit_list=[B[0], C[0], A[0]])
    state, events = play_kind(state, 0, "AMBUSH")
    assert "WindowOpened" not in types(events)
    assert of_type(events, MobWarStarted) == [MobWarStarted(2)]
    assert [e.mobster for e in of_type(events, MobsterEliminated)] == [B[0], C[0]]
    assert state.hit_list == (A[0],)
    assert state.mob_war == 2


def test_ambush_during_a_normal_war_sets_the_rate_to_two():
    state = make_state(3, hands={0: ["AMBUSH"]}, hit_list=[B[0], C[0], A[0]], mob_war=1)
    state, events = play_kind(state, 0, "AMBUSH")
    assert of_type(events, MobWarRateChanged) == [MobWarRateChanged(2)]
    assert state.hit_list == (A[0],)


def test_ambush_on_an_empty_hit_list_ends_at_once():
    state = make_state(3, hands={0: ["AMBUSH"]})
    state, _ = play_kind(state, 0, "AMBUSH")
    assert state.mob_war == 0


# --- TURNCOAT --------------------------------------------------------------------------------


def test_turncoat_swaps_a_mobster_of_the_most_with_a_dead_one_of_the_fewest():
    state = make_state(3, hands={0: ["TURNCOAT"], 1: ALL_COUNTERS}, crews={1: 5, 2: 2})
    state, events = play_kind(state, 0, "TURNCOAT", A[3], C[5])
    assert "WindowOpened" not in types(events)
    assert A[3] in state.graveyard and C[5] not in state.graveyard
    assert state.players[2].crew == (C[0], C[1], C[5])
    assert state.in_play_count(0) == 8


def test_turncoat_counts_listed_mobsters_as_in_play():
    # seat 1 has 4 in front but 6 in play with its 2 listed: it, not seat 0 (5), is the most
    state = make_state(3, hands={0: ["TURNCOAT"]}, crews={0: 5, 1: 4, 2: 2}, hit_list=[B[7], B[8]])
    card = card_of(state, 0, "TURNCOAT")
    assert refused(state, 0, PlayCard(card, (A[0], C[8]))).code == "illegal_target"
    state, _ = play(state, 0, PlayCard(card, (B[7], C[8])))
    assert state.hit_list == (C[8], B[8])


def test_turncoat_returning_mobster_takes_the_leaving_ones_place_on_the_hit_list():
    state = make_state(3, hands={0: ["TURNCOAT"]}, crews={1: 5, 2: 1}, hit_list=[B[0], A[0], C[0]])
    state, _ = play_kind(state, 0, "TURNCOAT", A[0], C[8])
    assert state.hit_list == (B[0], C[8], C[0])
    assert A[0] in state.graveyard
    assert C[8] not in state.players[2].crew


def test_turncoat_refuses_a_leaving_mobster_not_of_the_most_or_a_returning_one_not_of_the_fewest():
    state = make_state(3, hands={0: ["TURNCOAT"]}, crews={1: 5, 2: 2})
    card = card_of(state, 0, "TURNCOAT")
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    for targets in [(B[0], C[5]), (C[0], C[5]), (A[0], B[8]), (A[0], C[0]), (A[0],)]:
        assert refused(state, 0, PlayCard(card, targets)).code == "illegal_target", targets


def test_turncoat_lets_the_player_choose_among_players_tied_for_most_or_fewest():
    state = make_state(4, hands={0: ["TURNCOAT"]}, crews={0: 6, 1: 6, 2: 2, 3: 2})
    card = card_of(state, 0, "TURNCOAT")
    for leaving, returning in [(A[0], C[8]), (B[0], D[8]), (A[1], D[7])]:
        after, _ = play(state, 0, PlayCard(card, (leaving, returning)))
        assert leaving in after.graveyard and returning not in after.graveyard
    assert refused(state, 0, PlayCard(card, (C[0], D[8]))).code == "illegal_target"


def test_turncoat_with_every_player_tied_allows_a_free_choice_even_of_one_player():
    state = make_state(3, hands={0: ["TURNCOAT"]}, crews={0: 4, 1: 4, 2: 4})
    state, _ = play_kind(state, 0, "TURNCOAT", B[0], B[8])
    assert B[0] in state.graveyard
    assert B[8] in state.players[1].crew
    state = make_state(3, hands={0: ["TURNCOAT"]}, crews={0: 4, 1: 4, 2: 4})
    state, _ = play_kind(state, 0, "TURNCOAT", A[0], C[8])
    assert C[8] in state.players[2].crew


def test_turncoat_ignores_eliminated_players_when_counting_the_fewest():
    state = make_state(3, hands={0: ["TURNCOAT"]}, crews={1: 3, 2: 0})
    assert state.players[2].out
    card = card_of(state, 0, "TURNCOAT")
    assert refused(state, 0, PlayCard(card, (A[0], C[0]))).code == "illegal_target"
    state, _ = play(state, 0, PlayCard(card, (A[0], B[8])))
    assert B[8] in state.players[1].crew
    assert state.players[2].out


def test_turncoat_with_no_dead_mobster_of_a_fewest_player_can_only_be_discarded():
    # seat 2 is out (all its mobsters dead); seats 0 and 1 have all nine in play
    state = make_state(3, hands={0: ["TURNCOAT"]}, crews={2: 0})
    assert not playable(state, 0, "TURNCOAT")
    card = card_of(state, 0, "TURNCOAT")
    assert refused(state, 0, PlayCard(card, (A[0], C[0]))).code == "illegal_target"
    state, events = play(state, 0, PlayCard(card, discard=True))
    assert of_type(events, CardPlayed)[0].discard
    assert state.graveyard == tuple(C)


def test_turncoat_at_the_start_of_a_game_can_only_be_discarded():
    state = make_state(3, hands={0: ["TURNCOAT"]})
    assert not playable(state, 0, "TURNCOAT")


# --- TAKE IT ON THE LAM and FINGER; POLICE PROTECTION ----------------------------------------


def test_take_it_on_the_lam_removes_any_one_mobster_from_the_hit_list():
    state = table("TAKE_IT_ON_THE_LAM", hit_list=[B[0], C[0], A[0]])
    state, events = play_kind(state, 0, "TAKE_IT_ON_THE_LAM", C[0])
    assert of_type(events, WindowOpened)[0].counters == (Kind.FINGER,)
    state, _ = pass_all(state)
    assert state.hit_list == (B[0], A[0])
    assert C[0] in state.players[2].crew


def test_finger_cancels_take_it_on_the_lam():
    state = table("TAKE_IT_ON_THE_LAM", hit_list=[A[0], C[0]])
    state, _ = play_kind(state, 0, "TAKE_IT_ON_THE_LAM", A[0])
    state, _ = counter(state, 2, Kind.FINGER)
    assert state.hit_list == (A[0], C[0])
    assert state.turn_seat == 2


@pytest.mark.parametrize("kind", ["TAKE_IT_ON_THE_LAM", "POLICE_PROTECTION"])
def test_rescue_must_name_a_mobster_on_the_hit_list(kind):
    state = make_state(3, hands={0: [kind]}, hit_list=[B[0]], graveyard=[C[0]])
    card = card_of(state, 0, kind)
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    for target in (B[1], C[0], A[0]):
        assert refused(state, 0, PlayCard(card, (target,))).code == "illegal_target"


@pytest.mark.parametrize("kind", ["TAKE_IT_ON_THE_LAM", "POLICE_PROTECTION"])
def test_rescue_cards_with_an_empty_hit_list_can_only_be_discarded(kind):
    assert not playable(make_state(3, hands={0: [kind]}), 0, kind)


def test_police_protection_opens_no_window_and_removes_the_mobster_at_once():
    state = table("POLICE_PROTECTION", hit_list=[B[0], C[0]], mob_war=1)
    state, events = play_kind(state, 0, "POLICE_PROTECTION", B[0])
    assert "WindowOpened" not in types(events)
    assert B[0] in state.players[1].crew
    # the war goes on and takes C[0] at the start of seat 1's turn
    assert state.hit_list == ()
    assert C[0] in state.graveyard


# --- SUBSTITUTION, INTRIGUE ------------------------------------------------------------------


def test_substitution_with_a_mobster_in_front_sends_the_replaced_one_home():
    state = make_state(3, hands={0: ["SUBSTITUTION"]}, hit_list=[B[0], C[0], A[0]])
    state, _ = play_kind(state, 0, "SUBSTITUTION", C[0], B[5])
    assert state.hit_list == (B[0], B[5], A[0])
    assert C[0] in state.players[2].crew
    assert B[5] not in state.players[1].crew


def test_substitution_with_another_listed_mobster_swaps_their_places():
    state = make_state(3, hands={0: ["SUBSTITUTION"]}, hit_list=[A[0], C[0], B[0]])
    state, _ = play_kind(state, 0, "SUBSTITUTION", A[0], B[0])
    assert state.hit_list == (B[0], C[0], A[0])


def test_substitution_refuses_a_first_target_off_the_list_or_a_replacement_not_in_play():
    state = make_state(3, hands={0: ["SUBSTITUTION"]}, hit_list=[A[0]], graveyard=[B[8]])
    card = card_of(state, 0, "SUBSTITUTION")
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    for targets in [(B[0], A[0]), (A[0], A[0]), (A[0], B[8]), (A[0],)]:
        assert refused(state, 0, PlayCard(card, targets)).code == "illegal_target", targets


def test_intrigue_rearranges_the_hit_list():
    state = make_state(3, hands={0: ["INTRIGUE"]}, hit_list=[A[0], B[0], C[0]])
    state, events = play_kind(state, 0, "INTRIGUE", C[0], A[0], B[0])
    assert "WindowOpened" not in types(events)
    assert state.hit_list == (C[0], A[0], B[0])


def test_intrigue_may_neither_add_nor_remove_mobsters():
    state = make_state(3, hands={0: ["INTRIGUE"]}, hit_list=[A[0], B[0], C[0]])
    card = card_of(state, 0, "INTRIGUE")
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    for order in [(C[0], A[0]), (C[0], A[0], B[0], B[1]), (C[0], A[0], A[0]), (C[0], A[0], B[1])]:
        assert refused(state, 0, PlayCard(card, order)).code == "illegal_target", order


# --- TRUCE, PAY OFF, FEDERAL CRACKDOWN -------------------------------------------------------


def test_truce_ends_a_mob_war():
    state = make_state(3, hands={0: ["TRUCE"]}, hit_list=[B[0]], mob_war=2)
    state, events = play_kind(state, 0, "TRUCE")
    assert of_type(events, MobWarEnded) == [MobWarEnded("truce")]
    assert state.mob_war == 0
    assert state.hit_list == (B[0],)  # nobody died at the start of the next turn


def test_truce_with_six_listed_restarts_the_war_at_normal_rate():
    state = make_state(
        3, hands={0: ["TRUCE"]}, mob_war=2, hit_list=[B[0], C[0], A[0], B[1], C[1], A[1]]
    )
    state, events = play_kind(state, 0, "TRUCE")
    assert types(events)[1:3] == ["MobWarEnded", "MobWarStarted"]
    assert of_type(events, MobWarStarted) == [MobWarStarted(1)]
    assert state.mob_war == 1
    assert of_type(events, MobsterEliminated) == [MobsterEliminated(B[0], "mob_war")]


def test_truce_with_six_or_fewer_left_and_someone_listed_restarts_the_war_at_normal_rate():
    state = make_state(2, hands={0: ["TRUCE"]}, crews={0: 3, 1: 2}, hit_list=[B[0]], mob_war=2)
    state, events = play_kind(state, 0, "TRUCE")
    assert of_type(events, MobWarStarted) == [MobWarStarted(1)]
    assert B[0] in state.graveyard


def test_truce_without_a_war_has_no_effect():
    state = make_state(3, hands={0: ["TRUCE"]}, hit_list=[B[0]])
    state, events = play_kind(state, 0, "TRUCE")
    assert not of_type(events, MobWarEnded) and not of_type(events, MobWarStarted)
    assert state.mob_war == 0 and state.hit_list == (B[0],)


def test_pay_off_removes_all_of_one_players_mobsters_from_the_hit_list():
    state = make_state(
        3, hands={0: ["PAY_OFF"], 1: ALL_COUNTERS}, hit_list=[B[0], C[0], B[1], A[0]]
    )
    state, events = play_kind(state, 0, "PAY_OFF", player=1)
    assert "WindowOpened" not in types(events)
    assert state.hit_list == (C[0], A[0])
    assert {B[0], B[1]} <= set(state.players[1].crew)


def test_pay_off_must_name_a_player_with_a_listed_mobster():
    state = make_state(3, hands={0: ["PAY_OFF"]}, hit_list=[B[0]])
    card = card_of(state, 0, "PAY_OFF")
    assert refused(state, 0, PlayCard(card)).code == "missing_target"
    for player in (0, 2, 7):
        assert refused(state, 0, PlayCard(card, player=player)).code == "illegal_target"


def test_pay_off_emptying_the_hit_list_ends_the_war():
    state = make_state(3, hands={0: ["PAY_OFF"]}, hit_list=[B[0], B[1]], mob_war=1)
    state, events = play_kind(state, 0, "PAY_OFF", player=1)
    assert of_type(events, MobWarEnded) == [MobWarEnded("hit_list_empty")]
    assert set(state.players[1].crew) == set(B)  # back home; nobody died


def test_federal_crackdown_returns_every_listed_mobster_to_its_player_and_ends_the_war():
    state = make_state(
        3, hands={0: ["FEDERAL_CRACKDOWN"], 1: ALL_COUNTERS}, hit_list=[B[0], C[0], A[0]], mob_war=2
    )
    state, events = play_kind(state, 0, "FEDERAL_CRACKDOWN")
    assert "WindowOpened" not in types(events)
    assert state.hit_list == ()
    assert state.mob_war == 0
    assert all(len(p.crew) == 9 for p in state.players)


# --- counters on their player's own turn; discarding any card --------------------------------


@pytest.mark.parametrize("kind", ALL_COUNTERS)
def test_a_counter_played_on_its_players_own_turn_is_discarded_with_no_effect(kind):
    state = make_state(3, hands={0: [kind]}, hit_list=[A[0], B[0]], mob_war=1)
    card = card_of(state, 0, kind)
    with pytest.raises(RuleViolation) as refused:  # it takes no targets: nothing to name
        decide(state, 0, PlayCard(card, (A[0],), own=A[1]))
    assert refused.value.code == "bad_command"
    state, events = play(state, 0, PlayCard(card))
    assert of_type(events, CardPlayed)[0].discard
    assert state.discard[-1] == card
    assert types(events)[1] == "TurnStarted"  # no effect, no window
    assert state.turn_seat == 1


@pytest.mark.parametrize(
    "kind", ["CONTRACT", "MOB_WAR", "TRUCE", "MASSACRE", "HIT", "VENDETTA", "FEDERAL_CRACKDOWN"]
)
def test_any_card_may_be_discarded_with_no_effect(kind):
    state = make_state(3, hands={0: [kind], 1: ALL_COUNTERS}, hit_list=[B[0]], mob_war=1)
    state, events = play_kind(state, 0, kind, discard=True)
    assert types(events)[:2] == ["CardPlayed", "TurnStarted"]
    assert of_type(events, CardPlayed)[0].discard
    assert state.mob_war == 0  # the war went on and killed B[0]; nothing else happened
    assert B[0] in state.graveyard
    assert all(len(p.crew) == 9 for p in state.players if p.seat != 1)


def test_safe_house_sheltering_every_target_still_starts_the_war_which_ends_on_an_empty_list():
    state = make_state(2, hands={0: ["VENDETTA"], 1: ["SAFE_HOUSE"]})
    state, _ = play_kind(state, 0, "VENDETTA", B[0], B[1])
    state, events = counter(state, 1, Kind.SAFE_HOUSE)
    assert types(events)[2:5] == ["MobWarStarted", "MobWarEnded", "TurnStarted"]
    assert state.hit_list == () and state.mob_war == 0


def test_only_the_counters_a_card_admits_are_offered_to_an_opponent():
    state = make_state(3, hands={0: ["CONTRACT_NO_MP"], 1: ALL_COUNTERS})
    state, _ = play_kind(state, 0, "CONTRACT_NO_MP", B[0])
    offered = {(o.command, o.kind) for o in legal_commands(state, 1)}
    assert offered == {("counter", FI), ("pass", None), ("resign", None)}
    state = make_state(3, hands={0: ["CONTRACT"], 1: ALL_COUNTERS})
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    mob_power = next(o for o in legal_commands(state, 1) if o.kind == MP)
    assert mob_power.choices == {"mobster": list(A)}
