"""Which Family Business events notify whom (games/family_business/notices.py), asked
through the game's definition as the webhook relay asks it."""

from __future__ import annotations

from games.core import FAMILY_BUSINESS as game


def test_turns_windows_start_and_end_notify_their_seats() -> None:
    assert game.notices("TurnStarted", {"seat": 2, "turn": 7}) == {"turn.started": {2}}
    window = {"window": "w3", "seat": 0, "eligible": [1, 3], "card": "c01"}
    assert game.notices("WindowOpened", window) == {"window.opened": {1, 3}}
    decision = {"window": "w4", "seat": 1, "decision": "draw"}
    assert game.notices("DecisionOpened", decision) == {"window.opened": {1}}
    assert game.notices("GameStarted", {"names": ["a", "b"]}) == {"table.filled": None}
    assert game.notices("GameEnded", {"winners": [0], "seed": "s"}) == {"game.finished": None}


def test_other_events_notify_nobody() -> None:
    for kind in ("CardPlayed", "CardsDrawn", "WindowClosed", "CounterPlayed", "PlayerOut"):
        assert game.notices(kind, {"seat": 0}) == {}
