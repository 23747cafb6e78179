"""What a stored Infamy event tells the players, for notifications (webhooks): which events
start a seat's step (its part of the auction, a placement, a scheme, a thug's question), start
the sealed sector step every seat answers, fill the table or finish the game.

``notices(event_type, payload)`` reads a stored event (its type without the game's prefix and
its payload) and returns each notice kind it raises with the seats it concerns (None: every
seat). Pure: the service maps kinds to subscriptions. Infamy has no reaction windows: its
simultaneous step is a turn of every seat at once, so it raises ``turn.started`` for all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TURN_STARTED = "turn.started"
TABLE_FILLED = "table.filled"
GAME_FINISHED = "game.finished"


def notices(event_type: str, payload: Mapping[str, Any]) -> dict[str, frozenset[int] | None]:
    if event_type == "StepStarted":
        seat = payload.get("seat")
        return {TURN_STARTED: None if seat is None else frozenset({int(seat)})}
    if event_type == "GameStarted":
        return {TABLE_FILLED: None}
    if event_type == "GameEnded":
        return {GAME_FINISHED: None}
    return {}
