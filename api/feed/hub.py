"""Fan-out of appended events to the subscribers waiting in this process.

One listener per process (``events.notify``) hears every append. For a stream that has
subscribers here, the hub reads what is new once (``Batch``: the events after the
furthest-behind subscriber, and whether the game has finished) and hands that one batch to
every subscriber of the stream; each then redacts it for its own viewer. A subscriber
waits on an ``asyncio.Event``: no thread, no database connection.

Announcements heard while a read is under way make the hub read again when it is done,
so bursts cost one read each, not one per event. After the listener (re)connects, the
streams that moved while it was deaf are found with one query and read as above: a lost
notification costs a catch-up read, never a missed event.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection

from api.feed.dbthreads import DatabaseThreads
from events import notify

log = logging.getLogger(__name__)

BATCH = 500  # events one read fetches for a stream


@dataclass(frozen=True)
class FeedRow:
    """What the feed shows of a stored event (``api.viewers.event_document`` reads these
    fields): read raw, without building a model instance per event."""

    seq: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    actor: str
    recorded_at: datetime


@dataclass
class Batch:
    """What is new in a stream, read once for all its subscribers here."""

    since: int  # the rows are the events after this seq ...
    rows: list[FeedRow]  # ... in order (at most BATCH of them, as the hub reads)
    version: int  # the stream's latest seq when read
    finished: bool  # the game is over
    # each viewer's redaction of ``rows``, made by the first subscriber that needs it, and
    # each document's server-sent-event message (by the document's id)
    documents: dict[Any, list[dict[str, Any]]] = field(default_factory=dict)
    messages: dict[int, str] = field(default_factory=dict)


# The table's status, the stream's latest seq and the events after a seq, in one statement.
_BATCH = """
SELECT t.status, (SELECT max(seq) FROM events_storedevent WHERE stream_id = t.id),
       e.seq, e.type, e.schema_version, e.payload, e.actor, e.recorded_at
FROM games_table t
LEFT JOIN LATERAL (
    SELECT seq, type, schema_version, payload, actor, recorded_at FROM events_storedevent
    WHERE stream_id = t.id AND seq > %s ORDER BY seq LIMIT %s
) e ON true
WHERE t.id = %s
ORDER BY e.seq
"""


def read_batch(stream_id: uuid.UUID, since: int, limit: int = BATCH) -> Batch:
    """(In a database thread.) The events after ``since`` (at most ``limit``), the
    stream's latest seq and whether the game has finished: one query."""
    with connection.cursor() as cursor:
        cursor.execute(_BATCH, [since, limit, stream_id])
        found = cursor.fetchall()
    if not found:
        return Batch(since, [], 0, False)
    rows = [
        FeedRow(
            seq,
            kind,
            schema_version,
            json.loads(payload) if isinstance(payload, str) else payload,
            actor,
            at,
        )
        for _, _, seq, kind, schema_version, payload, actor, at in found
        if seq is not None
    ]
    status, version = found[0][0], found[0][1] or 0
    return Batch(since, rows, max(version, rows[-1].seq if rows else 0), status == "finished")


def versions_of(stream_ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """(In a database thread.) The latest seq of each stream, in one query."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id, max(seq) FROM events_storedevent "
            "WHERE stream_id = ANY(%s) GROUP BY stream_id",
            [stream_ids],
        )
        return {stream: int(seq) for stream, seq in cursor.fetchall()}


class Subscription:
    """One waiting client of one stream. ``after`` is the last seq it has delivered (the
    hub reads from the smallest ``after`` of a stream's subscribers; None: not known yet)."""

    def __init__(self, hub: Hub, stream_id: uuid.UUID, after: int | None) -> None:
        self._hub = hub
        self.stream_id = stream_id
        self.after = after
        self._ready = asyncio.Event()
        self._batch: Batch | None = None

    def deliver(self, batch: Batch) -> None:
        self._batch = batch
        self._ready.set()

    def interrupt(self) -> None:
        """Wake the waiter with no batch (the server is shedding its connection)."""
        self._ready.set()

    async def next(self, timeout: float) -> Batch | None:
        """The next batch read for this stream, or None after ``timeout`` seconds (or when
        interrupted). Waiting starts this process's listener if it is not running."""
        if not self._ready.is_set():
            self._hub.start()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), timeout)
        if not self._ready.is_set():
            return None
        self._ready.clear()
        batch, self._batch = self._batch, None
        return batch


class _Stream:
    def __init__(self) -> None:
        self.subscribers: set[Subscription] = set()
        self.version = 0  # the latest seq announced or read
        self.reading = False
        self.again = False  # an announcement came during the read


class Hub:
    """The subscribers of this process, by stream, and the listener that wakes them."""

    def __init__(self, threads: DatabaseThreads) -> None:
        self.threads = threads
        self._streams: dict[uuid.UUID, _Stream] = {}
        self._listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()

    @property
    def subscribers(self) -> int:
        return sum(len(s.subscribers) for s in self._streams.values())

    def start(self) -> None:
        if self._listener is None:
            self._listener = asyncio.get_running_loop().create_task(
                notify.listen(self.announced, self._caught_up), name="feed-listener"
            )

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None

    @contextlib.contextmanager
    def subscribe(self, stream_id: uuid.UUID, after: int | None = None) -> Iterator[Subscription]:
        """Register before reading what the client has missed: an append that commits
        after the registration is announced to it, one that committed before is read."""
        subscription = Subscription(self, stream_id, after)
        stream = self._streams.setdefault(stream_id, _Stream())
        stream.subscribers.add(subscription)
        try:
            yield subscription
        finally:
            stream.subscribers.discard(subscription)
            if not stream.subscribers and self._streams.get(stream_id) is stream:
                del self._streams[stream_id]

    def announced(self, stream_id: uuid.UUID, seq: int) -> None:
        stream = self._streams.get(stream_id)
        if stream is None:
            return  # nobody here waits on it
        stream.version = max(stream.version, seq)
        self._read_soon(stream_id, stream)

    def _read_soon(self, stream_id: uuid.UUID, stream: _Stream) -> None:
        if stream.reading:
            stream.again = True
            return
        stream.reading = True
        asyncio.get_running_loop().create_task(self._read(stream_id, stream))

    async def _read(self, stream_id: uuid.UUID, stream: _Stream) -> None:
        try:
            while stream.subscribers:
                stream.again = False
                known = [s.after for s in stream.subscribers if s.after is not None]
                since = min(known, default=stream.version)
                try:
                    batch = await self.threads.run(read_batch, stream_id, since)
                except Exception:
                    log.exception("feed: could not read stream %s; retrying", stream_id)
                    await asyncio.sleep(0.5)
                    stream.again = True
                    continue
                stream.version = max(stream.version, batch.version)
                for subscription in list(stream.subscribers):
                    subscription.deliver(batch)
                if not stream.again:
                    break
        finally:
            stream.reading = False

    async def _caught_up(self) -> None:
        """After (re)connecting: read every watched stream that moved meanwhile."""
        watched = list(self._streams)
        if watched:
            versions = await self.threads.run(versions_of, watched)
            for stream_id, version in versions.items():
                stream = self._streams.get(stream_id)
                if stream is not None and any(
                    s.after is None or s.after < version for s in stream.subscribers
                ):
                    self.announced(stream_id, version)
        self.listening.set()
