"""What a viewer may not know of a Goofspiel game, as a twin history (``Game.hidden_twin``).

Hidden from a seat and from spectators: the other seats' bids of the round until they are
revealed together (each seat's hand as of the last reveal is public: every seat starts
with 1..N and every revealed bid is shown) and the seed, which orders the prize deck.
Staff see both. Everything is known once the game ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.core import Viewer
from games.rng import choice, shuffled
from games.twins import reseeded

from .rules import BidPlaced, BidsRevealed, Event, GameEnded, GameStarted, PrizeShown


def hidden_twin(events: Sequence[Event], viewer: Viewer, seed: str) -> tuple[Event, ...]:
    """``events`` with the other seats' sealed bids drawn again from their hands as of the
    last reveal, and another seed (the prize deck it orders is shown to staff only)."""
    if viewer == "staff" or any(isinstance(e, GameEnded) for e in events):
        return tuple(events)
    twin = list(events)
    hands: list[list[int]] = []  # each seat's hand as of the last reveal
    spent: dict[int, set[int]] = {}  # each seat's revealed bids
    sealed: list[int] = []  # indexes of this round's bids, while not revealed
    shown = 0  # prizes shown since the start
    revealed = False  # bids revealed since the start
    for index, event in enumerate(events):
        if isinstance(event, GameStarted):
            twin[index] = reseeded(event, seed)
            if event.position is not None:
                hands = [list(hand) for hand in event.position["hands"]]
            else:
                hands = [list(range(1, event.cards + 1)) for _ in event.names]
        elif isinstance(event, PrizeShown):
            sealed = []
            shown += 1
        elif isinstance(event, BidPlaced):
            sealed.append(index)
        elif isinstance(event, BidsRevealed):
            sealed = []
            revealed = True
            for seat, card in enumerate(event.bids):
                spent.setdefault(seat, set()).add(card)
    for index in sealed:
        placed = events[index]
        assert isinstance(placed, BidPlaced)
        if placed.seat == viewer:
            continue
        hand = [c for c in hands[placed.seat] if c not in spent.get(placed.seat, set())]
        card = choice(hand, seed, f"twin:bid:{placed.seat}")
        twin[index] = replace(placed, card=card)
    first = twin[0] if twin else None
    if isinstance(first, GameStarted) and first.position is not None:
        twin[0] = replace(
            first, position=_position_twin(first.position, viewer, seed, shown, revealed)
        )
    return tuple(twin)


def _position_twin(
    position: dict[str, Any], viewer: Viewer, seed: str, shown: int, revealed: bool
) -> dict[str, Any]:
    """A start position with the prizes not shown since in another order and, while the
    position's round is not revealed, the other seats' sealed bids drawn again."""
    left = list(position["prizes_left"])
    left = [*left[:shown], *shuffled(left[shown:], seed, "twin:prizes")]
    bids = list(position["bids"])
    if not revealed:
        for seat, bid in enumerate(bids):
            if bid is not None and seat != viewer:
                bids[seat] = choice(position["hands"][seat], seed, f"twin:position-bid:{seat}")
    return {**position, "prizes_left": left, "bids": bids}
