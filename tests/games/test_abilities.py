"""The advanced rules: the 10 ability cards, one scenario per ability and per clarification
of the rulebook (``shared/rules/rulings.md``, "Advanced rules: ability cards").

Seats play the families in order: seat 0 (``A``), seat 1 (``B``), seat 2 (``C``), seat 3 (``D``).
"""

from __future__ import annotations

import json
from random import Random

import pytest

from games.family_business import (
    ACTION_CARDS,
    CARD_KIND,
    KIND_INFO,
    Kind,
    Options,
    PlayCard,
    Resign,
    decide,
    initial_state,
    legal_commands,
    setup_events,
)
from games.family_business.bots import HeuristicBot, RandomBot
from games.family_business.cards import ABILITY_CARDS, ABILITY_KINDS, Category
from games.family_business.codec import (
    decode_command,
    decode_event,
    decode_state,
    encode_command,
    encode_event,
    encode_state,
)
from games.family_business.commands import CloseWindow, Draw, EndTurn, Unforgiving, UseButcher
from games.family_business.events import (
    AbilityAssigned,
    AbilityUsed,
    ButcherUsed,
    CardsDrawn,
    DecisionOpened,
    DeckShuffled,
    DiscardTaken,
    MobsterEliminated,
    MobsterListed,
    TurnStarted,
    WindowClosed,
)
from games.family_business.invariants import violations
from games.family_business.state import GameState
from games.family_business.view import redact_event, view
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
LAM = "TAKE_IT_ON_THE_LAM"  # 4 copies: a spare card to hold or discard
FILLER = [LAM]  # the hand of a seat that only needs to hold cards


def ability_card(kind: Kind) -> str:
    return next(c for c in ABILITY_CARDS if CARD_KIND[c] is kind)


def next_turn(state: GameState, seat: int = 0) -> tuple[GameState, tuple[object, ...]]:
    """``seat`` discards its first card, so the next seat's turn (and draw step) starts."""
    return play(state, seat, PlayCard(state.players[seat].hand[0], discard=True))


def decision(state: GameState, kind: str) -> str:
    assert state.window is not None and state.window.decision == kind, state.window
    return state.window.id


def listed_at(events: tuple[object, ...]) -> list[tuple[str, int]]:
    return [(e.mobster, e.position) for e in of_type(events, MobsterListed)]  # type: ignore[arg-type]


# --- the cards and the deck ------------------------------------------------------------------


def test_an_advanced_game_shuffles_the_ten_abilities_into_66_cards():
    events = setup_events(3, Options(advanced=True), seed="adv")
    deck = of_type(events, DeckShuffled)[0].cards
    assert len(deck) == 66 and set(ABILITY_CARDS) <= set(deck)
    assert tuple(f"c{i:02d}" for i in range(1, 57)) == ACTION_CARDS  # base ids unchanged
    assert tuple(f"a{i:02d}" for i in range(1, 11)) == ABILITY_CARDS
    state = initial_state(3, Options(advanced=True), seed="adv")
    assert state.advanced and violations(state) == []


def test_every_ability_card_carries_its_reconstructed_text():
    assert len(ABILITY_KINDS) == 10
    for info in ABILITY_KINDS:
        assert info.category is Category.ABILITY and info.copies == 1
        assert info.reconstructed and info.text
        assert KIND_INFO[info.kind] is info
    assert not any(KIND_INFO[CARD_KIND[c]].reconstructed for c in ACTION_CARDS)


def test_the_base_game_refuses_the_advanced_commands():
    state = make_state(2, hands={0: [LAM], 1: [LAM]})
    for command in (EndTurn(), Draw("deck"), UseButcher(("c01",)), Unforgiving("w1", None)):
        assert refused(state, 0, command).code == "bad_command"


# --- assigning an ability ---------------------------------------------------------------------


def test_an_ability_slides_under_an_own_mobster_as_the_card_play_and_cannot_be_countered():
    state = make_state(3, advanced=True, hands={0: ["LIBRARIAN", LAM], 1: [FI, MP], 2: [FI]})
    card = card_of(state, 0, "LIBRARIAN")
    state, events = play_kind(state, 0, "LIBRARIAN", A[3])
    assert types(events)[:2] == ["AbilityAssigned", "TurnStarted"]
    assert state.abilities == ((A[3], card),)
    assert state.window is None and state.turn_seat == 1  # no window; the turn moves on


def test_an_ability_may_go_under_an_own_listed_mobster_but_not_another_players_or_a_taken_one():
    state = make_state(
        2,
        hands={0: ["SHOTGUN", LAM], 1: FILLER},
        hit_list=[A[0]],
        abilities={A[1]: "LIBRARIAN"},
    )
    assert refused(state, 0, PlayCard(card_of(state, 0, "SHOTGUN"), (B[0],))).code == (
        "illegal_target"
    )
    assert refused(state, 0, PlayCard(card_of(state, 0, "SHOTGUN"), (A[1],))).code == (
        "illegal_target"
    )
    options = [o for o in legal_commands(state, 0) if o.kind == "SHOTGUN" and o.command == "play"]
    assert A[0] in options[0].choices["targets"]["mobsters"]
    assert A[1] not in options[0].choices["targets"]["mobsters"]
    state, _ = play_kind(state, 0, "SHOTGUN", A[0])
    assert state.ability_of(A[0]) == ability_card(Kind.SHOTGUN)


def test_an_ability_card_may_simply_be_discarded():
    state = make_state(2, hands={0: ["SHOTGUN", LAM], 1: FILLER}, advanced=True)
    card = card_of(state, 0, "SHOTGUN")
    state, _ = play(state, 0, PlayCard(card, discard=True))
    assert state.discard[-1] == card and state.abilities == ()


def test_when_the_mobster_dies_its_ability_card_goes_to_the_discard_pile():
    state = make_state(2, hands={0: ["HIT"], 1: FILLER}, abilities={B[0]: "LIBRARIAN"})
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    assert state.abilities == ()
    assert ability_card(Kind.LIBRARIAN) in state.discard
    # ...and in a Mob War too
    state = make_state(
        3,
        hands={0: [LAM], 1: FILLER},
        hit_list=[C[0]],
        mob_war=1,
        abilities={C[0]: "POLITICIAN"},
    )
    state, events = next_turn(state)
    assert MobsterEliminated(C[0], "mob_war") in events
    assert ability_card(Kind.POLITICIAN) in state.discard and not state.abilities


# --- LIBRARIAN --------------------------------------------------------------------------------


def test_librarian_raises_the_hand_limit_to_eight():
    state = make_state(2, hands={0: [LAM], 1: [LAM]}, abilities={B[0]: "LIBRARIAN"})
    state, events = next_turn(state)
    assert len(state.players[1].hand) == 8
    assert [e.ability for e in of_type(events, AbilityUsed)] == ["LIBRARIAN"]


# --- DOPPELGANGER -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind", ["CONTRACT", "PRIORITY_CONTRACT", "CONTRACT_NO_COUNTER", "CONTRACT_NO_MP"]
)
def test_doppelganger_is_no_target_of_any_contract_or_priority_contract(kind: str):
    state = make_state(2, hands={0: [kind], 1: FILLER}, abilities={B[0]: "DOPPELGANGER"})
    option = next(o for o in legal_commands(state, 0) if o.command == "play")
    assert B[0] not in option.choices["targets"]["mobsters"]
    assert refused(state, 0, PlayCard(card_of(state, 0, kind), (B[0],))).code == "illegal_target"


def test_doppelganger_is_still_reached_by_double_contract_double_cross_vendetta_and_intrigue():
    shield = {B[0]: "DOPPELGANGER"}
    state = make_state(2, hands={0: ["DOUBLE_CONTRACT"], 1: []}, abilities=shield)
    state, _ = play_kind(state, 0, "DOUBLE_CONTRACT", B[0], B[1])
    assert B[0] in state.hit_list
    state = make_state(2, hands={0: ["DOUBLE_CROSS"], 1: FILLER}, abilities=shield)
    state, _ = play_kind(state, 0, "DOUBLE_CROSS", B[0])
    assert B[0] in state.hit_list
    state = make_state(2, hands={0: ["VENDETTA"], 1: []}, abilities=shield)
    state, events = play_kind(state, 0, "VENDETTA", B[0], B[1])
    assert MobsterListed(B[0], 0) in events  # (the double-rate war takes it at once)
    state = make_state(
        2, hands={0: ["INTRIGUE"], 1: FILLER}, hit_list=[A[0], B[0]], abilities=shield
    )
    state, _ = play_kind(state, 0, "INTRIGUE", B[0], A[0])
    assert state.hit_list == (B[0], A[0])


def test_doppelganger_is_still_reached_by_mob_power():
    state = make_state(2, hands={0: ["CONTRACT", LAM], 1: [MP]}, abilities={A[2]: "DOPPELGANGER"})
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    state, _ = counter(state, 1, MP, A[2])
    assert state.hit_list == (A[2],)


# --- CRIME SCENE CLEANER ----------------------------------------------------------------------


def cleaner_turn() -> GameState:
    """Seat 1 (CRIME SCENE CLEANER, 2 cards) starts its turn: 4 to draw, a discard pile."""
    state = make_state(
        2,
        hands={0: [LAM, LAM], 1: ["INTRIGUE", "INTRIGUE"]},
        deck=["CONTRACT", "CONTRACT", "CONTRACT", "CONTRACT"],
        discard=["MOB_POWER", "FAMILY_INFLUENCE"],
        abilities={B[0]: "CRIME_SCENE_CLEANER"},
    )
    state, _ = next_turn(state)  # seat 0 discards a TRUCE on top of the pile
    return state


def test_crime_scene_cleaner_draws_card_by_card_from_the_deck_or_the_discard_pile():
    state = cleaner_turn()
    window = decision(state, "draw")
    assert state.window is not None and state.window.count == 4
    options = {o.command: o for o in legal_commands(state, 1)}
    assert options["draw"].choices == {"source": ["deck", "discard"]}
    top = state.discard[-1]
    state, events = play(state, 1, Draw("discard"))
    assert DiscardTaken(1, top) in events and top in state.players[1].hand
    assert decision(state, "draw") != window and state.window.count == 3
    state, events = play(state, 1, Draw("deck"))
    assert len(of_type(events, CardsDrawn)[0].cards) == 1
    fi = state.discard[-1]
    state, _ = play(state, 1, Draw("discard"))
    assert CARD_KIND[fi] is FI and fi in state.players[1].hand
    state, _ = play(state, 1, Draw("discard"))  # MOB POWER
    assert state.window is None and len(state.players[1].hand) == 6
    assert [CARD_KIND[c] for c in state.players[1].hand].count(MP) == 1


def test_crime_scene_cleaner_at_the_deadline_draws_the_rest_from_the_deck():
    state = cleaner_turn()
    state, _ = play(state, 1, Draw("discard"))
    window = decision(state, "draw")
    state, events = close(state)
    assert WindowClosed(window, "deadline") in events
    assert len(of_type(events, CardsDrawn)[0].cards) == 3
    assert state.window is None and len(state.players[1].hand) == 6


def test_once_the_discard_pile_is_empty_crime_scene_cleaner_draws_the_rest_from_the_deck():
    state = make_state(2, hands={0: [LAM], 1: []}, abilities={B[0]: "CRIME_SCENE_CLEANER"})
    assert state.discard == ()
    state, _ = next_turn(state)  # the TRUCE is the whole discard pile
    assert decision(state, "draw") and state.window is not None and state.window.count == 6
    state, events = play(state, 1, Draw("discard"))
    assert len(of_type(events, CardsDrawn)[0].cards) == 5
    assert state.window is None and len(state.players[1].hand) == 6
    assert refused(state, 1, Draw("discard")).code == "no_decision"


# --- BUTCHER ----------------------------------------------------------------------------------


def butcher_turn(**kwargs: object) -> GameState:
    hands = {0: [LAM, LAM], 1: ["MASSACRE", LAM, "PAY_OFF"]}
    state = make_state(
        2,
        hands=hands,
        deck=["CONTRACT"] * 6,
        abilities={B[0]: "BUTCHER", **kwargs.pop("abilities", {})},  # type: ignore[dict-item]
        **kwargs,  # type: ignore[arg-type]
    )
    state, _ = next_turn(state)
    return state


def test_butchers_owner_pauses_before_the_draw_step_and_may_discard_and_redraw():
    state = butcher_turn()
    window = decision(state, "draw")
    assert state.window is not None and state.window.count == 3
    assert {o.command for o in legal_commands(state, 1)} == {"draw", "use_butcher", "resign"}
    hand = state.players[1].hand
    state, events = play(state, 1, UseButcher((hand[0], hand[1])))
    assert types(events)[:2] == ["WindowClosed", "ButcherUsed"]
    assert of_type(events, WindowClosed)[0].window == window
    assert len(of_type(events, CardsDrawn)[0].cards) == 5  # 2 redrawn, then 3 for the draw
    assert state.window is None and len(state.players[1].hand) == 6
    assert state.discard[-2:] == (hand[0], hand[1])


def test_butcher_is_once_per_turn_and_does_not_use_the_card_play():
    state = butcher_turn()
    state, _ = play(state, 1, Draw("deck"))
    assert state.window is None and len(state.players[1].hand) == 6
    assert any(o.command == "use_butcher" for o in legal_commands(state, 1))
    state, events = play(state, 1, UseButcher((state.players[1].hand[0],)))
    assert state.turn_seat == 1 and state.window is None  # still seat 1's card play
    assert len(state.players[1].hand) == 6
    assert not any(o.command == "use_butcher" for o in legal_commands(state, 1))
    assert refused(state, 1, UseButcher((state.players[1].hand[0],))).code == "no_ability"
    assert any(o.command == "play" or o.command == "discard" for o in legal_commands(state, 1))


def test_butcher_is_only_for_its_owners_turn():
    state = make_state(2, hands={0: [LAM], 1: [LAM]}, abilities={B[0]: "BUTCHER"})
    assert refused(state, 1, UseButcher((state.players[1].hand[0],))).code == "not_your_turn"


def test_butcher_with_crime_scene_cleaner_may_redraw_the_cards_just_discarded():
    state = butcher_turn(abilities={B[1]: "CRIME_SCENE_CLEANER"})
    massacre = card_of(state, 1, "MASSACRE")
    state, _ = play(state, 1, UseButcher((massacre,)))
    assert decision(state, "draw") and state.window.count == 4
    assert state.discard[-1] == massacre
    state, events = play(state, 1, Draw("discard"))
    assert DiscardTaken(1, massacre) in events and massacre in state.players[1].hand


def test_butchers_pause_ends_at_the_deadline_with_the_draw():
    state = butcher_turn()
    state, events = close(state)
    assert not of_type(events, ButcherUsed) and len(state.players[1].hand) == 6
    assert state.window is None and state.turn_seat == 1


# --- CELEBRITY --------------------------------------------------------------------------------


def test_celebrity_listed_by_an_opponents_card_gives_its_owner_the_next_turn():
    state = make_state(4, hands={0: ["CONTRACT_NO_COUNTER", LAM]}, abilities={C[0]: "CELEBRITY"})
    state, events = play_kind(state, 0, "CONTRACT_NO_COUNTER", C[0])
    assert of_type(events, TurnStarted)[0].seat == 2  # seat 1 is skipped, as if countered
    assert AbilityUsed(2, C[0], "CELEBRITY", "next turn") in events


def test_celebrity_put_on_the_list_by_mob_power_takes_the_turn_instead_of_the_counterer():
    state = make_state(
        4,
        hands={0: ["CONTRACT", LAM], 1: [FI], 2: [MP], 3: [FI]},
        abilities={A[0]: "CELEBRITY"},
    )
    state, _ = play_kind(state, 0, "CONTRACT", C[1])
    state, events = counter(state, 2, MP, A[0])
    assert A[0] in state.hit_list
    assert of_type(events, TurnStarted)[0].seat == 0  # not seat 2, who countered


def test_celebrity_listed_by_its_owners_own_card_or_by_unforgiving_changes_nothing():
    state = make_state(2, hands={0: ["HIT", LAM], 1: FILLER}, abilities={A[0]: "CELEBRITY"})
    state, events = play_kind(state, 0, "HIT", B[0], own=A[0])
    assert A[0] in state.hit_list and of_type(events, TurnStarted)[0].seat == 1
    assert not of_type(events, AbilityUsed)
    # UNFORGIVING's owner lists an opponent's CELEBRITY: the turn order is unchanged.
    state = make_state(
        3,
        hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER},
        abilities={B[0]: "UNFORGIVING", C[0]: "CELEBRITY"},
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    state, events = play(state, 1, Unforgiving(decision(state, "unforgiving"), C[0]))
    assert C[0] in state.hit_list and of_type(events, TurnStarted)[0].seat == 1


# --- UNFORGIVING ------------------------------------------------------------------------------


def test_unforgiving_at_a_start_of_turn_elimination_then_the_turn_goes_on_with_the_draw():
    state = make_state(
        3,
        hands={0: [LAM], 1: [LAM], 2: FILLER},
        hit_list=[C[0], A[0]],
        mob_war=1,
        abilities={C[0]: "UNFORGIVING"},
    )
    state, events = next_turn(state)  # seat 1's turn: the war eliminates C[0]
    assert types(events)[-1] == "DecisionOpened" and not of_type(events, CardsDrawn)
    window = decision(state, "unforgiving")
    assert state.window.seat == 2 and state.window.targets == (C[0],)
    assert state.window.deadline == 10_000
    option = next(o for o in legal_commands(state, 2) if o.command == "unforgiving")
    assert A[0] not in option.choices["mobster"] and B[1] in option.choices["mobster"]
    assert legal_commands(state, 1)[-1].command == "resign" and len(legal_commands(state, 1)) == 1
    state, events = play(state, 2, Unforgiving(window, B[1]))
    assert listed_at(events) == [(B[1], 1)]  # behind A[0], the war having taken C[0]
    assert of_type(events, CardsDrawn)[0].seat == 1  # the turn resumes: seat 1 draws
    assert state.window is None and state.turn_seat == 1


def test_unforgiving_cannot_name_a_mobster_already_on_the_hit_list():
    state = make_state(
        3,
        hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER},
        hit_list=[C[1]],
        abilities={B[0]: "UNFORGIVING"},
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    window = decision(state, "unforgiving")
    assert refused(state, 1, Unforgiving(window, C[1])).code == "illegal_target"
    assert refused(state, 1, Unforgiving(window, B[0])).code == "illegal_target"  # dead
    assert refused(state, 0, Unforgiving(window, C[2])).code == "no_decision"


def test_unforgiving_acts_at_once_before_the_rest_of_the_hit():
    # The owner's pick goes on the Hit List before the HIT player's own mobster.
    state = make_state(
        3,
        hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER},
        hit_list=[C[1]],
        abilities={B[0]: "UNFORGIVING"},
    )
    state, events = play_kind(state, 0, "HIT", B[0], own=A[0])
    assert types(events)[-2:] == ["MobsterEliminated", "DecisionOpened"]
    assert state.hit_list == (C[1],) and A[0] in state.players[0].crew
    assert state.window.then == f"hit:0:{A[0]}" and state.turn_seat == 0
    state, events = play(state, 1, Unforgiving(state.window.id, C[2]))
    assert listed_at(events) == [(C[2], 1), (A[0], 2)]
    assert state.hit_list == (C[1], C[2], A[0]) and of_type(events, TurnStarted)[0].seat == 1


def test_unforgiving_may_name_the_hit_players_own_mobster_which_is_then_skipped():
    state = make_state(
        3, hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER}, abilities={B[0]: "UNFORGIVING"}
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    state, events = play(state, 1, Unforgiving(state.window.id, A[0]))
    assert listed_at(events) == [(A[0], 0)]  # HIT's own listing finds it already listed
    assert state.hit_list == (A[0],) and state.turn_seat == 1


def test_unforgiving_acts_at_once_before_turncoats_mobster_returns():
    # Two players tied at 2 in play: seat 0 picks both sides; B[0] (UNFORGIVING) leaves
    # from the Hit List and A[5] comes back in its place, after B's pick.
    state = make_state(
        2,
        hands={0: ["TURNCOAT", LAM], 1: FILLER},
        crews={0: [A[1]], 1: [B[1]]},
        hit_list=[B[0], A[0]],
        graveyard=[A[5]],
        abilities={B[0]: "UNFORGIVING"},
    )
    state, events = play_kind(state, 0, "TURNCOAT", B[0], A[5])
    assert types(events)[-2:] == ["MobsterEliminated", "DecisionOpened"]
    assert A[5] in state.graveyard  # not back yet: not a candidate
    option = next(o for o in legal_commands(state, 1) if o.command == "unforgiving")
    assert A[5] not in option.choices["mobster"]
    state, events = play(state, 1, Unforgiving(state.window.id, A[1]))
    assert types(events)[:6] == [
        "WindowClosed",
        "MobsterListed",
        "AbilityUsed",
        "MobsterReturned",  # in B[0]'s place, in front of the pick
        "MobWarStarted",  # 5 left in play: the checks run once the card is over
        "TurnStarted",
    ]
    assert of_type(events, MobsterEliminated) == [MobsterEliminated(A[5], "mob_war")]
    assert state.hit_list == (A[0], A[1]) and state.turn_seat == 1


def test_unforgiving_whose_owner_lost_their_last_mobster_to_the_hit_has_no_decision():
    state = make_state(
        3,
        hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER},
        crews={1: [B[0]]},
        abilities={B[0]: "UNFORGIVING"},
    )
    state, events = play_kind(state, 0, "HIT", B[0], own=A[0])
    assert not of_type(events, DecisionOpened) and state.players[1].out
    assert state.hit_list == (A[0],) and state.turn_seat == 2


def test_the_hit_player_resigning_during_unforgiving_leaves_the_rest_of_the_hit_undone():
    state = make_state(
        3, hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER}, abilities={B[0]: "UNFORGIVING"}
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    window = decision(state, "unforgiving")
    state, _ = play(state, 0, Resign())
    assert decision(state, "unforgiving") == window and state.players[0].out
    state, events = play(state, 1, Unforgiving(window, C[1]))
    assert listed_at(events) == [(C[1], 0)]  # HIT's own mobster left with its family
    assert of_type(events, TurnStarted)[0].seat == 1 and state.hit_list == (C[1],)


def test_no_decision_on_unforgiving_means_no_effect_and_the_hit_goes_on():
    state = make_state(
        3, hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER}, abilities={B[0]: "UNFORGIVING"}
    )
    state, events = play_kind(state, 0, "HIT", B[0], own=A[0])
    state, events = close(state)
    assert listed_at(events) == [(A[0], 0)]  # only HIT's own listing
    assert state.hit_list == (A[0],) and of_type(events, TurnStarted)[0].seat == 1
    # ...or declined explicitly
    state = make_state(
        3, hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER}, abilities={B[0]: "UNFORGIVING"}
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    state, events = play(state, 1, Unforgiving(state.window.id, None))
    assert listed_at(events) == [(A[0], 0)] and state.turn_seat == 1


def test_unforgiving_owner_resigning_withdraws_the_decision_and_play_resumes():
    state = make_state(
        3, hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER}, abilities={B[0]: "UNFORGIVING"}
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    state, events = play(state, 1, Resign())
    assert WindowClosed(of_type(events, WindowClosed)[0].window, "withdrawn") in events
    assert state.window is None and state.turn_seat == 2  # seat 1 is out: seat 2 plays


def test_unforgiving_after_the_turn_seat_went_out_in_the_war_passes_the_turn_on():
    state = make_state(
        3,
        hands={0: [LAM], 1: FILLER, 2: FILLER},
        crews={1: 0},
        hit_list=[C[0], B[0]],
        mob_war=2,
        abilities={C[0]: "UNFORGIVING"},
    )
    state, events = next_turn(state)  # seat 1's turn: the war takes C[0] and B[0], seat 1's last
    assert of_type(events, MobsterEliminated)[1].mobster == B[0]
    assert state.players[1].out and decision(state, "unforgiving")
    state, events = play(state, 2, Unforgiving(state.window.id, A[1]))
    assert of_type(events, TurnStarted)[0].seat == 2


# --- SHOTGUN ----------------------------------------------------------------------------------


def shotgun(kind: str, **kwargs: object) -> GameState:
    kwargs.setdefault("hands", {0: [kind, LAM], 1: [FI, MP], 2: [FI]})
    abilities = {A[0]: "SHOTGUN", **kwargs.pop("abilities", {})}  # type: ignore[dict-item]
    return make_state(3, abilities=abilities, **kwargs)  # type: ignore[arg-type]


def test_shotgun_names_a_second_mobster_of_the_same_opponent():
    state = shotgun("CONTRACT", hit_list=[C[5]])
    option = next(o for o in legal_commands(state, 0) if o.kind == "CONTRACT")
    assert option.choices["targets"]["max"] == 2
    state, _ = play_kind(state, 0, "CONTRACT", B[0], B[1])
    assert state.window is not None and state.window.targets == (B[0], B[1])
    state, events = pass_all(state)
    assert listed_at(events) == [(B[0], 1), (B[1], 2)]
    assert AbilityUsed(0, A[0], "SHOTGUN", B[1]) in events


def test_shotgun_targets_must_be_two_mobsters_of_one_opponent():
    state = shotgun("CONTRACT")
    card = card_of(state, 0, "CONTRACT")
    assert refused(state, 0, PlayCard(card, (B[0], C[0]))).code == "illegal_target"
    assert refused(state, 0, PlayCard(card, (B[0], B[0]))).code == "illegal_target"
    plain = make_state(3, hands={0: ["CONTRACT"], 1: FILLER}, advanced=True)
    assert (
        refused(plain, 0, PlayCard(card_of(plain, 0, "CONTRACT"), (B[0], B[1]))).code
        == "illegal_target"
    )
    shielded = shotgun("CONTRACT", abilities={B[1]: "DOPPELGANGER"})
    assert refused(shielded, 0, PlayCard(card, (B[0], B[1]))).code == "illegal_target"


def test_shotgun_counters_affect_only_the_first_target():
    state = shotgun("CONTRACT", hit_list=[C[5]])
    state, _ = play_kind(state, 0, "CONTRACT", B[0], B[1])
    state, events = counter(state, 1, FI)
    assert listed_at(events) == [(B[1], 1)]
    state = shotgun("CONTRACT", hit_list=[C[5]])
    state, _ = play_kind(state, 0, "CONTRACT", B[0], B[1])
    state, events = counter(state, 1, MP, A[3])
    assert listed_at(events) == [(A[3], 1), (B[1], 2)]


def test_shotgun_with_priority_contract_takes_the_first_two_places_first_target_in_front():
    state = shotgun("PRIORITY_CONTRACT", hit_list=[C[5]])
    state, _ = play_kind(state, 0, "PRIORITY_CONTRACT", B[0], B[1])
    state, events = pass_all(state)
    assert state.hit_list == (B[0], B[1], C[5])


def test_shotguns_second_target_still_goes_first_when_a_counter_saves_the_first():
    state = shotgun("PRIORITY_CONTRACT", hit_list=[C[5]])
    state, _ = play_kind(state, 0, "PRIORITY_CONTRACT", B[0], B[1])
    state, _ = counter(state, 1, FI)
    assert state.hit_list == (B[1], C[5])


def test_shotgun_with_early_bird_takes_the_first_two_places():
    state = shotgun("CONTRACT", hit_list=[C[5]], abilities={A[1]: "EARLY_BIRD"})
    state, _ = play_kind(state, 0, "CONTRACT", B[0], B[1])
    state, _ = pass_all(state)
    assert state.hit_list == (B[0], B[1], C[5])


# --- SHORT-TEMPERED ---------------------------------------------------------------------------


def temper(**kwargs: object) -> GameState:
    kwargs.setdefault("hands", {0: ["CONTRACT_NO_COUNTER", "CONTRACT", "AMBUSH", LAM], 1: [FI, MP]})
    abilities = {A[0]: "SHORT_TEMPERED", **kwargs.pop("abilities", {})}  # type: ignore[dict-item]
    players = kwargs.pop("players", 2)
    return make_state(players, abilities=abilities, **kwargs)  # type: ignore[arg-type]


def test_short_tempered_may_play_one_more_attack_card_after_an_attack_resolves():
    state = temper()
    state, events = play_kind(state, 0, "CONTRACT_NO_COUNTER", B[0])
    window = decision(state, "short_tempered")
    assert state.turn_seat == 0 and not of_type(events, TurnStarted)
    kinds = {o.kind for o in legal_commands(state, 0) if o.command == "play"}
    assert kinds == {"CONTRACT", "AMBUSH"}  # attack cards only
    assert any(o.command == "end_turn" for o in legal_commands(state, 0))
    state, events = play_kind(state, 0, "AMBUSH")
    assert WindowClosed(window, "decided") in events
    assert AbilityUsed(0, A[0], "SHORT_TEMPERED", "AMBUSH") in events
    assert state.turn_seat == 1 and state.window is None  # one more only: the turn ends


def test_short_tempered_refuses_other_cards_and_discards_and_ends_by_command_or_deadline():
    state = temper()
    state, _ = play_kind(state, 0, "CONTRACT_NO_COUNTER", B[0])
    assert refused(state, 0, PlayCard(card_of(state, 0, LAM))).code == "not_allowed_now"
    assert (
        refused(state, 0, PlayCard(card_of(state, 0, "AMBUSH"), discard=True)).code
        == "not_allowed_now"
    )
    ended, events = play(state, 0, EndTurn())
    assert ended.turn_seat == 1 and of_type(events, TurnStarted)[0].seat == 1
    timed_out, events = close(state)
    assert timed_out.turn_seat == 1
    assert refused(state, 0, EndTurn(), now=state.window.deadline).code == "window_closed"


def test_short_tempered_ends_as_soon_as_an_opponent_counters():
    state = temper()
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    state, events = counter(state, 1, FI)
    assert state.window is None and state.turn_seat == 1


def test_short_tempered_ends_when_you_target_a_celebrity():
    state = temper(
        players=3, hands={0: ["CONTRACT_NO_COUNTER", "AMBUSH"]}, abilities={C[0]: "CELEBRITY"}
    )
    state, events = play_kind(state, 0, "CONTRACT_NO_COUNTER", C[0])
    assert state.window is None and state.turn_seat == 2


def test_short_tempered_needs_an_attack_played_for_effect():
    state = temper(hands={0: ["TRUCE", "AMBUSH"], 1: FILLER})
    state, _ = play_kind(state, 0, "TRUCE")
    assert state.window is None and state.turn_seat == 1


# --- POLITICIAN -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "extra", "after"),
    [
        (2, (), 8),
        (5, (), 8),
        (6, (), 6),
        (7, (), 7),
        (7, ("LIBRARIAN",), 10),
        (8, ("LIBRARIAN",), 8),
    ],
)
def test_politician_draws_to_the_limit_plus_two_or_skips_drawing(
    held: int, extra: tuple[str, ...], after: int
):
    abilities = {B[0]: "POLITICIAN", **dict(zip([B[1]], extra, strict=False))}
    state = make_state(
        2,
        hands={0: [LAM], 1: ["INTRIGUE"] * 2 + ["CONTRACT"] * (held - 2)},
        abilities=abilities,
    )
    state, events = next_turn(state)
    assert len(state.players[1].hand) == after  # a hand above the limit is kept
    used = [e for e in of_type(events, AbilityUsed) if e.ability == "POLITICIAN"]
    assert used[0].detail == ("skip" if after == held else f"draw {after - held}")


# --- EARLY BIRD -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["CONTRACT_NO_COUNTER", "CONTRACT_NO_MP", "CONTRACT"])
def test_early_bird_puts_the_contracts_target_first_also_for_contracts_without_counters(
    kind: str,
):
    state = make_state(
        2, hands={0: [kind, LAM], 1: []}, hit_list=[B[5]], abilities={A[0]: "EARLY_BIRD"}
    )
    state, events = play_kind(state, 0, kind, B[0])
    assert state.hit_list == (B[0], B[5])
    assert AbilityUsed(0, A[0], "EARLY_BIRD", "first") in events


def test_early_bird_does_not_apply_to_double_contract():
    state = make_state(
        2,
        hands={0: ["DOUBLE_CONTRACT", LAM], 1: []},
        hit_list=[B[5]],
        abilities={A[0]: "EARLY_BIRD"},
    )
    state, _ = play_kind(state, 0, "DOUBLE_CONTRACT", B[0], B[1])
    assert state.hit_list == (B[5], B[0], B[1])


def test_early_bird_puts_mob_powers_mobster_first_too():
    state = make_state(
        2,
        hands={0: ["CONTRACT", LAM], 1: [MP]},
        hit_list=[B[5]],
        abilities={A[0]: "EARLY_BIRD"},
    )
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    state, _ = counter(state, 1, MP, A[2])
    assert state.hit_list == (A[2], B[5])


# --- public abilities, codec, bots ------------------------------------------------------------


def test_views_show_every_ability_with_its_reconstructed_text_and_hide_hands_as_before():
    state = make_state(2, hands={0: ["SHOTGUN", LAM], 1: FILLER}, abilities={B[0]: "CELEBRITY"})
    seen = view(state, 0)
    assert seen["abilities"] == [
        {
            "mobster": {
                "id": B[0],
                "name": seen["abilities"][0]["mobster"]["name"],
                "family": "murder-inc",
            },
            "seat": 1,
            "card": {
                "id": ability_card(Kind.CELEBRITY),
                "kind": "CELEBRITY",
                "name": "Celebrity",
                "category": "ability",
                "text": KIND_INFO[Kind.CELEBRITY].text,
                "reconstructed": True,
            },
        }
    ]
    assert seen["players"][1]["crew"][0]["ability"]["kind"] == "CELEBRITY"
    assert "hand" not in view(state, 1)["players"][0]
    assert "hand" in seen["players"][0]
    assert "abilities" not in view(make_state(2), 0)  # the base game's view is unchanged


def test_decisions_are_windows_with_a_deadline_the_service_can_close():
    state = butcher_turn()
    assert state.window is not None
    assert state.window.waiting_on == (1,)
    assert legal_commands(state, None, now=0) == ()
    due = legal_commands(state, None, now=state.window.deadline)
    assert [o.command for o in due] == ["close_window"]
    assert refused(state, None, CloseWindow(state.window.id)).code == "window_not_expired"
    assert view(state, 0)["window"]["decision"] == "draw"


def test_new_commands_and_events_round_trip_through_json():
    for command in (
        Draw("discard"),
        UseButcher(("c01", "a02")),
        Unforgiving("w3", "al-capone"),
        Unforgiving("w3", None),
        EndTurn(),
    ):
        data = json.loads(json.dumps(encode_command(command)))
        assert decode_command(data) == command
    with pytest.raises(Exception) as err:
        decode_command({"type": "use_butcher", "cards": [1]})
    assert getattr(err.value, "code", None) == "bad_command"
    for event in (
        AbilityAssigned(0, "a01", "LIBRARIAN", "al-capone"),
        AbilityUsed(0, "al-capone", "LIBRARIAN", "limit 8"),
        DecisionOpened("w2", "draw", 0, "a04", "BUTCHER", "al-capone", 3, "play", 10_000),
        DiscardTaken(0, "c01"),
        ButcherUsed(0, "al-capone", ("c01", "c02")),
    ):
        assert decode_event(json.loads(json.dumps(encode_event(event)))) == event
        assert redact_event(event, 1) == encode_event(event)  # all public
    state = butcher_turn(abilities={B[1]: "UNFORGIVING"})
    assert decode_state(json.loads(json.dumps(encode_state(state)))) == state


@pytest.mark.parametrize(
    "bot", [RandomBot(silence=0.0), HeuristicBot()], ids=["random", "heuristic"]
)
def test_bots_take_every_kind_of_decision_legally_and_deterministically(bot: object):
    scenarios = [
        (butcher_turn(), 1),
        (cleaner_turn(), 1),
    ]
    state = temper()
    state, _ = play_kind(state, 0, "CONTRACT_NO_COUNTER", B[0])
    scenarios.append((state, 0))
    state = make_state(
        3, hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER}, abilities={B[0]: "UNFORGIVING"}
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    scenarios.append((state, 1))
    for state, seat in scenarios:
        first = bot.choose(state, seat, Random(5))  # type: ignore[attr-defined]
        again = bot.choose(state, seat, Random(5))  # type: ignore[attr-defined]
        assert first == again and first is not None
        play(state, seat, first)  # legal: the engine accepts it


def test_a_random_advanced_game_keeps_every_invariant():
    from games.family_business.simulate import play_game

    record = play_game(4, [RandomBot(), HeuristicBot()] * 2, "adv-one", advanced=True)
    assert record.violations == [] and record.state.over
    assert decide is not None


# --- flow: decisions in a row, resigning, setup -----------------------------------------------


def test_after_unforgiving_at_the_start_of_a_turn_butchers_owner_gets_the_draw_decision():
    state = make_state(
        3,
        hands={0: [LAM], 1: [LAM], 2: FILLER},
        hit_list=[C[0], A[0]],
        mob_war=1,
        abilities={C[0]: "UNFORGIVING", B[0]: "BUTCHER"},
    )
    state, _ = next_turn(state)
    state, events = play(state, 2, Unforgiving(decision(state, "unforgiving"), None))
    assert types(events) == ["WindowClosed", "DecisionOpened"]
    assert decision(state, "draw") and state.window.seat == 1 and state.window.count == 5
    state, events = play(state, 1, Draw("deck"))
    assert len(state.players[1].hand) == 6 and state.window is None


def test_resigning_at_your_own_decision_passes_the_turn_on():
    state = temper(players=3, hands={0: ["CONTRACT_NO_COUNTER", "AMBUSH"], 1: FILLER})
    state, _ = play_kind(state, 0, "CONTRACT_NO_COUNTER", B[0])
    assert decision(state, "short_tempered")
    state, events = play(state, 0, Resign())
    assert WindowClosed(of_type(events, WindowClosed)[0].window, "withdrawn") in events
    assert state.turn_seat == 1 and state.window is None
    state = butcher_turn()
    state, events = play(state, 1, Resign())
    assert state.over  # two players: the other one wins


def test_another_seat_resigning_leaves_a_decision_open():
    state = make_state(
        3, hands={0: ["HIT", LAM], 1: FILLER, 2: FILLER}, abilities={B[0]: "UNFORGIVING"}
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    window = decision(state, "unforgiving")
    state, _ = play(state, 2, Resign())
    assert decision(state, "unforgiving") == window
    state, events = play(state, 1, Unforgiving(window, A[1]))
    assert of_type(events, TurnStarted)[0].seat == 1


def test_decisions_refuse_reactions_and_reactions_refuse_decisions():
    state = butcher_turn()
    from games.family_business import Pass

    assert refused(state, 1, Pass(state.window.id)).code == "no_window"
    assert refused(state, 0, Draw("deck")).code == "no_decision"
    assert refused(state, 1, PlayCard(state.players[1].hand[0], discard=True)).code == (
        "window_open"
    )
    assert refused(state, 1, Draw("discard")).code == "not_allowed_now"


def test_a_stacked_deck_may_hold_ability_cards_only_with_the_advanced_rules():
    from games.family_business import RuleViolation

    with pytest.raises(RuleViolation) as err:
        setup_events(2, Options(stacked_deck=("a01",)), seed="s")
    assert err.value.code == "bad_command"
    events = setup_events(2, Options(advanced=True, stacked_deck=("a01",)), seed="s")
    assert of_type(events, DeckShuffled)[0].cards[0] == "a01"
