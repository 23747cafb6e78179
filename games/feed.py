"""What the live feed reads of a game's stream, and how it hears of appends.

The feed (``api/feed/``) holds thousands of waiting clients per process; it asks the game
service for two things only: the events after a seq (with the stream's latest seq and
whether the game has finished, in one statement, read raw without a model instance per
event) and the latest seq of many streams at once (to catch up after its listener
reconnects). ``listen`` is the store's append announcements (``events.notify``).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection

from events.notify import listen

__all__ = ["FeedRow", "StreamRead", "latest_seqs", "listen", "read_stream"]


@dataclass(frozen=True)
class FeedRow:
    """What the feed shows of a stored event (``games.reads.event_document`` reads these
    fields)."""

    seq: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    actor: str
    recorded_at: datetime
    # who made the command: "timeout", "standing" (metadata's origin), or None (the actor)
    origin: str | None = None
    seat: int | None = None  # the seat the command was made for


@dataclass(frozen=True)
class StreamRead:
    rows: list[FeedRow]  # the events after the seq asked for, in order
    version: int  # the stream's latest seq
    finished: bool  # the game is over


# The table's status, the stream's latest seq and the events after a seq, in one statement.
_READ = """
SELECT t.status, (SELECT max(seq) FROM events_storedevent WHERE stream_id = t.id),
       e.seq, e.type, e.schema_version, e.payload, e.actor, e.recorded_at, e.origin, e.seat
FROM games_table t
LEFT JOIN LATERAL (
    SELECT seq, type, schema_version, payload, actor, recorded_at,
           coalesce(metadata->>'origin',
                    CASE WHEN metadata->>'timeout' = 'true' THEN 'timeout' END) AS origin,
           (metadata->>'seat')::int AS seat
    FROM events_storedevent
    WHERE stream_id = t.id AND seq > %s ORDER BY seq LIMIT %s
) e ON true
WHERE t.id = %s
ORDER BY e.seq
"""


def read_stream(stream_id: uuid.UUID, since: int, limit: int) -> StreamRead:
    """The events after ``since`` (at most ``limit``), the stream's latest seq and whether
    the game has finished: one query (an unknown stream reads as empty)."""
    with connection.cursor() as cursor:
        cursor.execute(_READ, [since, limit, stream_id])
        found = cursor.fetchall()
    if not found:
        return StreamRead([], 0, False)
    rows = [
        FeedRow(
            seq,
            kind,
            schema_version,
            json.loads(payload) if isinstance(payload, str) else payload,
            actor,
            at,
            origin,
            seat,
        )
        for _, _, seq, kind, schema_version, payload, actor, at, origin, seat in found
        if seq is not None
    ]
    status, version = found[0][0], found[0][1] or 0
    return StreamRead(rows, max(version, rows[-1].seq if rows else 0), status == "finished")


def latest_seqs(stream_ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """The latest seq of each stream (streams with no events are left out), one query."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id, max(seq) FROM events_storedevent "
            "WHERE stream_id = ANY(%s) GROUP BY stream_id",
            [stream_ids],
        )
        return {stream: int(seq) for stream, seq in cursor.fetchall()}
