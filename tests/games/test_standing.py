"""Standing reactions in the engine: what a seat's preferences answer to an open window."""

from __future__ import annotations

import pytest

from games.family_business import Counter, Pass, RuleViolation
from games.family_business.standing import (
    DECLARED,
    NO_COUNTER,
    PASS_ALL,
    DeclaredCounter,
    Standing,
    check_declared,
    counter_answers,
    current_turn,
    standing_reaction,
)
from tests.games.builders import MOB, card_of, make_state, play, play_kind

A, B, C = MOB[0], MOB[1], MOB[2]
PLAIN = ["TAKE_IT_ON_THE_LAM", "INTRIGUE"]  # cards that answer nothing (two copies each)


def contract_on(target: str, **hands: list[str]):
    """Seat 0 plays a CONTRACT on ``target``; seats 1 and 2 hold ``hands`` (b=..., c=...)."""
    state = make_state(
        3,
        hands={0: ["CONTRACT", "TRUCE"], 1: hands.get("b", PLAIN), 2: hands.get("c", PLAIN)},
    )
    state, _ = play_kind(state, 0, "CONTRACT", target)
    assert state.window is not None
    return state


def test_no_counter_held_passes_by_default() -> None:
    state = contract_on(B[0], b=PLAIN)
    reaction = standing_reaction(state, 1, Standing(), now=0)
    assert reaction is not None and reaction.reason == NO_COUNTER
    assert reaction.command == Pass(state.window.id)
    play(state, 1, reaction.command)  # the engine takes it as the seat's own pass


def test_a_counter_that_answers_the_card_keeps_the_seat_deciding() -> None:
    state = contract_on(B[0], b=["FAMILY_INFLUENCE", "POLICE_PROTECTION"])
    assert standing_reaction(state, 1, Standing(), now=0) is None


def test_a_counter_that_does_not_answer_the_card_is_no_counter() -> None:
    state = contract_on(B[0], b=["FINGER", "SAFE_HOUSE"])  # neither answers a CONTRACT
    reaction = standing_reaction(state, 1, Standing(), now=0)
    assert reaction is not None and reaction.reason == NO_COUNTER


def test_auto_pass_off_leaves_the_seat_to_decide() -> None:
    state = contract_on(B[0], b=PLAIN)
    assert standing_reaction(state, 1, Standing(auto_pass=False), now=0) is None


def test_pass_on_everything_until_a_time() -> None:
    state = contract_on(B[0], b=["FAMILY_INFLUENCE", "POLICE_PROTECTION"])
    standing = Standing(auto_pass=False, pass_until=5_000)
    reaction = standing_reaction(state, 1, standing, now=4_999)
    assert reaction is not None and reaction.reason == PASS_ALL
    assert standing_reaction(state, 1, standing, now=5_000) is None  # it has run out


def test_pass_on_everything_until_the_end_of_the_turn() -> None:
    state = contract_on(B[0], b=["FAMILY_INFLUENCE", "POLICE_PROTECTION"])
    turn = current_turn(state)
    reaction = standing_reaction(state, 1, Standing(pass_turn=turn), now=0)
    assert reaction is not None and reaction.reason == PASS_ALL
    assert standing_reaction(state, 1, Standing(pass_turn=turn - 1), now=0) is None


def test_a_declared_counter_answers_a_contract_on_my_mobsters() -> None:
    state = contract_on(B[0], b=["FAMILY_INFLUENCE", "POLICE_PROTECTION"])
    fi = card_of(state, 1, "FAMILY_INFLUENCE")
    standing = Standing(counters=(DeclaredCounter("FAMILY_INFLUENCE", ("CONTRACT",)),))
    reaction = standing_reaction(state, 1, standing, now=0)
    assert reaction is not None and reaction.reason == DECLARED
    assert reaction.command == Counter(state.window.id, fi)
    _, events = play(state, 1, reaction.command)
    assert type(events[0]).__name__ == "CounterPlayed"


def test_a_declared_counter_for_my_mobsters_leaves_others_attacks_alone() -> None:
    state = contract_on(C[0], b=["FAMILY_INFLUENCE", "POLICE_PROTECTION"])  # seat 2's mobster
    mine = Standing(counters=(DeclaredCounter("FAMILY_INFLUENCE"),))
    assert standing_reaction(state, 1, mine, now=0) is None  # holds a counter: decides
    anyone = Standing(counters=(DeclaredCounter("FAMILY_INFLUENCE", mine_only=False),))
    reaction = standing_reaction(state, 1, anyone, now=0)
    assert reaction is not None and reaction.reason == DECLARED


def test_a_declared_counter_for_another_card_kind_does_not_apply() -> None:
    state = contract_on(B[0], b=["FAMILY_INFLUENCE", "POLICE_PROTECTION"])
    standing = Standing(counters=(DeclaredCounter("FAMILY_INFLUENCE", ("PRIORITY_CONTRACT",)),))
    assert standing_reaction(state, 1, standing, now=0) is None


def test_a_declared_counter_beats_passing_on_everything() -> None:
    state = contract_on(B[0], b=["FAMILY_INFLUENCE", "POLICE_PROTECTION"])
    standing = Standing(pass_until=10**9, counters=(DeclaredCounter("FAMILY_INFLUENCE"),))
    reaction = standing_reaction(state, 1, standing, now=0)
    assert reaction is not None and reaction.reason == DECLARED


def test_declared_mob_power_names_the_attackers_first_mobster_in_front() -> None:
    state = contract_on(B[0], b=["MOB_POWER", "POLICE_PROTECTION"])
    standing = Standing(counters=(DeclaredCounter("MOB_POWER"),))
    reaction = standing_reaction(state, 1, standing, now=0)
    assert reaction is not None and isinstance(reaction.command, Counter)
    assert reaction.command.mobster == state.players[0].crew[0]
    play(state, 1, reaction.command)


def test_nothing_once_the_seat_passed_the_deadline_passed_or_outside_a_window() -> None:
    state = contract_on(B[0], b=PLAIN)
    deadline = state.window.deadline
    assert standing_reaction(state, 1, Standing(), now=deadline) is None
    assert standing_reaction(state, 0, Standing(), now=0) is None  # the card's own player
    passed, _ = play(state, 1, Pass(state.window.id))
    assert standing_reaction(passed, 1, Standing(), now=0) is None
    quiet = make_state(3, hands={0: ["TRUCE"], 1: PLAIN, 2: PLAIN})
    assert standing_reaction(quiet, 1, Standing(pass_until=10**9), now=0) is None


def test_decisions_are_not_reaction_windows() -> None:
    state = make_state(
        3, hands={0: ["HIT", "TRUCE"], 1: PLAIN, 2: PLAIN}, abilities={B[0]: "UNFORGIVING"}
    )
    state, _ = play_kind(state, 0, "HIT", B[0], own=A[0])
    assert state.window is not None and state.window.decision == "unforgiving"
    assert standing_reaction(state, 1, Standing(pass_until=10**9), now=0) is None


def test_declarations_are_checked() -> None:
    check_declared(DeclaredCounter("SAFE_HOUSE", ("VENDETTA",)))
    for bad in (
        DeclaredCounter("CONTRACT"),  # not a counter
        DeclaredCounter("NOPE"),
        DeclaredCounter("FINGER", ("CONTRACT",)),  # FINGER answers TAKE IT ON THE LAM only
    ):
        with pytest.raises(RuleViolation) as refused:
            check_declared(bad)
        assert refused.value.code == "bad_command"
    assert counter_answers()["FINGER"] == ("TAKE_IT_ON_THE_LAM",)
    assert "CONTRACT_NO_FI" not in counter_answers()["FAMILY_INFLUENCE"]
