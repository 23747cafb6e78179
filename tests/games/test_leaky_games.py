"""The hidden-information checks can fail (tests/generic/hiding.py): games that leak, each a
Goofspiel with one fault, registered only here beside the real games, fail them. The first
is the bug a security campaign found in production (a seat's hand without its sealed bid)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from games import registry
from games.core import RuleViolation, Viewer
from games.goofspiel.game import Goofspiel
from games.goofspiel.rules import Bid, GameState
from games.registry import game_names, get_game
from tests.generic.hiding import check_game_hides, check_twins_differ


class ShowsTheHandLessTheSealedBid(Goofspiel):
    """The bug the security campaign found: a seat's hand without its sealed bid."""

    name = "leaky_hand"

    def view(self, state: GameState, viewer: Viewer, *, now: int) -> dict[str, Any]:
        out = super().view(state, viewer, now=now)
        for player, hand in zip(out["players"], state.hands, strict=True):
            player["hand"] = list(hand)
        return out


class ShowsTheSealedBidInTheFeed(Goofspiel):
    name = "leaky_feed"

    def redact_event(self, event: Any, viewer: Viewer, *, revealed: bool = False) -> dict[str, Any]:
        return super().redact_event(event, viewer, revealed=True)


class BotPeeksAtTheSealedBids(Goofspiel):
    """A bot that outbids what the others have sealed (reads the state, not its view)."""

    name = "leaky_bot"

    def bot_command(
        self, state: GameState, seat: int, kind: str, seed: str
    ) -> dict[str, Any] | None:
        if seat not in self.status(state).awaiting:
            return None
        top = max((b for b in state.bids if b is not None), default=0)
        above = [c for c in state.hands[seat] if c > top] or list(state.hands[seat])
        return {"type": "bid", "round": state.round, "card": min(above)}


class RefusalNamesTheSealedBids(Goofspiel):
    name = "leaky_refusal"

    def decide(
        self, state: GameState, seat: int | None, command: Any, *, now: int
    ) -> tuple[Any, ...]:
        if isinstance(command, Bid) and seat is not None and state.bids[seat] is not None:
            raise RuleViolation("already_bid", "A bid is final.", bids=list(state.bids))
        return super().decide(state, seat, command, now=now)


class SaysNothingOfWhatItHides(Goofspiel):
    """A new game that never said what it hides (its adapter names no ``hidden`` module)."""

    name = "untold"
    hidden = None


class TwinIsTheGameItself(Goofspiel):
    name = "lazy_twin"

    def hidden_twin(self, events: Any, viewer: Viewer, seed: str) -> tuple[Any, ...]:
        return tuple(events)


@pytest.mark.parametrize(
    "leaky",
    [ShowsTheHandLessTheSealedBid, ShowsTheSealedBidInTheFeed, BotPeeksAtTheSealedBids,
     RefusalNamesTheSealedBids],
    ids=lambda cls: cls.name,
)  # fmt: skip
def test_a_game_that_shows_a_sealed_bid_is_caught(leaky, monkeypatch) -> None:
    failures = checked_registry(monkeypatch, leaky())
    assert set(failures) == {leaky.name}
    assert "tells the twin apart" in failures[leaky.name]


def test_a_game_that_does_not_say_what_it_hides_is_caught(monkeypatch) -> None:
    failures = checked_registry(monkeypatch, SaysNothingOfWhatItHides())
    assert set(failures) == {"untold"}


def test_a_game_whose_twin_changes_nothing_is_caught(monkeypatch) -> None:
    failures = checked_registry(monkeypatch, TwinIsTheGameItself())
    assert set(failures) == {"lazy_twin"} and "no twin differs" in failures["lazy_twin"]


def checked_registry(monkeypatch: pytest.MonkeyPatch, extra: Goofspiel) -> Mapping[str, str]:
    """Register ``extra`` beside the real games and run tests/generic/test_hidden.py's
    checks (fewer examples, the same each run): the games that fail, and why. The real
    games pass there; Goofspiel, which each leaky game copies but for its fault, is run
    here too, so the fault is what fails."""
    monkeypatch.setitem(registry.GAMES, extra.name, extra)
    failures = {}
    for name in game_names():
        if name != extra.name and name != "goofspiel":
            continue  # the real ones pass above; Goofspiel stands in for them here
        try:
            check_twins_differ(get_game(name))
            check_game_hides(get_game(name), examples=150, derandomize=True, shrink=False)
        except (AssertionError, AttributeError) as failure:
            failures[name] = str(failure)
    return failures
