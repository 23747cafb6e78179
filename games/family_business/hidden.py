"""What a viewer may not know of a Family Business game, as a twin history
(``Game.hidden_twin``).

Hidden from a seat: the cards dealt and drawn by other seats, and the deck's order; from a
spectator, every card dealt or drawn; from everyone, staff included, the seed, its salt and
a sandbox's stacked deck. Every other card an event names is face up. Everything is known
once the game ends.

The twin swaps the cards the viewer never saw among themselves (another deal of the other
hands and the deck), puts the cards still in the deck since its last shuffle in another
order and has another seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.core import Viewer
from games.twins import renamed_unseen, reseeded, untaken_reordered, without

from .cards import CARD_KIND
from .codec import decode_event, encode_event
from .events import CardsDealt, CardsDrawn, DeckShuffled, Event, GameEnded, GameStarted
from .position import seen_by


def seen_part(data: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` (not staff) sees of an event's cards."""
    kind = data["type"]
    if kind == "GameStarted":
        shown = without(data, "seed", "salt", "stacked_deck")
        if data.get("position") is not None:
            shown["position"] = seen_by(data["position"], viewer)
        return shown
    if kind == "DeckShuffled":
        return without(data, "cards")
    if kind in ("CardsDealt", "CardsDrawn") and data["seat"] != viewer:
        return without(data, "cards")
    return data


def hidden_twin(events: Sequence[Event], viewer: Viewer, seed: str) -> tuple[Event, ...]:
    if any(isinstance(e, GameEnded) for e in events):
        return tuple(events)
    twin = [reseeded(e, seed) if isinstance(e, GameStarted) else e for e in events]
    if viewer == "staff":  # staff see every hand and the deck
        return tuple(twin)
    encoded = renamed_unseen(
        [encode_event(e) for e in twin], lambda data: seen_part(data, viewer), CARD_KIND, seed
    )
    twin = [decode_event(data) for data in encoded]
    shuffles = [i for i, e in enumerate(twin) if isinstance(e, DeckShuffled)]
    if shuffles:
        last = shuffles[-1]
        shuffle = twin[last]
        assert isinstance(shuffle, DeckShuffled)
        taken = sum(len(e.cards) for e in twin[last:] if isinstance(e, CardsDealt | CardsDrawn))
        cards = untaken_reordered(shuffle.cards, taken, seed, "deck")
        twin[last] = replace(shuffle, cards=cards)
    elif twin and isinstance(twin[0], GameStarted) and twin[0].position is not None:
        # a game started from a position: its deck, as the position gave it, is the last order
        first = twin[0]
        position = dict(first.position)  # type: ignore[arg-type]
        taken = sum(len(e.cards) for e in twin if isinstance(e, CardsDealt | CardsDrawn))
        position["deck"] = list(untaken_reordered(position["deck"], taken, seed, "deck"))
        twin[0] = replace(first, position=position)
    return tuple(twin)
