"""Whole-game harnesses and sealed passes (games/sealing.py, docs/rules.md "Hand passes are
public, automatic passes are sealed"): at a table of people a harness's pass, made as the
seat's own command, is a pass by hand (an event, ending the window once every seat
answered); an automatic pass (standing reactions) or a bot's is recorded, not shown to the
rules, so the game keeps waiting on that seat until the window's deadline. A harness asks
who still has to answer, and when nobody has, lets the window run out as its timer would."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from games import sealing
from games.registry import get_game
from games.service import close_window


def to_answer(game_id: Any, state: Any, game: str = "family_business") -> list[int]:
    """The seats the game waits on, less those that passed (sealed) on the open window."""
    status = get_game(game).status(state)
    window = status.window
    if window is None:
        return list(status.awaiting)
    gid = uuid.UUID(str(game_id))
    return [s for s in status.awaiting if sealing.pass_of(gid, s, window) is None]


def run_out(game_id: Any, state: Any, game: str = "family_business") -> bool:
    """Close the open window at its deadline if every seat it waits on has passed sealed
    (automatically, or a bot);
    True if it did."""
    window = get_game(game).status(state).window
    if window is None or to_answer(game_id, state, game):
        return False
    closed = close_window(
        game_id=uuid.UUID(str(game_id)),
        window_id=window.id,
        deadline=window.deadline,
        now=window.deadline,
    )
    return closed is not None


def bot_move(
    game_id: Any, state: Any, game: str, seed: Callable[[int], str]
) -> tuple[int, dict[str, Any]] | None:
    """A whole-game harness's next move: the first seat still to answer and the random
    bot's command for it, seeded with ``seed(seat)`` (a pass when it has none); None when
    nobody had to answer and the window ran out instead (``run_out``)."""
    if run_out(game_id, state, game):
        return None
    seat = to_answer(game_id, state, game)[0]
    command = get_game(game).bot_command(state, seat, "random", seed(seat))
    if command is None:
        command = {"type": "pass", "window": state.window.id}
    return seat, command
