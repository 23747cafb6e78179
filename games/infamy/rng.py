"""Seeded randomness (G-14): the shared SHA-256 generator (``games.rng``).
Every result is recorded in an event, so replay never draws."""

from __future__ import annotations

from games.rng import choice, seed_hash, shuffled

__all__ = ["choice", "seed_hash", "shuffled"]
