"""Seeded randomness (G-14): Family Business's SHA-256 generator, plus a uniform choice.
Every result is recorded in an event, so replay never draws."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from games.family_business.rng import seed_hash, shuffled

__all__ = ["choice", "seed_hash", "shuffled"]

T = TypeVar("T")


def choice(items: Sequence[T], seed: str, label: str) -> T:
    """One of ``items``, uniformly, fixed by ``seed`` and ``label``."""
    return shuffled(items, seed, label)[0]
