"""Notices (turn.started, window.opened, table.filled, game.finished) are a platform
capability: every registered game has them, and in random games of each, every seat the
game starts waiting for at a new step is told so by the events of that step."""

from __future__ import annotations

import pytest

from games.core import Game
from games.registry import GAMES, NOTICES, notices
from tests.generic.random_play import Played, fold, play

CALLS = ("turn.started", "window.opened")  # the notices that ask a seat to act


def told(game: Game, events: list[object]) -> tuple[set[str], set[int] | None]:
    """The notice kinds ``events`` raise, and the seats asked to act (None: every seat)."""
    kinds: set[str] = set()
    seats: set[int] | None = set()
    for event in events:
        data = game.encode_event(event)
        for kind, concerned in notices(game.name, data["type"], data).items():
            kinds.add(kind)
            if kind in CALLS:
                seats = None if seats is None or concerned is None else seats | set(concerned)
    return kinds, seats


def test_every_registered_game_has_notices() -> None:
    assert set(NOTICES) == set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_seat_a_new_step_waits_for_is_told_and_the_table_hears_start_and_end(name) -> None:
    game = GAMES[name]
    for seats in sorted({game.min_players, game.max_players}):
        for n in range(3):
            played: Played = play(game, seats, f"notices:{name}:{seats}:{n}", ["random"] * seats)
            filled = finished = 0
            before = game.status(game.empty_state())
            for move in played.moves:
                events = played.events[move.first : move.last]
                after = game.status(fold(game, played.events[: move.last]))
                kinds, asked = told(game, events)
                filled += "table.filled" in kinds
                finished += "game.finished" in kinds
                if not after.over and after.step_key != before.step_key:
                    for seat in after.awaiting:
                        assert asked is None or seat in asked, (
                            f"{name}, {seats} seats: seat {seat} is awaited at step "
                            f"{after.step_key!r} and no event of {move.command} told it"
                        )
                before = after
            assert filled == 1
            assert finished == (1 if before.over else 0)
