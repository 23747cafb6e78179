"""Rate limits every web process shares: each counted request is a row in PostgreSQL
(``api.models.LimitHit``), so N processes (gunicorn's workers, several hosts) count one
limit, not N. A per-process cache would let an attacker multiply a limit by the number of
processes its requests are spread over.

``take`` is the one way in. Under a transaction-scoped advisory lock on the scope and key
it counts each limit's hits within its window and, when every one has room, records the
hit; otherwise it records nothing and says how long to wait. The lock makes counting and
recording one step for the concurrent requests of one key (a client address), whichever
process serves them, so a burst cannot slip past a limit. Old rows are deleted on the way,
a bounded batch at a time, so the table holds the hits the windows still count.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction


@dataclass(frozen=True)
class Limit:
    """At most ``count`` hits within ``seconds`` (a sliding window) of a key, or of a key
    and sub together (``per_sub``); a count of 0 or less is no limit. ``name`` says which
    limit a refusal is (``per`` in its answer)."""

    name: str
    count: int
    seconds: int
    per_sub: bool = False


@dataclass(frozen=True)
class Over:
    """A refusal: ``limit`` is full; one of its hits leaves the window in
    ``retry_after`` seconds."""

    limit: Limit
    retry_after: int


_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"
_PRUNE = """
DELETE FROM api_limithit WHERE id IN (
    SELECT id FROM api_limithit WHERE scope = %s AND at <= now() - make_interval(secs => %s)
    LIMIT 200 FOR UPDATE SKIP LOCKED
)"""
_COUNT = """
SELECT count(*) FROM api_limithit WHERE scope = %s AND key = %s AND (sub = %s OR NOT %s)
AND at > now() - make_interval(secs => %s)"""
# When the limit has room again: the count-th newest hit leaves the window (older first).
_ROOM = """
SELECT extract(epoch FROM at + make_interval(secs => %s) - now())
FROM api_limithit WHERE scope = %s AND key = %s AND (sub = %s OR NOT %s)
AND at > now() - make_interval(secs => %s) ORDER BY at DESC OFFSET %s LIMIT 1"""
_ADD = "INSERT INTO api_limithit (scope, key, sub, at) VALUES (%s, %s, %s, now()) RETURNING id"


def take(scope: str, key: str, limits: Sequence[Limit], *, sub: str = "") -> int | Over:
    """Record a hit of ``scope`` by ``key`` (and ``sub``) if every limit has room: its
    row's id (0: no limit counts, nothing recorded); else the refusal with the longest
    wait, and nothing recorded."""
    counted = [limit for limit in limits if limit.count > 0]
    if not counted:
        return 0
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_LOCK, [f"fbservice.limits:{scope}:{key}"])
        cursor.execute(_PRUNE, [scope, max(limit.seconds for limit in counted)])
        refusals = []
        for limit in counted:
            where: list[Any] = [scope, key, sub, limit.per_sub, limit.seconds]
            cursor.execute(_COUNT, where)
            if int(_first(cursor.fetchone())) >= limit.count:
                cursor.execute(_ROOM, [limit.seconds, *where, limit.count - 1])
                wait = float(_first(cursor.fetchone()))
                refusals.append(Over(limit, max(1, math.ceil(wait))))
        if refusals:
            return max(refusals, key=lambda over: over.retry_after)
        cursor.execute(_ADD, [scope, key, sub])
        return int(_first(cursor.fetchone()))


def forget(scope: str, key: str, sub: str) -> None:
    """Remove every hit of ``scope`` by ``key`` and ``sub``."""
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM api_limithit WHERE scope = %s AND key = %s AND sub = %s", [scope, key, sub]
        )


def key_part(text: str) -> str:
    """``text`` as a key: itself if short (an address), else its digest."""
    return text if len(text) <= 64 else hashlib.sha256(text.encode()).hexdigest()


def _first(row: tuple[Any, ...] | None) -> Any:
    """The one value a row holds (a count, an id, seconds); none: 0."""
    return row[0] if row else 0
