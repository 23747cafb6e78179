"""Out-of-turn jobs (S-8.1, S-8.4; G-8, SR-18, SR-65, SR-69), rules 2: any seat in the game
completes a job without a Plan condition while another seat is awaited, never inside an
automatic resolution; the awaited seat and the ``step_key`` stay as they were. Rules 1
(stage 1) refuses them."""

from __future__ import annotations

import pytest

from games.core import RuleViolation
from games.scarface.codec import decode_command
from games.scarface.game import GAME
from games.scarface.rules import decide
from games.scarface.state import GameState, with_changes

from .builders import at_actions, dealt, kinds, player, send, tile


def refused(state: GameState, seat: int, command: dict[str, object]) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        decide(state, seat, decode_command(command))
    return info.value


def job_code(state: GameState, seat: int, job: str) -> str:
    return refused(state, seat, {"type": "complete_job", "job": job}).code


def game(rules_version: int = 2) -> tuple[GameState, int, int]:
    """A 3-seat game at its first plan step: (state, the awaited seat, another seat)."""
    state = dealt(3, rules_version=rules_version)
    active = state.seat
    return state, active, (active + 1) % 3


def with_three_tiles(state: GameState, seat: int) -> GameState:
    """``seat`` controls three tiles (Protection Money's Have condition)."""
    free = [t.id for t in state.tiles if t.owner is None]
    for tid in free[: 3 - len(state.controlled(seat))]:
        state = tile(state, tid, owner=seat)
    return state


def test_a_seat_completes_a_spend_job_on_another_seats_step() -> None:
    state, active, other = game()
    state = player(state, other, jobs=("j27", "j10"), money=10)
    before = GAME.status(state)
    assert before.awaiting == (active,) and other in before.out_of_turn
    assert before.acting_out_of_turn(other) and before.may_act(other)
    assert not before.acting_out_of_turn(active) and before.may_act(active)
    state, events = send(state, other, {"type": "complete_job", "job": "j27"})
    assert kinds(events) == ["JobCompleted", "MoneyChanged"]
    assert state.players[other].done == ("j27",) and state.players[other].money == 4
    after = GAME.status(state)
    assert after.awaiting == before.awaiting and after.step_key == before.step_key  # SR-69
    assert state.step == "plan" and state.seat == active


def test_a_seat_completes_a_have_job_on_another_seats_action_phase() -> None:
    state, active, other = game()
    state = at_actions(state, active, muscle=5, influence=2)
    state = with_three_tiles(player(state, other, jobs=("j01",), money=10), other)
    key = GAME.status(state).step_key
    state, events = send(state, other, {"type": "complete_job", "job": "j01"})
    assert kinds(events)[0] == "JobCompleted" and state.players[other].money == 16
    assert state.job_discard == ("j01",)
    assert GAME.status(state).awaiting == (active,) and GAME.status(state).step_key == key
    # the awaited seat's phase goes on as it was: its plan, its order still unused
    assert state.muscle == 5 and not state.order_used


def test_plan_jobs_are_refused_out_of_turn() -> None:
    state, active, other = game()
    state = at_actions(state, active, muscle=9, influence=9)
    state = player(state, other, jobs=("j10", "j13", "j39"))
    for job in ("j10", "j13", "j39"):
        error = refused(state, other, {"type": "complete_job", "job": job})
        assert error.code == "not_allowed_now"


def test_jobs_are_refused_inside_an_automatic_resolution() -> None:
    state, active, other = game()
    state = player(state, other, jobs=("j27",), money=10)
    state = player(state, active, jobs=("j28",), money=10)
    between = with_changes(state, step="")  # mid-resolution: nobody is awaited
    assert GAME.status(between).awaiting == () and GAME.status(between).out_of_turn == ()
    for seat, job in ((other, "j27"), (active, "j28")):
        assert job_code(between, seat, job) == "not_allowed_now"


def test_the_seat_awaiting_choose_may_not_but_the_others_may() -> None:
    state, active, other = game()
    state = at_actions(state, active, influence=2)
    state, _ = send(state, active, {"type": "order", "order": "take_job"})
    assert state.step == "choose"
    state = player(state, active, jobs=("j28",) + state.players[active].jobs, money=10)
    state = player(state, other, jobs=("j27",), money=10)
    assert job_code(state, active, "j28") == "not_allowed_now"
    key = GAME.status(state).step_key
    state, _ = send(state, other, {"type": "complete_job", "job": "j27"})
    assert state.step == "choose" and GAME.status(state).step_key == key


def test_the_codes_of_out_of_turn_jobs_as_on_the_seats_own_turn() -> None:
    state, _, other = game()
    state = player(state, other, jobs=("j01", "j04", "j27"), money=2)
    assert job_code(state, other, "j01") == "job_condition_not_met"
    assert job_code(state, other, "j27") == "cannot_pay"
    assert job_code(state, other, "j05") == "card_not_in_hand"


def test_rules_one_refuses_jobs_out_of_turn_and_lists_no_seat() -> None:
    state, active, other = game(rules_version=1)
    state = player(state, other, jobs=("j27",), money=10)
    assert GAME.status(state).out_of_turn == ()
    assert job_code(state, other, "j27") == "not_allowed_now"
    view = GAME.view(state, other, now=0)
    assert view["legal"] == [] and view["may_complete"] == []


def test_views_list_what_a_seat_may_complete_to_that_seat_only() -> None:
    state, active, other = game()
    state = player(state, other, jobs=("j27", "j10", "j04"), money=10)
    mine = GAME.view(state, other, now=0)
    assert mine["may_complete"] == ["j27"]  # j10 needs a plan, j04 four alcohol
    options = {o["command"]: o for o in mine["legal"]}
    assert list(options) == ["complete_job"]
    assert options["complete_job"]["send"] == {"type": "complete_job", "job": "j27"}
    for viewer in (active, (other + 1) % 3, "spectator"):
        seen = GAME.view(state, viewer, now=0)
        assert "j27" not in str(seen.get("may_complete")) and "jobs" not in seen["players"][other]
    assert "may_complete" not in GAME.view(state, "spectator", now=0)


def test_a_resigned_seat_is_not_listed_and_may_not_act() -> None:
    state, active, other = game()
    state, _ = send(state, other, {"type": "resign"})
    status = GAME.status(state)
    assert other not in status.out_of_turn and not status.may_act(other)
    assert job_code(state, other, "j01") == "not_in_game"


def test_bots_and_timeouts_never_play_out_of_turn() -> None:
    state, active, other = game()
    state = player(state, other, jobs=("j27",), money=10)
    assert GAME.bot_command(state, other, "heuristic", "s") is None  # SR-16
    assert GAME.bot_command(state, other, "random", "s") is None
    assert GAME.timeout_command(state, other, "minimal", "s") is None
