"""What a stored event tells the players, for notifications (webhooks): the one place that
knows which Family Business events start a seat's turn, open a window a seat may answer,
fill the table or finish the game.

``notices(event_type, payload)`` reads a stored event (its type without the game's prefix
and its payload, as ``view.revealed_to`` does) and returns each notice kind it raises with
the seats it concerns (None: every seat). Pure: the service maps kinds to subscriptions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TURN_STARTED = "turn.started"
WINDOW_OPENED = "window.opened"
TABLE_FILLED = "table.filled"
GAME_FINISHED = "game.finished"


def notices(event_type: str, payload: Mapping[str, Any]) -> dict[str, frozenset[int] | None]:
    if event_type == "TurnStarted":
        return {TURN_STARTED: frozenset({int(payload["seat"])})}
    if event_type == "WindowOpened":
        return {WINDOW_OPENED: frozenset(int(s) for s in payload.get("eligible", ()))}
    if event_type == "DecisionOpened":  # a pending decision: a window only its seat answers
        return {WINDOW_OPENED: frozenset({int(payload["seat"])})}
    if event_type == "GameStarted":  # every seat was filled and the deal begins
        return {TABLE_FILLED: None}
    if event_type == "GameEnded":
        return {GAME_FINISHED: None}
    return {}
