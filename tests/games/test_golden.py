"""Golden games pin the rules: a change that alters any of them must be deliberate."""

from __future__ import annotations

import json

import pytest

from games.family_business import replay
from games.family_business.codec import decode_event, encode_event
from tests.games.golden_games import GAMES, GOLDEN_DIR, play, summary


@pytest.mark.parametrize(("name", "players", "bots"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_game_replays_to_its_pinned_final_state(
    name: str, players: int, bots: tuple[str, ...]
) -> None:
    data = json.loads((GOLDEN_DIR / f"{name}.json").read_text())
    state = replay(decode_event(e) for e in data["events"])
    assert summary(state) == data["final"]


@pytest.mark.parametrize(("name", "players", "bots"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_game_is_played_the_same_way_again(
    name: str, players: int, bots: tuple[str, ...]
) -> None:
    data = json.loads((GOLDEN_DIR / f"{name}.json").read_text())
    record = play(name, players, bots)
    assert [encode_event(e) for e in record.events] == data["events"]
