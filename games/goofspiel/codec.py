"""Goofspiel's commands, events and state as JSON."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from games.core import RuleViolation

from .rules import EVENT_TYPES, Bid, BidsRevealed, Command, Event, GameState


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def encode_command(command: Command) -> dict[str, Any]:
    return {"type": "bid", "round": command.round, "card": command.card}


def decode_command(data: Any) -> Command:
    if not isinstance(data, dict) or data.get("type") != "bid":
        raise RuleViolation("bad_command", "A command is {type: bid, round, card}.")
    if set(data) - {"type", "round", "card"}:
        raise RuleViolation("bad_command", "A bid names its round and card, nothing else.")
    if not _is_int(data.get("round")) or not _is_int(data.get("card")):
        raise RuleViolation("bad_command", "A bid names its round and card (integers).")
    return Bid(int(data["round"]), int(data["card"]))


def encode_event(event: Event) -> dict[str, Any]:
    data = asdict(event)
    for key, value in data.items():
        if isinstance(value, tuple):
            data[key] = list(value)
    if data.get("position", "") is None:
        del data["position"]  # a dealt game's first event is as it always was
    return {"type": type(event).__name__, **data}


def decode_event(data: dict[str, Any]) -> Event:
    body = dict(data)
    cls = EVENT_TYPES[body.pop("type")]
    values = {
        f.name: tuple(body[f.name]) if isinstance(body[f.name], list) else body[f.name]
        for f in fields(cls)
        if f.name in body  # a field added later (with a default) is missing from older events
    }
    event: Event = cls(**values)
    return event


def encode_state(state: GameState) -> dict[str, Any]:
    data = asdict(state)
    data["history"] = [encode_event(h) for h in state.history]
    return data


def decode_state(data: dict[str, Any]) -> GameState:
    history = tuple(decode_event(h) for h in data["history"])
    return GameState(
        started=data["started"],
        names=tuple(data["names"]),
        cards=data["cards"],
        seed=data["seed"],
        prizes=tuple(data["prizes"]),
        round=data["round"],
        prize=data["prize"],
        hands=tuple(tuple(h) for h in data["hands"]),
        bids=tuple(data["bids"]),
        scores=tuple(data["scores"]),
        history=tuple(h for h in history if isinstance(h, BidsRevealed)),
        over=data["over"],
        winners=tuple(data["winners"]),
    )
