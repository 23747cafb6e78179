"""A game's rulings chain: the proof that covers tournament directors' rulings.

A game's results may rest on its rulings (``games.reviews``), so an exported record proves
them as it proves the events: each ruling's hash is ``sha256(prev_hash || canonical JSON of
the ruling)``, where ``prev_hash`` is the previous ruling's hash (``GENESIS`` for the
first) and the hashed body names the ruling's place in the chain (``n``: 1, 2, ...) and
the hash of the game's event it was recorded at (``at_hash``: event ``version``'s, or
``GENESIS`` at version 0). A ruling added, removed, altered or moved breaks the chain from
there on, and a ruling cannot be moved to another point of the game without breaking it.

The author is hashed by id: a username may change, a ruling may not. Pure (standard
library and ``events.chain``), so ``games.verify`` checks a record anywhere.
"""

from __future__ import annotations

from typing import Any

from events.chain import GENESIS, chain_hash

__all__ = ["GENESIS", "ruling_body", "ruling_hash"]


def ruling_body(
    *,
    stream_id: str,
    n: int,
    id: int,
    kind: str,
    winners: list[int],
    reason: str,
    seq: int | None,
    version: int,
    at_hash: str,
    author: int,
    created_at: str,
) -> dict[str, Any]:
    """The fields a ruling's hash covers: what was ruled, by whom, when, and where in the
    game and in the chain."""
    return {
        "stream_id": stream_id,
        "n": n,
        "id": id,
        "kind": kind,
        "winners": list(winners),
        "reason": reason,
        "seq": seq,
        "version": version,
        "at_hash": at_hash,
        "author": author,
        "created_at": created_at,
    }


def ruling_hash(prev_hash: str, body: dict[str, Any]) -> str:
    return chain_hash(prev_hash, body)
