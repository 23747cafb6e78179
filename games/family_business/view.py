"""The only way state and events leave the engine: what one viewer may see.

A viewer is a seat number, ``"spectator"`` or ``"staff"``. Hands are shown to their owner
only; the deck order and the seed to nobody until the game ends, when everything is
revealed to everyone. Staff see every hand and the deck order, but not the seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, Literal

from .cards import CARD_KIND, FAMILY_BY_ID, KIND_INFO, MOBSTER_FAMILY, MOBSTER_NAME
from .events import CardsDealt, CardsDrawn, DeckShuffled, Event, GameEnded, GameStarted
from .legal import awaiting, legal_commands
from .position import seen_by
from .state import GameState

Viewer = int | Literal["spectator", "staff"]


# Card kinds whose main text is the project's reconstruction (the advanced rules' abilities).
RECONSTRUCTED = frozenset(k for k, info in KIND_INFO.items() if info.reconstructed)


def card(card_id: str) -> dict[str, Any]:
    kind = CARD_KIND[card_id]
    info = KIND_INFO[kind]
    out: dict[str, Any] = {
        "id": card_id,
        "kind": kind.value,
        "name": info.name,
        "category": info.category.value,
    }
    if kind in RECONSTRUCTED:  # ability cards carry their text, marked as reconstructed
        out.update(text=info.text, reconstructed=True)
    return out


def ability(state: GameState, mobster_id: str) -> dict[str, Any] | None:
    """The ability card under a mobster in play (public), or None."""
    card_id = state.ability_of(mobster_id)
    return card(card_id) if card_id is not None else None


def _mobster(state: GameState, mobster_id: str) -> dict[str, Any]:
    out = mobster(mobster_id)
    if state.abilities:
        held = ability(state, mobster_id)
        if held is not None:
            out["ability"] = held
    return out


def mobster(mobster_id: str) -> dict[str, Any]:
    return {
        "id": mobster_id,
        "name": MOBSTER_NAME[mobster_id],
        "family": MOBSTER_FAMILY[mobster_id],
    }


def sees_hand(viewer: Viewer, seat: int, state: GameState) -> bool:
    return state.over or viewer == "staff" or viewer == seat


def view(state: GameState, viewer: Viewer, *, now: int | None = None) -> dict[str, Any]:
    """The game as ``viewer`` may see it, as plain JSON-ready data."""
    players = []
    for p in state.players:
        entry: dict[str, Any] = {
            "seat": p.seat,
            "name": p.name,
            "family": {"id": p.family, "name": FAMILY_BY_ID[p.family].name},
            "crew": [_mobster(state, m) for m in p.crew],
            "listed": [_mobster(state, m) for m in state.listed_of(p.seat)]
            if state.started
            else [],
            "in_play": state.in_play_count(p.seat) if state.started else 0,
            "hand_size": len(p.hand),
            "out": p.out,
            "resigned": p.resigned,
        }
        if sees_hand(viewer, p.seat, state):
            entry["hand"] = [card(c) for c in p.hand]
        players.append(entry)
    window = state.window
    out: dict[str, Any] = {
        "rules_version": state.rules_version,
        "viewer": viewer,
        "players": players,
        "turn": state.turn,
        "turn_seat": state.turn_seat,
        "awaiting": list(awaiting(state)),
        "hit_list": [_mobster(state, m) for m in state.hit_list],
        "graveyard": [mobster(m) for m in state.graveyard],
        "deck_size": len(state.deck),
        "discard": [card(c) for c in state.discard],
        "mob_war": {"on": bool(state.mob_war), "rate": state.mob_war},
        "window": None,
        "reaction_seconds": state.reaction_seconds,
        "advanced": state.advanced,
        "seed_hash": state.seed_hash,
        "over": state.over,
        "winners": list(state.winners),
    }
    if state.advanced:
        out["abilities"] = [
            {"mobster": mobster(m), "seat": state.owner(m), "card": card(c)}
            for m, c in state.abilities
        ]
    if window is not None:
        out["window"] = {
            "id": window.id,
            "seat": window.seat,
            "card": card(window.card) if window.card else None,
            "targets": [mobster(m) for m in window.targets],
            "eligible": list(window.eligible),
            "passed": list(window.passed),
            "waiting_on": list(window.waiting_on),
            "counters": list(window.counters),
            "deadline": window.deadline,
        }
        if window.decision:  # advanced rules: a pending decision of one seat
            out["window"].update(decision=window.decision, count=window.count)
    if state.over or viewer == "staff":
        out["deck"] = [card(c) for c in state.deck]
    if state.over:
        out["seed"] = state.seed
    if isinstance(viewer, int):
        out["legal"] = [o.as_dict() for o in legal_commands(state, viewer, now=now)]
    return out


def event_dict(event: Event) -> dict[str, Any]:
    """An event as plain data: ``{"type": "CardPlayed", ...fields}``."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name in _OMITTED_WHEN_EMPTY and not value:
            continue  # games stored before the field existed encode as they did
        if f.name == "position" and isinstance(event, GameStarted) and value is None:
            continue  # a dealt game's first event is as it always was
        data[f.name] = list(value) if isinstance(value, tuple) else value
    return data


_OMITTED_WHEN_EMPTY = frozenset({"salt"})


# Encoded event types that show hidden cards to one seat (``seat``), as redact_event does.
_SHOWN_TO_THEIR_SEAT = frozenset({"CardsDealt", "CardsDrawn"})


def revealed_to(event_type: str, payload: Mapping[str, Any]) -> frozenset[int]:
    """The seats that learn hidden information from a stored event (its type, as in
    ``encode_event``'s ``type``, and the rest of that dict): those ``redact_event`` shows
    more than a spectator sees. Taking back a move after such an event would let those
    seats play on knowing what the deck holds (the service's undo check)."""
    if event_type in _SHOWN_TO_THEIR_SEAT and isinstance(payload.get("seat"), int):
        return frozenset({int(payload["seat"])})
    return frozenset()


def redact_event(event: Event, viewer: Viewer, *, revealed: bool = False) -> dict[str, Any]:
    """``event`` as ``viewer`` may see it; ``revealed`` once the game has ended."""
    data = event_dict(event)
    if revealed or isinstance(event, GameEnded):
        return data
    if isinstance(event, GameStarted):
        data.pop("seed")
        data.pop("stacked_deck")
        data.pop("salt", None)
        if event.position is not None:
            data["position"] = seen_by(event.position, viewer)
    elif isinstance(event, DeckShuffled):
        if viewer != "staff":
            data["cards"] = None
            data["count"] = len(event.cards)
    elif isinstance(event, (CardsDealt, CardsDrawn)) and viewer != "staff" and viewer != event.seat:
        data["cards"] = None
        data["count"] = len(event.cards)
    return data
