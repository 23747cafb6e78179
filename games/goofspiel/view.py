"""What each viewer may see: hands are public (every seat starts with the same cards and
every bid is revealed), a sealed bid only to its own seat until the round's bids are
revealed, the prize deck's order and the seed to nobody until the game ends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import ALL, Reveal, Viewer

from .codec import encode_event
from .rules import BidPlaced, Event, GameStarted, GameState, awaiting


def view(state: GameState, viewer: Viewer, *, now: int) -> dict[str, Any]:
    waiting = awaiting(state)
    players = []
    for seat, name in enumerate(state.names):
        bid = state.bids[seat] if state.bids else None
        players.append(
            {
                "seat": seat,
                "name": name,
                "score": state.scores[seat],
                "hand": list(state.hands[seat]),
                "has_bid": bid is not None,
                # sealed: its own seat (and staff) see it; everyone once the game is over
                "bid": bid if viewer in (seat, "staff") or state.over else None,
            }
        )
    legal: list[dict[str, Any]] = []
    if isinstance(viewer, int) and viewer in waiting:
        # each bid as before, and the command to send as every game's options carry it
        bids = [{"type": "bid", "round": state.round, "card": c} for c in state.hands[viewer]]
        legal = [{**bid, "send": bid, "ready": True} for bid in bids]
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


def redact_event(event: Event, viewer: Viewer, *, revealed: bool = False) -> dict[str, Any]:
    data = encode_event(event)
    if revealed:
        return data
    if isinstance(event, GameStarted):
        data.pop("seed")
        data.pop("salt")
    elif isinstance(event, BidPlaced) and viewer not in (event.seat, "staff"):
        data["card"] = None  # sealed until BidsRevealed
    return data


def revealed_to(kind: str, payload: Mapping[str, Any]) -> Reveal:
    """The reveal of the bids and the next prize show every seat what it did not know."""
    if kind in ("BidsRevealed", "PrizeShown", "GameEnded"):
        return ALL
    return frozenset()
