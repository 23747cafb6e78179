"""Goofspiel's bots. They choose from what their seat may know (its view), never from
the state: other seats' sealed bids and the prize deck's order stay hidden from them."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from .rules import Bid

BOT_KINDS = ("random", "heuristic")


def rng(seed: str, observation: dict[str, Any]) -> random.Random:
    key = f"{seed}:{observation['round']}:{observation['viewer']}"
    return random.Random(hashlib.sha256(key.encode()).hexdigest())


def choose(kind: str, observation: dict[str, Any], seed: str) -> Bid | None:
    """A bid for the observing seat, deterministic in ``seed`` and what it sees."""
    seat = observation["viewer"]
    if seat not in observation["awaiting"]:
        return None
    hand = sorted(observation["players"][seat]["hand"])
    if kind == "random":
        card = rng(seed, observation).choice(hand)
    else:
        # bid the card whose rank among those left matches the prize's rank in the
        # cards still to be won (a high prize gets a high card)
        rounds = observation["rounds"]
        index = round((observation["prize"] - 1) / max(rounds - 1, 1) * (len(hand) - 1))
        card = hand[min(max(index, 0), len(hand) - 1)]
    return Bid(observation["round"], card)
