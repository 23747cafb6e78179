"""Seeded randomness (G-14): the shared SHA-256 generator (``games.rng``), with the
specification's labels (3.6). Every result is recorded in an event: replay never draws."""

from __future__ import annotations

from games.rng import choice, seed_hash, shuffled

__all__ = ["choice", "seed_hash", "shuffled"]
