"""The notices the service derives from ``Game.status`` (games/notices.py) are, event for
event, the ones each game's own notices module raised before the service derived them: the
same kinds, for the same seats, carried by the same events. So a webhook receiver sees the
same deliveries as before (docs/webhooks.md). ``BEFORE`` is what those modules said.

Two differences, both where the modules told a seat to act at a step it never got: a turn
that starts in a command that goes on past it is not told (the game ended in it, or the
seat was out by its end: a Mob War in the same command); and in Family
Business's advanced rules a turn that opens with a pending decision is told as the decision
(``window.opened``), then the card play after it as a ``turn.started`` (a new step the
modules said nothing of). The tests below pin both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from games.notices import Steps
from games.registry import GAMES
from tests.generic.random_play import play


def fb_before(kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    if kind == "TurnStarted":
        return {"turn.started": {payload["seat"]}}
    if kind == "WindowOpened":
        return {"window.opened": set(payload["eligible"])}
    if kind == "DecisionOpened":
        return {"window.opened": {payload["seat"]}}
    return _start_and_end(kind)


def infamy_before(kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    if kind == "StepStarted":
        return {"turn.started": None if payload["seat"] is None else {payload["seat"]}}
    return _start_and_end(kind)


def goofspiel_before(kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    return {"turn.started": None} if kind == "PrizeShown" else _start_and_end(kind)


def _start_and_end(kind: str) -> dict[str, Any]:
    return {"GameStarted": {"table.filled": None}, "GameEnded": {"game.finished": None}}.get(
        kind, {}
    )


CALLS = ("turn.started", "window.opened")
BEFORE = {"family_business": fb_before, "infamy": infamy_before, "goofspiel": goofspiel_before}


def every(seats: int, notices: Mapping[str, Any]) -> dict[str, set[int]]:
    return {k: set(range(seats)) if v is None else set(v) for k, v in notices.items()}


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_derived_notices_are_the_ones_each_games_module_raised_event_for_event(name) -> None:
    game = GAMES[name]
    for seats in sorted({game.min_players, game.max_players}):
        for n in range(3):
            kinds = ["random", "heuristic"][n % 2 :] * seats
            played = play(game, seats, f"before:{name}:{seats}:{n}", kinds[:seats])
            steps = Steps(game, game.empty_state())
            told: dict[str, int] = {}
            for index, move in enumerate(played.moves):
                events = played.events[move.first : move.last]
                derived = steps.command(events, deal=index == 0)
                awaited = set(steps.status.awaiting)
                for event, notices in zip(events, derived, strict=True):
                    data = game.encode_event(event)
                    kind = data.pop("type")
                    want = every(seats, BEFORE[name](kind, data))
                    for call in CALLS:  # the change: no call to a seat the command passed
                        if call in want:
                            want[call] &= awaited
                            if not want[call]:
                                del want[call]
                    assert every(seats, notices) == want, (name, seats, n, kind, data)
                    for notice in notices:
                        told[notice] = told.get(notice, 0) + 1
            assert told["turn.started"] > 1 and told["game.finished"] == 1
            if name == "family_business":
                assert told["window.opened"] > 1


def test_advanced_rules_a_pending_decision_is_a_window_and_the_play_after_it_a_turn() -> None:
    game = GAMES["family_business"]
    played = play(game, 3, "before:advanced", ["random"] * 3, options={"advanced": True})
    steps = Steps(game, game.empty_state())
    decisions = plays_after = 0
    for index, move in enumerate(played.moves):
        events = played.events[move.first : move.last]
        derived = steps.command(events, deal=index == 0)
        for event, notices in zip(events, derived, strict=True):
            data = game.encode_event(event)
            if data["type"] == "DecisionOpened" and data["seat"] in steps.status.awaiting:
                assert notices == {"window.opened": frozenset({data["seat"]})}
                decisions += 1
            decided = data["type"] == "WindowClosed" and data["reason"] == "decided"
            if decided and not steps.status.window and move.seat in steps.status.awaiting:
                assert notices == {"turn.started": frozenset({move.seat})}
                plays_after += 1
    assert decisions > 1 and plays_after > 1
