"""Seeded randomness: the shared generator (``games.rng``), one label per use."""

from __future__ import annotations

from games.rng import seed_hash, shuffled

__all__ = ["seed_hash", "shuffled"]
