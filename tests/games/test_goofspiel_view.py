"""Goofspiel's projection: a sealed bid shows to its own seat (and staff) only, and so does
the hand without it; everyone else sees the hand as of the last reveal until the round's
bids are revealed together."""

from __future__ import annotations

from typing import Any

from games.goofspiel.game import GAME
from games.goofspiel.rules import Bid, GameState

SPECTATOR: Any = "spectator"


def started(cards: int = 5, seats: int = 2) -> GameState:
    state = GAME.empty_state()
    for event in GAME.start([f"p{s}" for s in range(seats)], {"cards": cards}, "seed", "salt"):
        state = GAME.evolve(state, event)
    return state


def bid(state: GameState, seat: int, card: int) -> tuple[GameState, tuple[Any, ...]]:
    events = GAME.decide(state, seat, Bid(state.round, card), now=0)
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def seat_as_seen(state: GameState, viewer: Any, seat: int) -> dict[str, Any]:
    player: dict[str, Any] = GAME.view(state, viewer, now=0)["players"][seat]
    return player


def test_another_seat_and_a_spectator_see_the_hand_as_of_the_last_reveal() -> None:
    state, _ = bid(started(), 1, 3)
    for viewer in (0, SPECTATOR):
        seen = seat_as_seen(state, viewer, 1)
        assert seen["hand"] == [1, 2, 3, 4, 5]
        assert (seen["has_bid"], seen["bid"]) == (True, None)


def test_the_bidder_and_staff_see_the_bid_and_the_hand_without_it() -> None:
    state, _ = bid(started(), 1, 3)
    for viewer in (1, "staff"):
        seen = seat_as_seen(state, viewer, 1)
        assert (seen["hand"], seen["bid"]) == ([1, 2, 4, 5], 3)


def test_a_revealed_bid_leaves_every_hand_it_was_in() -> None:
    state, _ = bid(started(), 1, 3)
    state, _ = bid(state, 0, 5)
    for viewer in (0, 1, SPECTATOR):
        assert seat_as_seen(state, viewer, 1)["hand"] == [1, 2, 4, 5]
        assert seat_as_seen(state, viewer, 0)["hand"] == [1, 2, 3, 4]
    # round 2: seat 0 bids 1; the others see its hand as the reveal left it
    state, _ = bid(state, 0, 1)
    assert seat_as_seen(state, 1, 0)["hand"] == [1, 2, 3, 4]
    assert seat_as_seen(state, SPECTATOR, 0)["hand"] == [1, 2, 3, 4]
    assert seat_as_seen(state, 0, 0)["hand"] == [2, 3, 4]


def test_between_the_reveal_and_the_next_prize_every_bid_shows() -> None:
    state, _ = bid(started(), 1, 3)
    _, events = bid(state, 0, 5)
    for event in events[:2]:  # BidPlaced, BidsRevealed: a replay may stop there
        state = GAME.evolve(state, event)
    seen = seat_as_seen(state, SPECTATOR, 1)
    assert (seen["hand"], seen["bid"]) == ([1, 2, 4, 5], 3)


def test_a_bid_event_hides_its_card_from_everyone_but_its_seat_and_staff() -> None:
    _, events = bid(started(), 1, 3)
    (placed,) = events
    assert GAME.redact_event(placed, 0)["card"] is None
    assert GAME.redact_event(placed, SPECTATOR)["card"] is None
    assert GAME.redact_event(placed, 1)["card"] == 3
    assert GAME.redact_event(placed, "staff")["card"] == 3
