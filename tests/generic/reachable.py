"""Reachable states of any registered game, purely: a seeded deal folded, then the game's
random bots (and the system closing its overdue windows) play on. Asks the game only
through ``games.core.Game``; no database."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.registry import get_game

# The game clock of a pure playthrough: a window's deadline is after it until the system
# closes the window (then the clock moves to the deadline).
START_MS = 1_000_000


@dataclass(frozen=True)
class Reached:
    state: Any
    now: int  # the clock at this state: every open deadline is still ahead
    step: int


def seats_for(game: str) -> int:
    """A table one seat larger than the fewest the game is for (as many as it allows)."""
    definition = get_game(game)
    return min(definition.min_players + 1, definition.max_players)


def reachable(game: str, seed: str, *, steps: int = 300) -> Iterator[Reached]:
    """The states a random game of ``game`` passes through, from the deal until it ends or
    ``steps`` commands were played."""
    definition = get_game(game)
    seats = seats_for(game)
    options = definition.validate_options({}, seats, sandbox=False)
    state = definition.empty_state()
    for event in definition.start([f"seat{i}" for i in range(seats)], options, seed, "salt"):
        state = definition.evolve(state, event)
    rng = random.Random(seed)
    now = START_MS
    for step in range(steps):
        status = definition.status(state)
        if status.over:
            return
        yield Reached(state, now, step)
        window = status.window
        seat: int | None = None
        command = None
        if status.awaiting and not (window is not None and rng.random() < 0.1):
            seat = rng.choice(status.awaiting)
            command = definition.bot_command(state, seat, "random", f"{seed}:{step}")
        if command is None:
            if window is None:
                return  # nothing to play and nothing the system closes: stop here
            seat, command, now = None, definition.close_command(window), window.deadline
        events = definition.decide(state, seat, definition.decode_command(command), now=now)
        for event in events:
            state = definition.evolve(state, event)


def as_sent(command: Any) -> Any:
    """A command as a client sends it: through JSON."""
    return json.loads(json.dumps(command))


def offered(option: dict[str, Any]) -> list[dict[str, Any]]:
    """The commands one ``legal`` option of a view offers as they are: its ``send`` when
    ``ready``, and each of its ``variants`` (docs/api.md, "legal options")."""
    commands = [option["send"]] if option.get("ready") else []
    return commands + list(option.get("variants", []))
