"""What a stored Goofspiel event tells the players, for notifications (webhooks): a round's
prize shown starts the sealed bid every seat answers at once (``turn.started`` for all), the
deal fills the table and the last reveal finishes the game.

``notices(event_type, payload)``: each notice kind the stored event raises, with the seats
it concerns (None: every seat). Pure: the service maps kinds to subscriptions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TURN_STARTED = "turn.started"
TABLE_FILLED = "table.filled"
GAME_FINISHED = "game.finished"


def notices(event_type: str, payload: Mapping[str, Any]) -> dict[str, frozenset[int] | None]:
    if event_type == "PrizeShown":
        return {TURN_STARTED: None}
    if event_type == "GameStarted":
        return {TABLE_FILLED: None}
    if event_type == "GameEnded":
        return {GAME_FINISHED: None}
    return {}
