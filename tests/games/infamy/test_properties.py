"""Random legal games (OpenSpiel's random-simulation test): invariants after every event,
no view or redacted event shows another seat's sealed choice or hand before it is public,
bots decide only from what their seat may see (G-12), and replay is deterministic."""

from __future__ import annotations

import json
import re
from random import Random
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.infamy import evolve, replay
from games.infamy.bots import HeuristicBot, RandomBot
from games.infamy.codec import decode_event, decode_state, encode_event, encode_state
from games.infamy.events import SchemeStolen, SectorChosen, SectorsRevealed, StepStarted
from games.infamy.rules import awaiting
from games.infamy.simulate import play_game
from games.infamy.state import GameState, with_changes
from games.infamy.view import redact_event, view

# Whole games are the examples: shrinking one takes minutes and a seed reproduces it.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate)
SCHEME_ID = re.compile(r"^[htm]\d\d$")
games = given(
    players=st.integers(min_value=3, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
    heuristic_seats=st.sets(st.integers(min_value=0, max_value=3)),
)


def _bots(players: int, heuristic_seats: set[int]) -> list[Any]:
    return [
        HeuristicBot() if s in heuristic_seats else RandomBot(resign=0.002) for s in range(players)
    ]


def scheme_ids(data: Any) -> set[str]:
    text = json.dumps(data)
    return {m for m in re.findall(r'"([htm]\d\d)"', text) if SCHEME_ID.match(m)}


def secret_from(state: GameState, viewer: int | str) -> set[str]:
    """Schemes ``viewer`` may not see: the decks and other hands (staff see them all)."""
    if viewer == "staff" or state.over:
        return set()
    hidden = {c for deck in state.scheme_decks for c in deck}
    for p in state.players:
        if p.seat != viewer:
            hidden |= set(p.hand)
    return hidden


def sealed_leaks(data: Any, state: GameState, viewer: int | str) -> list[str]:
    """Another seat's sealed sector showing in a view before the reveal."""
    if state.revealed or state.over:
        return []
    return [
        f"seat {p['seat']}'s sector shown to {viewer}"
        for p in data["players"]
        if p["seat"] != viewer and "sector" in p
    ]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=PHASES
)
@games
def test_random_games_keep_every_invariant_and_never_leak(
    players: int, seed: int, heuristic_seats: set[int]
) -> None:
    record = play_game(players, _bots(players, heuristic_seats), str(seed))
    assert not record.violations, record.violations[:5]
    assert record.state.over
    viewers: list[int | str] = [*range(players), "spectator", "staff"]
    state = GameState()
    revealed_round = False
    for i, event in enumerate(record.events):
        before = state
        state = evolve(state, event)
        if isinstance(event, SectorsRevealed):
            revealed_round = True
        for viewer in viewers:
            data = redact_event(event, viewer)
            if isinstance(event, SectorChosen) and viewer != event.seat:
                assert data["sector"] is None and data["accomplice"] is None
            shown = scheme_ids(data)
            hidden = secret_from(state, viewer)
            if isinstance(event, SchemeStolen) and viewer == event.source:
                hidden -= {event.card}  # the victim knew the card it lost
            assert not shown & hidden, (i, type(event).__name__, viewer, shown & hidden)
        # Views are checked where a command's events end: a step opened, a seat committed.
        settled = isinstance(event, StepStarted) or (
            isinstance(event, SectorChosen) and any(c is None for c in state.choices)
        )
        if settled:
            for viewer in viewers:
                v = view(state, viewer)  # type: ignore[arg-type]
                assert not sealed_leaks(v, state, viewer)
                assert not scheme_ids(v) & secret_from(state, viewer), (i, viewer)
                if viewer != "staff" and not state.over:
                    assert "decks" not in v and "seed" not in v
        del before
    del revealed_round


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=PHASES
)
@games
def test_codec_round_trips_and_replay_is_deterministic(
    players: int, seed: int, heuristic_seats: set[int]
) -> None:
    bots = _bots(players, heuristic_seats)
    first = play_game(players, bots, str(seed), check=False)
    again = play_game(players, _bots(players, heuristic_seats), str(seed), check=False)
    assert again.events == first.events  # same seed, same bots: the same game
    decoded = [decode_event(json.loads(json.dumps(encode_event(e)))) for e in first.events]
    assert decoded == first.events
    state = replay(decoded)
    assert state == first.state
    assert decode_state(json.loads(json.dumps(encode_state(state)))) == state
    mid = replay(decoded[: len(decoded) // 2])
    assert decode_state(json.loads(json.dumps(encode_state(mid)))) == mid


def test_bots_decide_only_from_what_their_seat_sees() -> None:
    """G-12: changing another seat's sealed choice or hand never changes a bot's choice."""
    checked = 0
    for game in range(6):
        record = play_game(4, [HeuristicBot()] * 4, f"g12:{game}", check=False)
        state = GameState()
        for event in record.events:
            state = evolve(state, event)
            if state.over or state.step != "sector":
                continue
            waiting = awaiting(state)
            chosen = [s for s in state.in_game() if state.choices[s] is not None]
            if not waiting or not chosen:
                continue
            seat = waiting[0]
            other = chosen[0]
            choices = list(state.choices)
            choices[other] = (1 + choices[other][0] % 6, 0)  # type: ignore[index]
            players = list(state.players)
            players[other] = with_changes(players[other], hand=())
            altered = with_changes(state, choices=tuple(choices), players=tuple(players))
            for bot in (HeuristicBot(), RandomBot()):
                assert bot.choose(state, seat, Random(1)) == bot.choose(altered, seat, Random(1))
            checked += 1
    assert checked > 10
