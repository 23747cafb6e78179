"""Notices (turn.started, window.opened, table.filled, game.finished) are a platform
capability derived from ``Game.status`` (games/notices.py): in random games of every
registered game, and of a tiny game made here with no notices code at all, every seat the
game starts waiting for at a new step is told so by that step's events, and the table hears
``table.filled`` once and ``game.finished`` once at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from games.core import Game, Status
from games.notices import GAME_FINISHED, KINDS, TABLE_FILLED, TURN_STARTED, WINDOW_OPENED, Steps
from games.registry import GAMES
from tests.generic.random_play import Played, fold, play

CALLS = (TURN_STARTED, WINDOW_OPENED)  # the notices that ask a seat to act


def check_every_new_step_is_told(game: Any, seats: int, seed: str) -> Played:
    played: Played = play(game, seats, seed, ["random"] * seats)
    steps = Steps(game, game.empty_state())
    filled = finished = 0
    before = game.status(game.empty_state())
    for index, move in enumerate(played.moves):
        events = played.events[move.first : move.last]
        told = steps.command(events, deal=index == 0)
        after = game.status(fold(game, played.events[: move.last]))
        assert steps.status == after  # the incremental fold is the full one
        kinds = {kind for notices in told for kind in notices}
        asked: set[int] = set()
        for notices in told:
            for kind in CALLS:
                asked |= set(notices.get(kind) or ())
        filled += TABLE_FILLED in kinds
        finished += GAME_FINISHED in kinds
        if not after.over and after.step_key != before.step_key:
            assert set(after.awaiting) <= asked, (
                f"{game.name}, {seats} seats: seats {after.awaiting} are awaited at step "
                f"{after.step_key!r} and the events of {move.command} told {asked}"
            )
        assert asked <= set(after.awaiting)  # nobody is told to act who is not awaited
        before = after
    assert filled == 1
    assert finished == (1 if before.over else 0)
    return played


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_seat_a_new_step_waits_for_is_told_and_the_table_hears_start_and_end(name) -> None:
    game = GAMES[name]
    for seats in sorted({game.min_players, game.max_players}):
        for n in range(3):
            played = check_every_new_step_is_told(game, seats, f"notices:{name}:{seats}:{n}")
            assert game.status(played.state_after(len(played.events))).over


# --- a game with no notices code: two seats take 1 or 2 in turn, the one reaching 7 wins --


@dataclass(frozen=True)
class Count:
    total: int = 0
    turn: int = 0
    started: bool = False
    winner: int | None = None


class Seven:
    """A game on the interface, as small as it gets: it says who is awaited and when it is
    over (``status``) and nothing of notices, but one kind of its own (``halfway``)."""

    name = "seven"
    min_players = max_players = 2
    timeout_policies = ("minimal",)
    reaction_windows = False
    notice_kinds = ("seven.halfway",)

    def validate_options(self, options: Any, seats: int, *, sandbox: bool) -> dict[str, Any]:
        return {}

    def empty_state(self) -> Count:
        return Count()

    def start(self, names: Sequence[str], options: Any, seed: str, salt: str) -> tuple[Any, ...]:
        return ({"type": "Started"},)

    def decode_command(self, data: Any) -> Any:
        return data

    def encode_event(self, event: Any) -> dict[str, Any]:
        return dict(event)

    def decide(self, state: Count, seat: int | None, command: Any, *, now: int) -> tuple[Any, ...]:
        total = state.total + int(command["n"])
        taken = {"type": "Taken", "seat": seat, "total": total}
        return (taken, {"type": "Won", "seat": seat}) if total >= 7 else (taken,)

    def evolve(self, state: Count, event: Mapping[str, Any]) -> Count:
        if event["type"] == "Started":
            return replace(state, started=True)
        if event["type"] == "Taken":
            return replace(state, total=event["total"], turn=1 - state.turn)
        return replace(state, winner=event["seat"])

    def status(self, state: Count) -> Status:
        if state.winner is not None:
            return Status(over=True, winners=(state.winner,))
        if not state.started:
            return Status(over=False)
        return Status(over=False, awaiting=(state.turn,), step_key=f"t{state.total}")

    def bot_command(self, state: Count, seat: int, kind: str, seed: str) -> dict[str, Any]:
        return {"type": "take", "n": 1 + len(seed) % 2}

    def own_notices(self, kind: str, payload: Mapping[str, Any]) -> dict[str, frozenset[int]]:
        if kind == "Taken" and payload["total"] in (3, 4):
            return {"seven.halfway": frozenset({1 - int(payload["seat"])})}
        return {}


def test_a_game_with_no_notices_code_gets_them_all_from_its_status() -> None:
    game = Seven()
    for n in range(4):
        check_every_new_step_is_told(game, 2, f"seven:{n}")


def test_a_game_adds_kinds_of_its_own_and_the_service_derives_the_rest() -> None:
    game = Seven()
    steps = Steps(game, game.empty_state())
    assert steps.command([{"type": "Started"}], deal=True) == [
        {TABLE_FILLED: None, TURN_STARTED: frozenset({0})}
    ]
    taken = {"type": "Taken", "seat": 0, "total": 2}
    assert steps.command([taken]) == [{TURN_STARTED: frozenset({1})}]
    halfway = {"type": "Taken", "seat": 1, "total": 4}
    assert steps.command([halfway]) == [
        {TURN_STARTED: frozenset({0}), "seven.halfway": frozenset({0})}
    ]
    won = [{"type": "Taken", "seat": 0, "total": 7}, {"type": "Won", "seat": 0}]
    assert steps.command(won) == [{}, {GAME_FINISHED: None}]  # the end, on the event that ends it


def test_a_notice_goes_with_the_event_from_which_the_step_holds_not_a_passing_state() -> None:
    game = Seven()
    steps = Steps(game, game.evolve(game.empty_state(), {"type": "Started"}))
    # seat 0 takes, seat 1's turn is passed through, seat 0 takes again in the same command:
    # seat 0 is at a new step (another total) and is told by the last event, seat 1 not at all
    events = [
        {"type": "Taken", "seat": 0, "total": 1},
        {"type": "Taken", "seat": 1, "total": 2},
    ]
    assert steps.command(events) == [{}, {TURN_STARTED: frozenset({0})}]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_games_own_kinds_are_its_declared_ones_and_shadow_none_of_the_services(name) -> None:
    game = GAMES[name]
    assert isinstance(game, Game)
    assert not set(game.notice_kinds) & {*KINDS, "all", "game.event"}
    played = play(game, game.min_players, f"own:{name}", ["random"] * game.min_players)
    for event in played.events:
        data = game.encode_event(event)
        assert set(game.own_notices(data.pop("type"), data)) <= set(game.notice_kinds)
