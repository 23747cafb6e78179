"""Deterministic shuffles derived from the game seed.

The engine owns its generator (SHA-256 in counter mode) instead of relying on ``random``,
so an exported game can be re-run and checked by any implementation, on any Python.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")


def seed_hash(seed: str, salt: str = "") -> str:
    """The commitment to the seed that every view shows before the end. Salted (the salt
    is as secret as the seed until the end), so a short or guessable seed, such as a staff
    sandbox's, cannot be found by hashing guesses; unsalted for games started without one."""
    if not salt:
        return hashlib.sha256(seed.encode()).hexdigest()
    return hashlib.sha256(f"{salt}\x00{seed}".encode()).hexdigest()


def _stream(seed: str, label: str) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(f"{seed}\x00{label}\x00{counter}".encode()).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(block[i : i + 8], "big")
        counter += 1


def _below(stream: Iterator[int], n: int) -> int:
    # Rejection sampling keeps every index equally likely.
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value = next(stream)
        if value < limit:
            return value % n


def shuffled(items: Sequence[T], seed: str, label: str) -> tuple[T, ...]:
    """A Fisher-Yates shuffle of ``items`` determined by ``seed`` and ``label``."""
    out = list(items)
    stream = _stream(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = _below(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def choice(items: Sequence[T], seed: str, label: str) -> T:
    """One of ``items``, uniformly, fixed by ``seed`` and ``label``."""
    return shuffled(items, seed, label)[0]
