"""What a viewer may not know of a game of Scarface 1920, as a twin history
(``Game.hidden_twin``).

Hidden from a seat: the cards other seats drew, were dealt or were offered (gang cards,
jobs, dealers), the jobs they kept, and the order of every deck (its own included); from a
spectator, all of those; from everyone: the seed, its salt and the shared decks' orders
(``GameStarted.stacked``). Money totals are never in an event (only public movements).

The twin swaps the cards the viewer never saw among themselves, each within what the
viewer knows of it (a gang's own cards, the low or high associates, jobs, dealers, raids,
news; "Prohibition Ends at Last" keeps its public place at the bottom), and has another
seed. A game started from a position (``position.py``) is twinned the same way: its
``GameStarted`` carries the document, whose hidden parts (``position.seen_by``: other
seats' hands and jobs, every deck's order, an offer, the deal's recorded orders) are
unseen cards like any dealt ones. Everything is known once the game ends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import Viewer
from games.twins import renamed_unseen, reseeded

from .codec import decode_event, encode_event
from .content import END_NEWS, STANDIN
from .events import GameEnded, GameStarted
from .view import redact_event

CARDS: frozenset[str] = frozenset(
    {*STANDIN.associates, *STANDIN.jobs, *STANDIN.dealers, *STANDIN.raids, *STANDIN.news,
     *STANDIN.gang_cards, *(f"{g}-boss" for g in STANDIN.homes)}
)  # fmt: skip


def group(card: str) -> str:
    if "-" in card:
        return card.split("-")[0]
    if card in STANDIN.associates:
        return "high" if STANDIN.associates[card].stars >= 4 else "low"
    if card == END_NEWS:
        return "end"
    return card[0]


def hidden_twin(events: Sequence[Any], viewer: Viewer, seed: str) -> tuple[Any, ...]:
    if any(isinstance(e, GameEnded) for e in events):
        return tuple(events)
    twin = [reseeded(e, seed) if isinstance(e, GameStarted) else e for e in events]
    if viewer == "staff":
        return tuple(twin)
    encoded = renamed_unseen(
        [encode_event(e) for e in twin],
        lambda data: redact_event(decode_event(data), viewer),
        CARDS,
        seed,
        group=group,
    )
    return tuple(decode_event(data) for data in encoded)
