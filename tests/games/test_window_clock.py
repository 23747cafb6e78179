"""The clock at the window's edge, and counters that name what they do not use."""

from __future__ import annotations

from games.family_business import Counter, legal_commands
from tests.games.builders import MOB, card_of, make_state, play_kind, refused


def _window():
    state = make_state(3, hands={0: ["CONTRACT"], 1: ["FAMILY_INFLUENCE", "MOB_POWER"]})
    state, _ = play_kind(state, 0, "CONTRACT", MOB[1][0], now=1_000)
    assert state.window is not None
    return state


def test_reactions_are_listed_until_the_deadline_and_not_from_it_on() -> None:
    state = _window()
    deadline = state.window.deadline
    before = {o.command for o in legal_commands(state, 1, now=deadline - 1)}
    after = {o.command for o in legal_commands(state, 1, now=deadline)}
    assert {"counter", "pass"} <= before
    assert after == {"resign"}
    assert [o.command for o in legal_commands(state, None, now=deadline)] == ["close_window"]
    assert legal_commands(state, None, now=deadline - 1) == ()


def test_a_counter_other_than_mob_power_may_not_name_a_mobster() -> None:
    state = _window()
    fi = card_of(state, 1, "FAMILY_INFLUENCE")
    error = refused(state, 1, Counter(state.window.id, fi, MOB[0][0]), now=2_000)
    assert error.code == "bad_command"
    assert error.data["fields"] == ["mobster"]
