"""Recorded golden games: complete event logs whose final state is pinned.

Regenerate (only when a rules change is deliberate) with
``python -m tests.games.golden_games``; the diff of the JSON files is the change to review.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.family_business.bots import BOTS, Bot
from games.family_business.codec import encode_event
from games.family_business.simulate import GameRecord, play_game
from games.family_business.state import GameState

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("two-heuristic", 2, ("heuristic", "heuristic")),
    ("three-mixed", 3, ("heuristic", "random", "heuristic")),
    ("six-random", 6, ("random",) * 6),
)


def summary(state: GameState) -> dict[str, Any]:
    return {
        "winners": list(state.winners),
        "turn": state.turn,
        "hit_list": list(state.hit_list),
        "graveyard": list(state.graveyard),
        "mob_war": state.mob_war,
        "players": [
            {
                "seat": p.seat,
                "family": p.family,
                "crew": list(p.crew),
                "hand": list(p.hand),
                "out": p.out,
                "resigned": p.resigned,
            }
            for p in state.players
        ],
        "deck": list(state.deck),
        "discard": list(state.discard),
    }


def bots_for(names: tuple[str, ...]) -> list[Bot]:
    return [BOTS[n]() for n in names]


def play(name: str, players: int, names: tuple[str, ...]) -> GameRecord:
    return play_game(players, bots_for(names), f"golden:{name}")


def record_all() -> None:
    for name, players, names in GAMES:
        record = play(name, players, names)
        data = {
            "seed": record.seed,
            "players": players,
            "bots": list(names),
            "final": summary(record.state),
            "events": [encode_event(e) for e in record.events],
        }
        path = GOLDEN_DIR / f"{name}.json"
        path.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
        print(f"{path}: {len(record.events)} events, winners {list(record.state.winners)}")


if __name__ == "__main__":
    record_all()
