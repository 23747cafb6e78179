"""Notices (webhooks), derived for every game from what it already tells the service.

A command takes a game from one ``Status`` to another; comparing the two says whom to tell:

- ``table.filled``, every seat: the stream's first command (the deal, appended once every
  seat is filled), carried by its first event;
- ``turn.started`` or ``window.opened``, each seat the new status awaits that the old one
  did not, or every awaited seat when the step changed (another ``step_key``): a
  ``window.opened`` when the step is a window (``Status.window``) of a game whose seats
  answer out of turn (``Game.reaction_windows``), a ``turn.started`` otherwise;
- ``game.finished``, every seat: the status turned ``over``;
- and the game's own kinds, if it has any (``Game.notice_kinds``, ``Game.own_notices``),
  on the events that raise them.

A derived notice is carried by the earliest event of its command from which on the game
stays at the point that raised it (a turn's start, not the cards drawn after it; the
game's end), so a state the command passes through on its way is never told. An undo tells nothing: the seat that took its move back is the one awaited again.

Pure (``games.core`` only): the relay folds stored events through ``Steps`` from its last
position, and the tests fold random games of every registered game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from games.core import Game, Status

TABLE_FILLED: Final = "table.filled"
TURN_STARTED: Final = "turn.started"
WINDOW_OPENED: Final = "window.opened"
GAME_FINISHED: Final = "game.finished"
KINDS: Final = (TABLE_FILLED, TURN_STARTED, WINDOW_OPENED, GAME_FINISHED)  # in this order

Seats = frozenset[int] | None  # None: every seat
Notices = dict[str, Seats]  # notice kind -> the seats it concerns


class Steps:
    """One game's notices, command by command, folded on from ``state``."""

    def __init__(self, game: Game, state: Any) -> None:
        self.game = game
        self.reset(state)

    def reset(self, state: Any) -> None:
        """Go on from ``state`` without telling anything (after an undo)."""
        self.state = state
        self.status = self.game.status(state)

    def command(self, events: Sequence[Any], *, deal: bool = False) -> list[Notices]:
        """The notices each of one command's (decoded) events carries, in order; ``deal``:
        the stream's first command."""
        game = self.game
        before = self.status
        statuses: list[Status] = []
        state = self.state
        for event in events:
            state = game.evolve(state, event)
            statuses.append(game.status(state))
        out: list[Notices] = [{} for _ in events]
        if statuses:
            after = statuses[-1]
            if deal:
                out[0][TABLE_FILLED] = None
            if after.over and not before.over:
                out[_settled(statuses, lambda s: s.over)][GAME_FINISHED] = None
            elif not after.over:
                kind = WINDOW_OPENED if after.window and game.reaction_windows else TURN_STARTED
                for seat in called(before, after):
                    at = _settled(statuses, _awaiting(seat, after.step_key))
                    out[at][kind] = (out[at].get(kind) or frozenset()) | {seat}
            self.state, self.status = state, after
        if game.notice_kinds:
            for index, event in enumerate(events):
                data = game.encode_event(event)
                raised = game.own_notices(str(data.pop("type")), data)
                out[index].update({k: v for k, v in raised.items() if k in game.notice_kinds})
        return out


def called(before: Status, after: Status) -> tuple[int, ...]:
    """The seats ``after`` asks to act that ``before`` did not (all of them at a new step)."""
    if after.step_key != before.step_key:
        return after.awaiting
    return tuple(seat for seat in after.awaiting if seat not in before.awaiting)


def _awaiting(seat: int, step_key: str) -> Callable[[Status], bool]:
    def holds(status: Status) -> bool:
        return not status.over and status.step_key == step_key and seat in status.awaiting

    return holds


def _settled(statuses: Sequence[Status], holds: Callable[[Status], bool]) -> int:
    """The earliest index from which ``holds`` is true of every status to the end (it is
    of the last)."""
    at = len(statuses) - 1
    while at > 0 and holds(statuses[at - 1]):
        at -= 1
    return at
