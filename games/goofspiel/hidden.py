"""What a viewer may not know of a Goofspiel game, as a twin history (``Game.hidden_twin``).

Hidden from a seat and from spectators: the other seats' bids of the round until they are
revealed together (each seat's hand as of the last reveal is public: every seat starts
with 1..N and every revealed bid is shown) and the seed, which orders the prize deck.
Staff see both. Everything is known once the game ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.core import Viewer
from games.rng import choice
from games.twins import reseeded

from .rules import BidPlaced, BidsRevealed, Event, GameEnded, GameStarted, PrizeShown


def hidden_twin(events: Sequence[Event], viewer: Viewer, seed: str) -> tuple[Event, ...]:
    """``events`` with the other seats' sealed bids drawn again from their hands as of the
    last reveal, and another seed (the prize deck it orders is shown to staff only)."""
    if viewer == "staff" or any(isinstance(e, GameEnded) for e in events):
        return tuple(events)
    twin = list(events)
    cards = 0
    spent: dict[int, set[int]] = {}  # each seat's revealed bids
    sealed: list[int] = []  # indexes of this round's bids, while not revealed
    for index, event in enumerate(events):
        if isinstance(event, GameStarted):
            cards = event.cards
            twin[index] = reseeded(event, seed)
        elif isinstance(event, PrizeShown):
            sealed = []
        elif isinstance(event, BidPlaced):
            sealed.append(index)
        elif isinstance(event, BidsRevealed):
            sealed = []
            for seat, card in enumerate(event.bids):
                spent.setdefault(seat, set()).add(card)
    for index in sealed:
        placed = events[index]
        assert isinstance(placed, BidPlaced)
        if placed.seat == viewer:
            continue
        hand = [c for c in range(1, cards + 1) if c not in spent.get(placed.seat, set())]
        card = choice(hand, seed, f"twin:bid:{placed.seat}")
        twin[index] = replace(placed, card=card)
    return tuple(twin)
