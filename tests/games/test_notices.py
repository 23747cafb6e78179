"""Which events notify whom (games/<game>/notices.py), asked through the registry as the
webhook relay asks it."""

from __future__ import annotations

from games.registry import notices


def test_turns_windows_start_and_end_notify_their_seats() -> None:
    fb = "family_business"
    assert notices(fb, "TurnStarted", {"seat": 2, "turn": 7}) == {"turn.started": {2}}
    window = {"window": "w3", "seat": 0, "eligible": [1, 3], "card": "c01"}
    assert notices(fb, "WindowOpened", window) == {"window.opened": {1, 3}}
    decision = {"window": "w4", "seat": 1, "decision": "draw"}
    assert notices(fb, "DecisionOpened", decision) == {"window.opened": {1}}
    assert notices(fb, "GameStarted", {"names": ["a", "b"]}) == {"table.filled": None}
    assert notices(fb, "GameEnded", {"winners": [0], "seed": "s"}) == {"game.finished": None}


def test_other_events_notify_nobody() -> None:
    for kind in ("CardPlayed", "CardsDrawn", "WindowClosed", "CounterPlayed", "PlayerOut"):
        assert notices("family_business", kind, {"seat": 0}) == {}
    assert notices("goofspiel", "TurnStarted", {"seat": 0}) == {}  # not a Goofspiel event
    for kind in ("BidPlaced", "BidsRevealed"):
        assert notices("goofspiel", kind, {"round": 1, "seat": 0}) == {}


def test_goofspiels_rounds_start_and_end_notify_every_seat() -> None:
    assert notices("goofspiel", "PrizeShown", {"round": 2, "prize": 7}) == {"turn.started": None}
    assert notices("goofspiel", "GameStarted", {"names": ["a", "b"]}) == {"table.filled": None}
    ended = {"winners": [1], "scores": [3, 12]}
    assert notices("goofspiel", "GameEnded", ended) == {"game.finished": None}


def test_infamy_steps_start_and_end_notify_their_seats() -> None:
    step = {"step": "auction", "seat": 2, "deadline": None}
    assert notices("infamy", "StepStarted", step) == {"turn.started": {2}}
    sealed = {"step": "sector", "seat": None, "deadline": 120_000}  # every seat at once
    assert notices("infamy", "StepStarted", sealed) == {"turn.started": None}
    assert notices("infamy", "GameStarted", {"names": ["a", "b", "c"]}) == {"table.filled": None}
    assert notices("infamy", "GameEnded", {"winners": [1], "seed": "s"}) == {"game.finished": None}
    for kind in ("BidPlaced", "SectorChosen", "SectorsRevealed", "FigurePlaced"):
        assert notices("infamy", kind, {"seat": 0}) == {}
