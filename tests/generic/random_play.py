"""Random games of any registered game, played on the engine alone through
``games.core.Game``: the game's own bots choose, the system closes what nobody answers.

No database and no clock: the time is simulated (``now`` advances a second a command, from
``start``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import Game, Status

START_MS = 1_700_000_000_000
COMMAND_LIMIT = 5_000


@dataclass(frozen=True)
class Move:
    """One command and the events it appended: ``events[first:last]``; ``seat`` None is
    the system (the deal, the close of an overdue step)."""

    seat: int | None
    command: dict[str, Any]
    now: int
    first: int
    last: int


@dataclass
class Played:
    game: Game
    seats: int
    seed: str
    events: list[Any] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)

    def state_after(self, upto: int) -> Any:
        return fold(self.game, self.events[:upto])


def fold(game: Game, events: Sequence[Any]) -> Any:
    """The state ``events`` leave."""
    state = game.empty_state()
    for event in events:
        state = game.evolve(state, event)
    return state


def play(
    game: Game,
    seats: int,
    seed: str,
    kinds: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    commands: int = COMMAND_LIMIT,
    start: int = START_MS,
) -> Played:
    """A game of ``seats`` bots (``kinds[seat]``) to its end, or to ``commands`` commands.
    In a simultaneous step the seats answer in turn, starting with a different one each
    command, so every seat is sometimes the one whose choice is sealed."""
    names = [f"seat{seat}" for seat in range(seats)]
    table_options = game.validate_options(options or {}, seats, sandbox=True)
    played = Played(game, seats, seed)
    started = game.start(names, table_options, seed, f"salt:{seed}")
    played.events.extend(started)
    played.moves.append(Move(None, {"type": "start"}, start, 0, len(started)))
    state = played.state_after(len(started))
    now = start
    while len(played.moves) < commands:
        status = game.status(state)
        if status.over:
            break
        now += 1000
        index = len(played.moves)
        seat, command = _next_move(game, state, status, kinds, f"{seed}:{index}", index)
        if seat is None and status.window is not None:
            now = max(now, status.window.deadline)
        events = game.decide(state, seat, game.decode_command(command), now=now)
        first = len(played.events)
        played.events.extend(events)
        played.moves.append(Move(seat, command, now, first, len(played.events)))
        for event in events:
            state = game.evolve(state, event)
    return played


def _next_move(
    game: Game, state: Any, status: Status, kinds: Sequence[str], seed: str, index: int
) -> tuple[int | None, dict[str, Any]]:
    awaiting = list(status.awaiting)
    turn = index % max(len(awaiting), 1)
    for seat in awaiting[turn:] + awaiting[:turn]:
        command = game.bot_command(state, seat, kinds[seat], seed)
        if command is not None:
            return seat, command
    if status.window is not None:  # every bot lets the step run out: the system closes it
        return None, game.close_command(status.window)
    seat = awaiting[0]
    command = game.timeout_command(state, seat, game.timeout_policies[0], seed)
    assert command is not None, f"{game.name}: nothing to play for seat {seat}"
    return seat, command
