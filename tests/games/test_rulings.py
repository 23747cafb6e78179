"""Scripted scenarios for every ruling of ``shared/rules/rulings.md`` (base game), section by
section: the turn, targets, counters and the reaction window, the Mob War, the end, and the
engine's refusals. Card-by-card effects are in ``test_cards.py``.

Seats play the families in order: seat 0 (``A``), seat 1 (``B``), seat 2 (``C``), seat 3 (``D``).
"""

from __future__ import annotations

import pytest

from games.family_business import (
    CARD_KIND,
    CloseWindow,
    Counter,
    GameState,
    Kind,
    Pass,
    PlayCard,
    Resign,
    RuleViolation,
    decide,
    initial_state,
    setup_events,
)
from games.family_business.events import (
    CardsDealt,
    CardsDrawn,
    CounterPlayed,
    DeckShuffled,
    GameEnded,
    MobsterEliminated,
    MobWarEnded,
    MobWarStarted,
    PlayerOut,
    TurnStarted,
    WindowClosed,
)
from games.family_business.rng import shuffled
from tests.games.builders import (
    MOB,
    card_of,
    close,
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


def contract_window(players: int = 3, **kwargs: object) -> GameState:
    """Seat 0 has played a CONTRACT on B[0]; every opponent holds cards and may answer."""
    hands = {
        0: ["CONTRACT", "CONTRACT"],
        1: ["FAMILY_INFLUENCE", "MOB_POWER"],
        2: ["FAMILY_INFLUENCE", "TRUCE"],
        3: ["FAMILY_INFLUENCE", "INTRIGUE"],
    }
    kwargs.setdefault("hands", {s: h for s, h in hands.items() if s < players})
    state = make_state(players, **kwargs)  # type: ignore[arg-type]
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    assert state.window is not None
    return state


# --- Turn ------------------------------------------------------------------------------------


def test_the_game_starts_with_five_cards_each_and_the_first_seat_drawing_to_six():
    events = setup_events(4, seed="start")
    assert types(events)[:2] == ["GameStarted", "DeckShuffled"]
    assert of_type(events, DeckShuffled)[0].reason == "setup"
    assert [(e.seat, len(e.cards)) for e in of_type(events, CardsDealt)] == [
        (0, 5),
        (1, 5),
        (2, 5),
        (3, 5),
    ]
    assert of_type(events, TurnStarted) == [TurnStarted(0, 1)]
    assert [(e.seat, len(e.cards)) for e in of_type(events, CardsDrawn)] == [(0, 1)]
    state = initial_state(4, seed="start")
    assert [len(p.hand) for p in state.players] == [6, 5, 5, 5]
    assert len(state.deck) == 56 - 21
    assert state.turn_seat == 0 and state.window is None
    assert all(len(p.crew) == 9 for p in state.players)
    assert state.hit_list == () and state.mob_war == 0


def test_the_setup_shuffle_follows_the_seed():
    assert initial_state(3, seed="x").deck == initial_state(3, seed="x").deck
    assert initial_state(3, seed="x").deck != initial_state(3, seed="y").deck


def test_a_player_draws_until_their_hand_holds_six_at_the_start_of_their_turn():
    state = make_state(
        3,
        hands={0: ["TRUCE"], 1: ["FINGER", "MOB_POWER"]},
        deck=["CONTRACT", "HIT", "INTRIGUE", "AMBUSH", "MOB_WAR"],
    )
    state, events = play_kind(state, 0, "TRUCE")
    drawn = of_type(events, CardsDrawn)
    assert [(e.seat, [CARD_KIND[c] for c in e.cards]) for e in drawn] == [
        (1, [Kind.CONTRACT, Kind.HIT, Kind.INTRIGUE, Kind.AMBUSH])
    ]
    assert len(state.players[1].hand) == 6
    assert CARD_KIND[state.deck[0]] is Kind.MOB_WAR


def test_a_player_with_six_or_more_cards_draws_nothing():
    state = make_state(3, hands={0: ["TRUCE"], 1: ["CONTRACT"] * 6})
    state, events = play_kind(state, 0, "TRUCE")
    assert not of_type(events, CardsDrawn)


def test_an_empty_deck_is_replaced_by_the_shuffled_discard_pile_when_a_card_must_be_drawn():
    state = make_state(3, hands={0: ["TRUCE"]}, deck=["HIT", "AMBUSH"], rest="discard")
    state, events = play_kind(state, 0, "TRUCE")
    assert types(events) == [
        "CardPlayed",
        "TurnStarted",
        "CardsDrawn",
        "DeckShuffled",
        "CardsDrawn",
    ]
    first, shuffle, second = events[2:]
    assert [CARD_KIND[c] for c in first.cards] == [Kind.HIT, Kind.AMBUSH]
    assert shuffle.reason == "reshuffle"
    assert len(second.cards) == 4 and second.cards == shuffle.cards[:4]
    assert state.discard == ()
    assert len(state.players[1].hand) == 6


def test_the_reshuffle_is_derived_from_the_game_seed_and_recorded():
    def reshuffle(seed: str) -> DeckShuffled:
        state = make_state(3, hands={0: ["TRUCE"]}, rest="discard", seed=seed)
        pile = (*state.discard, card_of(state, 0, "TRUCE"))
        events = decide(state, 0, PlayCard(card_of(state, 0, "TRUCE")))
        shuffle = of_type(events, DeckShuffled)[0]
        assert shuffle.cards == shuffled(pile, seed, f"reshuffle:{state.shuffles}")
        return shuffle

    assert reshuffle("one") == reshuffle("one")
    assert reshuffle("one").cards != reshuffle("two").cards


def test_a_player_plays_exactly_one_card_then_the_next_seat_clockwise_plays():
    state = make_state(3, hands={0: ["TRUCE", "INTRIGUE"]}, turn_seat=0)
    intrigue = card_of(state, 0, "INTRIGUE")
    state, _ = play_kind(state, 0, "TRUCE")
    assert state.turn_seat == 1
    assert refused(state, 0, PlayCard(intrigue, discard=True)).code == "not_your_turn"


def test_the_turn_wraps_around_from_the_last_seat_to_the_first():
    state = make_state(3, hands={2: ["TRUCE"]}, turn_seat=2)
    state, events = play_kind(state, 2, "TRUCE")
    assert of_type(events, TurnStarted)[0].seat == 0


def test_the_next_turn_skips_a_seat_that_is_out():
    state = make_state(3, hands={0: ["TRUCE"]}, crews={1: 0})
    state, _ = play_kind(state, 0, "TRUCE")
    assert state.turn_seat == 2


def test_a_played_card_goes_on_the_discard_pile_when_played_and_a_counter_on_top_of_it():
    state = contract_window()
    played = state.window.card
    assert state.discard[-1] == played
    fi = card_of(state, 1, FI)
    state, _ = counter(state, 1, FI)
    assert state.discard[-2:] == (played, fi)


# --- Targets (card effects themselves are in test_cards.py) -----------------------------------


def test_cards_that_list_mobsters_only_target_mobsters_in_front_of_their_owner():
    state = make_state(
        3, hands={0: ["CONTRACT", "DOUBLE_CROSS"]}, hit_list=[B[0]], graveyard=[C[0]]
    )
    contract = card_of(state, 0, "CONTRACT")
    cross = card_of(state, 0, "DOUBLE_CROSS")
    for target in (B[0], C[0]):  # listed, dead
        assert refused(state, 0, PlayCard(contract, (target,))).code == "illegal_target"
    assert refused(state, 0, PlayCard(cross, (B[0], C[1]))).code == "illegal_target"
    assert refused(state, 0, PlayCard(cross, (B[1], C[0]))).code == "illegal_target"


# --- Counters and the reaction window -------------------------------------------------------


def test_only_contracts_lam_and_vendetta_open_a_window():
    from games.family_business.cards import KINDS, Category

    opening = {k.kind for k in KINDS if k.category is not Category.COUNTER and k.countered_by}
    assert opening == {
        Kind.CONTRACT,
        Kind.CONTRACT_NO_MP,
        Kind.CONTRACT_NO_FI,
        Kind.PRIORITY_CONTRACT,
        Kind.DOUBLE_CONTRACT,
        Kind.TAKE_IT_ON_THE_LAM,
        Kind.VENDETTA,
    }


def test_every_opponent_in_the_game_holding_a_card_may_counter_even_if_not_affected():
    state = contract_window(4)
    assert state.window.eligible == (1, 2, 3)
    state, events = counter(state, 3, FI)  # seat 3's mobsters are not involved
    assert of_type(events, CounterPlayed)[0].seat == 3
    assert B[0] in state.players[1].crew


def test_an_opponent_with_no_cards_in_hand_is_not_eligible_to_counter():
    state = contract_window(hands={0: ["CONTRACT"], 1: ["FAMILY_INFLUENCE"]})
    assert state.window.eligible == (1,)
    assert refused(state, 2, Pass(state.window.id)).code == "not_eligible"


def test_an_opponent_that_is_out_is_not_eligible_to_counter():
    state = contract_window(hands={0: ["CONTRACT"], 1: ["FAMILY_INFLUENCE"]}, crews={2: 0})
    assert state.window.eligible == (1,)
    assert refused(state, 2, Pass(state.window.id)).code == "not_in_game"


def test_a_card_nobody_can_answer_opens_no_window_and_resolves_at_once():
    state = make_state(3, hands={0: ["CONTRACT"]})
    state, events = play_kind(state, 0, "CONTRACT", B[0])
    assert "WindowOpened" not in types(events)
    assert state.hit_list == (B[0],)
    assert state.turn_seat == 1


def test_the_window_waits_on_an_opponent_holding_no_counter_card():
    state = contract_window(hands={0: ["CONTRACT"], 1: ["FAMILY_INFLUENCE"], 2: ["TRUCE", "HIT"]})
    state, _ = play(state, 1, Pass(state.window.id))
    assert state.window is not None
    assert state.window.waiting_on == (2,)


def test_nobody_counters_their_own_card():
    state = contract_window(hands={0: ["CONTRACT", "FAMILY_INFLUENCE"], 1: ["FAMILY_INFLUENCE"]})
    err = refused(state, 0, Counter(state.window.id, card_of(state, 0, FI)))
    assert err.code == "not_eligible"
    assert refused(state, 0, Pass(state.window.id)).code == "not_eligible"


def test_a_pass_is_final():
    state = contract_window()
    window = state.window.id
    state, _ = play(state, 1, Pass(window))
    assert refused(state, 1, Counter(window, card_of(state, 1, FI))).code == "already_passed"
    assert refused(state, 1, Pass(window)).code == "already_passed"


def test_the_first_counter_wins_and_a_second_one_is_refused_as_window_closed():
    state = contract_window()
    window = state.window.id
    late_card = card_of(state, 2, FI)
    state, _ = counter(state, 1, FI)
    err = refused(state, 2, Counter(window, late_card))
    assert err.code == "window_closed"
    assert err.data["countered_by"] == 1
    assert refused(state, 2, Pass(window)).code == "window_closed"


def test_a_counter_cannot_itself_be_countered():
    state = contract_window()
    state, events = counter(state, 1, FI)
    assert state.window is None
    assert types(events).count("WindowOpened") == 0


def test_the_window_closes_when_every_eligible_opponent_has_passed():
    state = contract_window(4)
    window = state.window.id
    state, events = play(state, 1, Pass(window))
    assert types(events) == ["WindowPassed"]
    state, events = play(state, 3, Pass(window))
    assert state.window is not None and state.window.waiting_on == (2,)
    state, events = play(state, 2, Pass(window))
    assert of_type(events, WindowClosed) == [WindowClosed(window, "all_passed")]
    assert state.hit_list == (B[0],)
    assert state.last_window.reason == "all_passed"


def test_the_system_closes_the_window_at_its_deadline_and_the_card_resolves():
    state = contract_window()
    window = state.window
    err = refused(state, None, CloseWindow(window.id), now=window.deadline - 1)
    assert err.code == "window_not_expired"
    state, events = close(state)
    assert of_type(events, WindowClosed) == [WindowClosed(window.id, "deadline")]
    assert state.hit_list == (B[0],)
    assert state.turn_seat == 1


def test_only_the_system_closes_a_window():
    state = contract_window()
    err = refused(state, 1, CloseWindow(state.window.id), now=state.window.deadline)
    assert err.code == "system_only"


def test_the_window_deadline_follows_the_tables_reaction_time():
    state = make_state(3, hands={0: ["CONTRACT"], 1: ["TRUCE"]}, reaction_seconds=30)
    state, _ = play(state, 0, PlayCard(card_of(state, 0, "CONTRACT"), (B[0],)), now=5_000)
    assert state.window.deadline == 35_000


def test_the_player_who_countered_takes_the_next_turn_and_everyone_between_is_skipped():
    state = contract_window(4)
    hands_before = [p.hand for p in state.players]
    state, events = counter(state, 3, FI)
    assert of_type(events, TurnStarted) == [TurnStarted(3, state.turn)]
    assert state.turn_seat == 3
    assert [p.hand for p in state.players[1:3]] == hands_before[1:3]
    state, _ = play_kind(state, 3, "INTRIGUE", discard=True)
    assert state.turn_seat == 0  # play goes on clockwise from the counterer


def test_the_counterer_simply_draws_up_to_six_with_no_extra_card():
    state = contract_window(4)
    assert len(state.players[3].hand) == 2
    state, events = counter(state, 3, FI)
    assert [(e.seat, len(e.cards)) for e in of_type(events, CardsDrawn)] == [(3, 5)]
    assert len(state.players[3].hand) == 6


def test_a_counter_by_the_next_seat_gives_it_the_turn_as_usual():
    state = contract_window()
    state, _ = counter(state, 1, MP, A[0])
    assert state.turn_seat == 1
    assert state.hit_list == (A[0],)


# --- Mob War ---------------------------------------------------------------------------------


def test_the_war_eliminates_the_front_mobster_at_the_start_of_each_turn():
    state = make_state(
        3, hands={0: ["TRUCE"], 1: ["INTRIGUE"]}, hit_list=[B[0], C[0], A[0]], mob_war=1
    )
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert types(events)[1:3] == ["TurnStarted", "MobsterEliminated"]
    assert of_type(events, MobsterEliminated) == [MobsterEliminated(B[0], "mob_war")]
    assert state.hit_list == (C[0], A[0])
    state, events = play_kind(state, 1, "INTRIGUE", discard=True)
    assert of_type(events, MobsterEliminated) == [MobsterEliminated(C[0], "mob_war")]


def test_the_war_at_double_rate_eliminates_the_front_two_at_the_start_of_each_turn():
    state = make_state(3, hands={0: ["TRUCE"]}, hit_list=[B[0], C[0], A[0]], mob_war=2)
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert [e.mobster for e in of_type(events, MobsterEliminated)] == [B[0], C[0]]
    assert state.hit_list == (A[0],)


def test_a_player_eliminated_at_the_start_of_their_own_turn_passes_it_on_and_the_war_strikes_again():
    state = make_state(
        3,
        hands={0: ["TRUCE"], 1: ["FINGER", "MOB_POWER"]},
        crews={1: 0},
        hit_list=[B[0], C[0], A[0]],
        mob_war=1,
    )
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert types(events) == [
        "CardPlayed",
        "TurnStarted",
        "MobsterEliminated",
        "PlayerOut",
        "TurnStarted",
        "MobsterEliminated",
        "CardsDrawn",
    ]
    assert [e.seat for e in of_type(events, TurnStarted)] == [1, 2]
    assert [e.mobster for e in of_type(events, MobsterEliminated)] == [B[0], C[0]]
    assert len(of_type(events, PlayerOut)[0].discarded) == 2
    assert state.turn_seat == 2
    assert state.hit_list == (A[0],)


def test_a_player_whose_last_mobster_dies_on_another_players_turn_is_out_at_once():
    state = make_state(
        3, hands={0: ["TRUCE"], 2: ["FINGER"]}, crews={2: 0}, hit_list=[C[0], A[0]], mob_war=1
    )
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert [e.seat for e in of_type(events, PlayerOut)] == [2]
    assert state.players[2].out and state.players[2].hand == ()
    assert state.turn_seat == 1
    assert not state.over


def test_a_war_starts_when_the_hit_list_reaches_six():
    five = [B[0], C[0], A[0], B[1], C[1]]
    state = make_state(3, hands={0: ["CONTRACT_NO_COUNTER"]}, hit_list=five)
    assert state.mob_war == 0
    state, events = play_kind(state, 0, "CONTRACT_NO_COUNTER", B[2])
    assert types(events)[1:5] == [
        "MobsterListed",
        "MobWarStarted",
        "TurnStarted",
        "MobsterEliminated",
    ]
    assert of_type(events, MobWarStarted) == [MobWarStarted(1)]
    assert state.hit_list == (C[0], A[0], B[1], C[1], B[2])


def test_a_war_starts_when_six_or_fewer_mobsters_are_left_and_someone_is_listed():
    state = make_state(2, hands={0: ["HIT"]}, crews={0: 4, 1: 3})
    assert len(state.mobsters_in_play()) == 7
    state, events = play_kind(state, 0, "HIT", B[0], own=A[0])
    assert of_type(events, MobWarStarted) == [MobWarStarted(1)]
    assert A[0] in state.graveyard  # killed at the start of seat 1's turn


def test_no_war_starts_with_six_or_fewer_left_while_the_hit_list_is_empty():
    state = make_state(2, hands={0: ["TRUCE", "CONTRACT_NO_COUNTER"]}, crews={0: 3, 1: 3})
    assert state.mob_war == 0
    after, events = play_kind(state, 0, "TRUCE", discard=True)
    assert not of_type(events, MobWarStarted)
    after, events = play_kind(state, 0, "CONTRACT_NO_COUNTER", B[0])
    assert of_type(events, MobWarStarted) == [MobWarStarted(1)]
    assert B[0] in after.graveyard


def test_a_war_ends_as_soon_as_the_hit_list_is_empty():
    # ...by a rescue
    state = make_state(3, hands={0: ["POLICE_PROTECTION"]}, hit_list=[B[0]], mob_war=2)
    state, events = play_kind(state, 0, "POLICE_PROTECTION", B[0])
    assert of_type(events, MobWarEnded) == [MobWarEnded("hit_list_empty")]
    assert state.mob_war == 0
    # ...by its own eliminations at the start of a turn
    state = make_state(3, hands={0: ["TRUCE"]}, hit_list=[B[0]], mob_war=1)
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert types(events)[1:4] == ["TurnStarted", "MobsterEliminated", "MobWarEnded"]
    assert state.mob_war == 0


def test_a_hit_that_kills_the_last_listed_mobster_and_lists_its_own_leaves_the_war_running():
    state = make_state(3, hands={0: ["HIT"]}, hit_list=[B[0]], mob_war=1)
    state, events = play_kind(state, 0, "HIT", B[0], own=A[0])
    assert types(events).index("MobWarEnded") > types(events).index("TurnStarted")
    # the war never paused: it kills A[0] at the start of seat 1's turn, then ends
    assert of_type(events, MobsterEliminated) == [
        MobsterEliminated(B[0], "hit"),
        MobsterEliminated(A[0], "mob_war"),
    ]
    assert state.mob_war == 0


def test_the_war_checks_wait_until_a_card_and_its_counter_have_resolved():
    # a DOUBLE CONTRACT countered by MOB POWER lists two mobsters, the sixth and seventh
    state = make_state(
        3, hands={0: ["DOUBLE_CONTRACT"], 1: ["MOB_POWER"]}, hit_list=[C[0], C[1], C[2], C[3], C[4]]
    )
    state, _ = play_kind(state, 0, "DOUBLE_CONTRACT", B[0], B[1])
    state, events = counter(state, 1, MP, A[0])
    assert types(events).count("MobWarStarted") == 1
    kinds = types(events)
    assert kinds.index("MobWarStarted") > max(
        i for i, t in enumerate(kinds) if t == "MobsterListed"
    )


# --- End -------------------------------------------------------------------------------------


def test_the_last_player_with_mobsters_in_play_wins():
    state = make_state(
        2, hands={0: ["TRUCE"], 1: ["FINGER"]}, crews={1: 0}, hit_list=[B[0], A[0]], mob_war=1
    )
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert of_type(events, GameEnded) == [GameEnded((0,), state.seed)]
    assert state.over and state.winners == (0,)
    assert types(events)[-1] == "GameEnded"


def test_a_game_ending_at_a_turn_start_ends_the_mob_war_first():
    # Seat 1's last mobster dies in the war at the start of its turn, emptying the list.
    state = make_state(2, hands={0: ["TRUCE"]}, crews={1: 0}, hit_list=[B[0]], mob_war=1)
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert types(events)[-3:] == ["PlayerOut", "MobWarEnded", "GameEnded"]
    assert of_type(events, MobWarEnded) == [MobWarEnded("hit_list_empty")]
    assert state.over and state.mob_war == 0 and state.hit_list == ()


def test_a_game_ending_by_a_card_ends_the_mob_war_first():
    # MASSACRE kills seat 1's last mobsters, all of them on the Hit List.
    state = make_state(2, hands={0: ["MASSACRE"]}, crews={1: 0}, hit_list=[B[0], B[1]], mob_war=2)
    state, events = play_kind(state, 0, "MASSACRE")
    assert types(events)[-3:] == ["PlayerOut", "MobWarEnded", "GameEnded"]
    assert state.over and state.winners == (0,) and state.mob_war == 0


def test_a_game_ending_with_mobsters_still_listed_leaves_the_war_as_it_is():
    state = make_state(2, hands={0: ["TRUCE"]}, crews={1: 0}, hit_list=[B[0], A[0]], mob_war=1)
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert state.over and not of_type(events, MobWarEnded) and state.mob_war == 1


def test_a_player_with_only_listed_mobsters_is_still_in_the_game():
    state = make_state(
        2, hands={0: ["TRUCE"]}, crews={1: 0}, hit_list=[A[0], B[0], B[1]], mob_war=1
    )
    state, _ = play_kind(state, 0, "TRUCE", discard=True)
    assert not state.over
    assert state.turn_seat == 1 and state.hit_list == (B[0], B[1])


def test_players_whose_last_mobsters_die_in_the_same_step_share_a_draw():
    state = make_state(
        2, hands={0: ["TRUCE"]}, crews={0: 0, 1: 0}, hit_list=[A[0], B[0]], mob_war=2
    )
    state, _ = play_kind(state, 0, "TRUCE", discard=True)
    assert state.over and state.winners == (0, 1)


def test_the_game_over_refuses_every_command():
    state = make_state(
        2, hands={0: ["TRUCE"], 1: ["FINGER"]}, crews={1: 0}, hit_list=[B[0], A[0]], mob_war=1
    )
    state, _ = play_kind(state, 0, "TRUCE", discard=True)
    assert state.over
    for seat, command in [
        (0, PlayCard("c01")),
        (1, PlayCard("c01")),
        (0, Resign()),
        (0, Pass("w1")),
        (None, CloseWindow("w1")),
    ]:
        assert refused(state, seat, command).code == "game_over"


def test_resigning_on_ones_own_turn_buries_the_family_discards_the_hand_and_passes_the_turn():
    state = make_state(3, hands={0: ["TRUCE", "HIT"]}, hit_list=[A[0], B[0]])
    hand = state.players[0].hand
    state, events = play(state, 0, Resign())
    assert types(events)[0] == "PlayerResigned"
    assert set(A) <= set(state.graveyard)
    assert all(e.cause == "resign" for e in of_type(events, MobsterEliminated))
    assert state.hit_list == (B[0],)
    assert of_type(events, PlayerOut)[0].discarded == hand
    assert set(hand) <= set(state.discard)
    assert state.players[0].out and state.players[0].resigned
    assert state.turn_seat == 1
    assert of_type(events, TurnStarted)[0].seat == 1


def test_resigning_out_of_turn_leaves_the_turn_where_it_is():
    state = make_state(3, hands={0: ["TRUCE"], 2: ["HIT"]})
    state, events = play(state, 2, Resign())
    assert not of_type(events, TurnStarted)
    assert state.turn_seat == 0 and state.players[2].out


def test_resigning_leaving_one_player_makes_them_the_winner():
    state = make_state(2, hands={0: ["TRUCE"]})
    state, _ = play(state, 0, Resign())
    assert state.over and state.winners == (1,)


def test_a_window_opened_by_the_resigners_card_closes_with_no_effect():
    state = contract_window()
    window = state.window.id
    state, events = play(state, 0, Resign())
    assert of_type(events, WindowClosed) == [WindowClosed(window, "withdrawn")]
    assert state.hit_list == ()
    assert B[0] in state.players[1].crew
    assert state.turn_seat == 1


def test_a_resigner_who_was_the_last_one_the_window_waited_on_closes_it():
    state = contract_window()
    window = state.window.id
    state, _ = play(state, 1, Pass(window))
    state, events = play(state, 2, Resign())
    assert WindowClosed(window, "all_passed") in events
    assert state.hit_list == (B[0],)
    assert state.turn_seat == 1


def test_a_pending_target_no_longer_in_play_when_the_card_resolves_is_skipped():
    state = contract_window()
    window = state.window.id
    state, _ = play(state, 1, Resign())  # the target's family leaves the game
    assert state.window is not None and state.window.waiting_on == (2,)
    state, events = play(state, 2, Pass(window))
    assert not types(events).count("MobsterListed")
    assert state.hit_list == ()
    assert state.turn_seat == 2


def test_a_resign_that_empties_the_hit_list_during_a_window_ends_the_war():
    state = make_state(
        3, hands={0: ["CONTRACT"], 1: ["FINGER"], 2: ["FINGER"]}, hit_list=[B[0]], mob_war=1
    )
    state, _ = play_kind(state, 0, "CONTRACT", C[0])
    state, events = play(state, 1, Resign())
    assert of_type(events, MobWarEnded) == [MobWarEnded("hit_list_empty")]
    assert state.mob_war == 0
    state, events = pass_all(state)
    assert state.hit_list == (C[0],)  # the contract resolves; no war kills C[0]


# --- Refusals --------------------------------------------------------------------------------


def test_playing_out_of_turn_is_refused_as_not_your_turn():
    state = make_state(3, hands={0: ["TRUCE"], 1: ["INTRIGUE"]})
    err = refused(state, 1, PlayCard(card_of(state, 1, "INTRIGUE"), discard=True))
    assert err.code == "not_your_turn"


def test_playing_a_card_one_does_not_hold_is_refused_as_card_not_in_hand():
    state = make_state(3, hands={0: ["TRUCE"], 1: ["INTRIGUE"]}, deck=["HIT"])
    for card in (card_of(state, 1, "INTRIGUE"), state.deck[0], "c99"):
        assert refused(state, 0, PlayCard(card, discard=True)).code == "card_not_in_hand"
    state = contract_window()
    err = refused(state, 1, Counter(state.window.id, card_of(state, 2, FI)))
    assert err.code == "card_not_in_hand"


def test_a_card_that_needs_targets_played_without_them_is_refused_as_missing_target():
    state = make_state(3, hands={0: ["CONTRACT"]})
    assert refused(state, 0, PlayCard(card_of(state, 0, "CONTRACT"))).code == "missing_target"


def test_a_target_the_card_does_not_allow_is_refused_as_illegal_target():
    state = make_state(3, hands={0: ["CONTRACT"]})
    err = refused(state, 0, PlayCard(card_of(state, 0, "CONTRACT"), (A[0],)))
    assert err.code == "illegal_target"


def test_playing_a_card_while_a_window_is_open_is_refused_as_window_open():
    state = contract_window()
    other = card_of(state, 0, "CONTRACT")
    assert refused(state, 0, PlayCard(other, discard=True)).code == "window_open"


def test_another_seat_playing_while_a_window_is_open_is_refused_as_not_your_turn_first():
    # Waiting for the window to close would not help: it is still not their turn then.
    state = contract_window()
    fi = card_of(state, 1, FI)
    err = refused(state, 1, PlayCard(fi, discard=True))
    assert err.code == "not_your_turn" and err.data["turn"] == 0


def test_reacting_with_no_window_open_is_refused_as_no_window():
    state = make_state(3, hands={0: ["TRUCE"], 1: ["FAMILY_INFLUENCE"]})
    fi = card_of(state, 1, FI)
    assert refused(state, 1, Pass("w1")).code == "no_window"
    assert refused(state, 1, Counter("w1", fi)).code == "no_window"
    assert refused(state, None, CloseWindow("w1"), now=10**12).code == "no_window"
    state = contract_window()
    assert refused(state, 1, Pass("w7")).code == "no_window"


def test_a_seat_that_is_out_is_refused_as_not_in_game():
    state = make_state(3, hands={0: ["TRUCE"]}, crews={2: 0})
    for command in (PlayCard("c01"), Resign(), Pass("w1")):
        assert refused(state, 2, command).code == "not_in_game"


@pytest.mark.parametrize("seat", [3, -1, None])
def test_a_seat_not_in_the_game_is_refused_as_not_a_player(seat):
    state = make_state(3, hands={0: ["TRUCE"]})
    card = card_of(state, 0, "TRUCE")
    assert refused(state, seat, PlayCard(card, discard=True)).code == "not_a_player"
    assert refused(state, seat, Resign()).code == "not_a_player"


def test_a_game_that_has_not_started_refuses_commands_as_bad_command():
    assert refused(GameState(), 0, Resign()).code == "bad_command"


def test_a_refused_command_changes_nothing_and_records_no_event():
    state = contract_window()
    before = state
    snapshot = repr(state)
    for seat, command in [
        (1, PlayCard(card_of(state, 1, FI))),
        (1, Pass("w9")),
        (0, Pass(state.window.id)),
        (None, CloseWindow(state.window.id)),
    ]:
        with pytest.raises(RuleViolation):
            decide(state, seat, command, now=0)
    assert state == before and repr(state) == snapshot


def test_a_scripted_game_replays_from_its_events_to_the_same_state():
    from games.family_business import replay

    log = list(setup_events(3, seed="replay"))
    state = replay(log)
    for _ in range(6):
        seat = state.turn_seat
        state, events = play(state, seat, PlayCard(state.players[seat].hand[0], discard=True))
        log.extend(events)
    assert replay(log) == state
    assert state.turn == 7
