"""What each viewer may see.

Hands are public as of the last reveal: every seat starts with the cards 1..N and every
revealed bid is shown. The round's sealed bids are not: until the last bid is in and the
bids are revealed together, a seat's bid is shown to that seat (and staff) only, and so is
its hand without it. Everyone else sees the hand as it was at the last reveal (the sealed
card still in it) and ``has_bid``: the hand less the bid would give the bid away. The
prize deck's order and the seed are shown to staff, and to everyone once the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import ALL, Reveal, Viewer

from .codec import encode_event
from .position import seen_by
from .rules import BidPlaced, Event, GameStarted, GameState, awaiting, bids_sealed


def sees_bid(state: GameState, viewer: Viewer, seat: int) -> bool:
    """Whether ``viewer`` may see ``seat``'s bid of the current round (if it has bid)."""
    return viewer in (seat, "staff") or not bids_sealed(state)


def view(state: GameState, viewer: Viewer, *, now: int) -> dict[str, Any]:
    waiting = awaiting(state)
    players = []
    for seat, name in enumerate(state.names):
        bid = state.bids[seat] if state.bids else None
        hand, shown = state.hands[seat], bid
        if bid is not None and not sees_bid(state, viewer, seat):
            hand, shown = tuple(sorted((*hand, bid))), None  # the hand as of the last reveal
        players.append(
            {
                "seat": seat,
                "name": name,
                "score": state.scores[seat],
                "hand": list(hand),
                "has_bid": bid is not None,
                "bid": shown,
            }
        )
    legal: list[dict[str, Any]] = []
    if isinstance(viewer, int) and viewer in waiting:
        # each bid as before, and the command to send as every game's options carry it
        for card in state.hands[viewer]:
            send = {"type": "bid", "round": state.round, "card": card}
            legal.append({**send, "send": send, "ready": True, "label": _label(card, state.prize)})
    return {
        "game": "goofspiel",
        "viewer": viewer,
        "round": state.round,
        "rounds": state.cards,
        "prize": state.prize,
        "players": players,
        "awaiting": list(waiting),
        "history": [
            {"round": h.round, "prize": h.prize, "bids": list(h.bids), "winner": h.winner}
            for h in state.history
        ],
        "legal": legal,
        "over": state.over,
        "winners": list(state.winners),
        # the prize deck's order follows from the seed: shown only once it is over
        **(
            {"prizes_left": list(state.prizes[state.round :]), "seed": state.seed}
            if state.over or viewer == "staff"
            else {}
        ),
    }


def _label(card: int, prize: int) -> str:
    return f"Bid {card} for the prize worth {prize}: the single highest bid wins it"


def redact_event(event: Event, viewer: Viewer, *, revealed: bool = False) -> dict[str, Any]:
    data = encode_event(event)
    if revealed:
        return data
    if isinstance(event, GameStarted):
        data.pop("seed")
        data.pop("salt")
        if event.position is not None:
            data["position"] = seen_by(event.position, viewer)
    elif isinstance(event, BidPlaced) and viewer not in (event.seat, "staff"):
        data["card"] = None  # sealed until BidsRevealed
    return data


def revealed_to(kind: str, payload: Mapping[str, Any]) -> Reveal:
    """The reveal of the bids and the next prize show every seat what it did not know."""
    if kind in ("BidsRevealed", "PrizeShown", "GameEnded"):
        return ALL
    return frozenset()
