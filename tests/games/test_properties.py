"""Random legal games (OpenSpiel's random-simulation test): invariants after every event."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.family_business import evolve, replay
from games.family_business.bots import HeuristicBot, RandomBot
from games.family_business.codec import decode_event, decode_state, encode_event, encode_state
from games.family_business.events import (
    CardsDealt,
    CardsDrawn,
    DeckShuffled,
    DiscardTaken,
    GameStarted,
)
from games.family_business.simulate import play_game
from games.family_business.state import GameState
from games.family_business.view import redact_event, view
from games.registry import get_game
from tests.generic.hiding import check_game_hides

CARD_ID = re.compile(r"^[ca]\d\d$")  # action cards c01..c56, ability cards a01..a10
games = given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    heuristic_seats=st.sets(st.integers(min_value=0, max_value=5)),
)


def _bots(players: int, heuristic_seats: set[int]) -> list[Any]:
    return [
        HeuristicBot() if s in heuristic_seats else RandomBot(resign=0.002) for s in range(players)
    ]


def card_ids(data: Any) -> set[str]:
    """Every card id anywhere in a JSON-like structure."""
    found: set[str] = set()
    if isinstance(data, dict):
        for value in data.values():
            found |= card_ids(value)
    elif isinstance(data, list | tuple):
        for value in data:
            found |= card_ids(value)
    elif isinstance(data, str) and CARD_ID.match(data):
        found.add(data)
    return found


def secret_from(state: GameState, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: a spectator) may not see: other hands and the deck."""
    hidden = set(state.deck)
    for p in state.players:
        if p.seat != seat:
            hidden |= set(p.hand)
    return hidden


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@games
def test_random_games_keep_every_invariant_and_end(
    players: int, seed: int, heuristic_seats: set[int]
) -> None:
    _random_game_keeps_every_invariant(players, seed, heuristic_seats, advanced=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@games
def test_random_advanced_games_keep_every_invariant_and_end(
    players: int, seed: int, heuristic_seats: set[int]
) -> None:
    _random_game_keeps_every_invariant(players, seed, heuristic_seats, advanced=True)


def _random_game_keeps_every_invariant(
    players: int, seed: int, heuristic_seats: set[int], *, advanced: bool
) -> None:
    bots = _bots(players, heuristic_seats)
    record = play_game(players, bots, f"prop:{seed}", advanced=advanced)
    assert record.violations == []
    assert record.state.over
    assert replay(record.events) == record.state
    assert 1 <= len(record.state.winners) <= players or record.state.winners == ()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@games
def test_no_view_or_event_shows_a_player_a_card_they_may_not_see(
    players: int, seed: int, heuristic_seats: set[int]
) -> None:
    _nothing_secret_is_shown(players, seed, heuristic_seats, advanced=False)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@games
def test_no_view_or_event_of_an_advanced_game_shows_a_card_a_player_may_not_see(
    players: int, seed: int, heuristic_seats: set[int]
) -> None:
    _nothing_secret_is_shown(players, seed, heuristic_seats, advanced=True)


def _nothing_secret_is_shown(
    players: int, seed: int, heuristic_seats: set[int], *, advanced: bool
) -> None:
    bots = _bots(players, heuristic_seats)
    record = play_game(players, bots, f"hide:{seed}", check=False, advanced=advanced)
    state = GameState()
    viewers: list[int | None] = [*range(players), None]
    for event in record.events:
        state = evolve(state, event)
        # CRIME SCENE CLEANER takes the discard pile's top card, which everyone saw.
        public = {event.card} if isinstance(event, DiscardTaken) else set()
        for viewer in viewers:
            who: Any = viewer if viewer is not None else "spectator"
            seen = card_ids(view(state, who)) | card_ids(redact_event(event, who))
            assert not ((seen - public) & secret_from(state, viewer)) or state.over
        if isinstance(event, (CardsDealt, CardsDrawn)) and not state.over:
            assert redact_event(event, "spectator")["cards"] is None
        if isinstance(event, DeckShuffled):
            assert redact_event(event, 0)["cards"] is None
        if isinstance(event, GameStarted):
            assert "seed" not in redact_event(event, "staff")
    final = view(state, "spectator")
    assert final["seed"] == state.seed  # revealed at the end, with every hand
    assert all("hand" in p for p in final["players"])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    heuristic_seats=st.sets(st.integers(min_value=0, max_value=5)),
    advanced=st.booleans(),
)
def test_every_event_round_trips_through_json(
    players: int, seed: int, heuristic_seats: set[int], advanced: bool
) -> None:
    bots = _bots(players, heuristic_seats)
    record = play_game(players, bots, f"codec:{seed}", check=False, advanced=advanced)
    for event in record.events:
        assert decode_event(json.loads(json.dumps(encode_event(event)))) == event


def test_a_game_is_determined_by_its_seed_and_bots() -> None:
    first = play_game(4, _bots(4, {1, 3}), "same-seed")
    second = play_game(4, _bots(4, {1, 3}), "same-seed")
    assert first.events == second.events
    advanced = play_game(4, _bots(4, {1, 3}), "same-seed", advanced=True)
    assert advanced.events == play_game(4, _bots(4, {1, 3}), "same-seed", advanced=True).events
    other = play_game(4, _bots(4, {1, 3}), "other-seed")
    assert first.events != other.events


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    heuristic_seats=st.sets(st.integers(min_value=0, max_value=5)),
    advanced=st.booleans(),
)
def test_every_state_round_trips_through_json(
    players: int, seed: int, heuristic_seats: set[int], advanced: bool
) -> None:
    bots = _bots(players, heuristic_seats)
    record = play_game(players, bots, f"state:{seed}", check=False, advanced=advanced)
    state = GameState()
    for event in record.events:
        state = evolve(state, event)
        if state.started:
            assert decode_state(json.loads(json.dumps(encode_state(state)))) == state


def test_no_viewer_tells_an_advanced_game_from_its_twin() -> None:
    """The generic hidden-information check (tests/generic/test_hidden.py) on advanced
    tables too: ability cards in hand and in the deck are hidden like the others."""
    check_game_hides(get_game("family_business"), examples=8, options={"advanced": True})
