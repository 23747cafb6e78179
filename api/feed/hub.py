"""Fan-out of appended events to the subscribers waiting in this process.

One listener per process (``events.notify``) hears every append. For a stream that has
subscribers here, the hub reads what is new once (``Batch``: the events after the
furthest-behind subscriber, and whether the game has finished) and hands that one batch to
every subscriber of the stream; each then redacts it for its own viewer. A subscriber
waits on a future of its own: no thread, no database connection.

Announcements heard while a read is under way make the hub read again when it is done,
so bursts cost one read each, not one per event. After the listener (re)connects, the
streams that moved while it was deaf are found with one query and read as above: a lost
notification costs a catch-up read, never a missed event.

The hub also remembers each stream's latest batch for ``KEEP_SECONDS`` after its last
subscriber left, and keeps following the stream's announcements meanwhile: a long-poll
that comes back for the next events (the usual case) is answered from memory, with no
database read, as long as the listener has heard every announcement since that batch was
read (``remembered``). Any doubt (the listener lost its connection, the batch is older
than an announcement, it does not reach back to the caller's seq) means a read.

An announcement of a seq the stream already had is not an append: a tournament director's
ruling ended the game (``games.reviews`` announces it as '<game>:<version>'). The stream's
subscribers are handed a new batch all the same (its ``finished`` is what changed), and
the remembered one is forgotten.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from api.feed.dbthreads import DatabaseThreads
from api.feed.metrics import METRICS
from games import feed
from games.feed import FeedRow

log = logging.getLogger(__name__)

BATCH = 500  # events one read fetches for a stream
KEEP_SECONDS = 30.0  # how long a stream nobody waits on stays followed and remembered


@dataclass
class Batch:
    """What is new in a stream, read once for all its subscribers here."""

    since: int  # the rows are the events after this seq ...
    rows: list[FeedRow]  # ... in order (at most BATCH of them, as the hub reads)
    version: int  # the stream's latest seq when read
    finished: bool  # the game is over
    # when the read began and ended (``time.time()``; ``api.feed.metrics``' stages)
    read_begun: float = 0.0
    read_done: float = 0.0
    # each viewer's redaction of ``rows``, made by the first subscriber that needs it, and
    # each document's server-sent-event message (by the document's id)
    documents: dict[Any, list[dict[str, Any]]] = field(default_factory=dict)
    messages: dict[int, str] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """The rows reach the stream's latest seq (the read was not cut at its limit)."""
        return self.version <= (self.rows[-1].seq if self.rows else self.since)


def read_batch(stream_id: uuid.UUID, since: int, limit: int = BATCH) -> Batch:
    """(In a database thread.) The events after ``since`` (at most ``limit``), the
    stream's latest seq and whether the game has finished: one query."""
    begun = time.time()
    read = feed.read_stream(stream_id, since, limit)
    return Batch(since, read.rows, read.version, read.finished, begun, time.time())


def _observe_read(batch: Batch, heard: float, known: int) -> None:
    """The first stages of the events this read found that were announced (past ``known``,
    the furthest any earlier read of the stream reached)."""
    for row in batch.rows:
        if row.seq > known:
            METRICS.since("commit", row.recorded_at.timestamp(), heard)
    METRICS.since("queued", heard, batch.read_begun)
    METRICS.since("read", batch.read_begun, batch.read_done)


class Subscription:
    """One waiting client of one stream. ``after`` is the last seq it has delivered (the
    hub reads from the smallest ``after`` of a stream's subscribers; None: not known yet)."""

    def __init__(self, hub: Hub, stream_id: uuid.UUID, after: int | None) -> None:
        self._hub = hub
        self.stream_id = stream_id
        self.after = after
        # set by a delivery or an interrupt until ``next`` takes it (an Event's semantics);
        # a wait is one future and one timer: ``asyncio.wait_for`` on an Event made a task,
        # two futures and a timer per wait, for each of thousands of subscribers per move
        self._woken = False
        self._waiter: asyncio.Future[None] | None = None
        self._batch: Batch | None = None

    def deliver(self, batch: Batch) -> None:
        self._batch = batch
        self._wake()

    def interrupt(self) -> None:
        """Wake the waiter with no batch (the server is shedding its connection)."""
        self._wake()

    def _wake(self) -> None:
        self._woken = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def next(self, timeout: float) -> Batch | None:
        """The next batch read for this stream, or None after ``timeout`` seconds (or when
        interrupted). Waiting starts this process's listener if it is not running."""
        if not self._woken:
            self._hub.start()
            loop = asyncio.get_running_loop()
            waiter = self._waiter = loop.create_future()
            timer = loop.call_later(max(0.0, timeout), _time_up, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiter = None
        if not self._woken:
            return None
        self._woken = False
        batch, self._batch = self._batch, None
        return batch


def _time_up(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class _Stream:
    def __init__(self) -> None:
        self.subscribers: set[Subscription] = set()
        self.version = 0  # the latest seq announced or read
        self.reading = False
        self.again = False  # an announcement came during the read
        # the latest complete batch read, and the listener's epoch when it was read
        self.last: Batch | None = None
        self.last_epoch = -1
        self.idle_since: float | None = None  # when its last subscriber left
        self.heard: float | None = None  # when the first announcement not read yet came
        self.read_to = 0  # the furthest seq a read of the stream reached


class Hub:
    """The subscribers of this process, by stream, and the listener that wakes them."""

    def __init__(self, threads: DatabaseThreads) -> None:
        self.threads = threads
        self._streams: dict[uuid.UUID, _Stream] = {}
        self._listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()
        # Bumped whenever the listener may have missed an announcement (lost, reconnected):
        # a batch remembered under an older epoch is never trusted.
        self._epoch = 0
        self._pruned = time.monotonic()

    @property
    def subscribers(self) -> int:
        return sum(len(s.subscribers) for s in self._streams.values())

    def start(self) -> None:
        if self._listener is None:
            self._listener = asyncio.get_running_loop().create_task(
                feed.listen(self.announced, self._caught_up, on_lost=self._lost),
                name="feed-listener",
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
        self._prune()
        subscription = Subscription(self, stream_id, after)
        stream = self._streams.setdefault(stream_id, _Stream())
        stream.subscribers.add(subscription)
        stream.idle_since = None
        try:
            yield subscription
        finally:
            stream.subscribers.discard(subscription)
            if not stream.subscribers:
                stream.idle_since = time.monotonic()

    def remembered(self, stream_id: uuid.UUID, after: int) -> Batch | None:
        """The stream's latest batch if it holds everything after ``after`` the stream had
        when the listener last heard of it; None if only a read can tell."""
        stream = self._streams.get(stream_id)
        if stream is None or stream.last is None or not self.listening.is_set():
            return None
        batch = stream.last
        if (
            stream.last_epoch != self._epoch
            or batch.version < stream.version
            or not batch.since <= after
        ):
            return None
        return batch

    def remember(self, stream_id: uuid.UUID, batch: Batch, epoch: int) -> None:
        """Keep ``batch`` (read by a subscriber of the stream that subscribed at ``epoch``)
        as the stream's latest, if it is complete and no older than what is known."""
        stream = self._streams.get(stream_id)
        if stream is None or epoch != self._epoch or not batch.complete:
            return
        if stream.last is not None and stream.last.version > batch.version:
            return
        stream.version = max(stream.version, batch.version)
        stream.read_to = max(stream.read_to, batch.version)
        stream.last, stream.last_epoch = batch, epoch

    @property
    def epoch(self) -> int:
        return self._epoch

    def _prune(self) -> None:
        now = time.monotonic()
        if now - self._pruned < 1.0:
            return
        self._pruned = now
        for stream_id, stream in list(self._streams.items()):
            if (
                not stream.subscribers
                and not stream.reading
                and stream.idle_since is not None
                and now - stream.idle_since > KEEP_SECONDS
            ):
                del self._streams[stream_id]

    def announced(self, stream_id: uuid.UUID, seq: int) -> None:
        stream = self._streams.get(stream_id)
        if stream is None:
            return  # nobody here waits on it
        if seq <= stream.version:
            # Not a new event: something beside the stream changed (a ruling ended the
            # game, ``games.reviews``); what is remembered may say it runs. Read again.
            stream.last = None
        stream.version = max(stream.version, seq)
        if stream.subscribers:
            if stream.heard is None:
                stream.heard = time.time()
            self._read_soon(stream_id, stream)
        # else: the remembered batch is now older than the stream (``remembered`` says so)

    def _lost(self) -> None:
        self.listening.clear()
        self._epoch += 1

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
                epoch = self._epoch
                known = [s.after for s in stream.subscribers if s.after is not None]
                since = min(known, default=stream.version)
                heard, stream.heard = stream.heard, None
                try:
                    batch = await self.threads.run(read_batch, stream_id, since)
                    if heard is not None:
                        _observe_read(batch, heard, max(stream.read_to, batch.since))
                    stream.read_to = max(stream.read_to, batch.version)
                except Exception:
                    log.exception("feed: could not read stream %s; retrying", stream_id)
                    await asyncio.sleep(0.5)
                    stream.again = True
                    continue
                stream.version = max(stream.version, batch.version)
                if epoch == self._epoch and batch.complete:
                    stream.last, stream.last_epoch = batch, epoch
                for subscription in list(stream.subscribers):
                    subscription.deliver(batch)
                if not stream.again:
                    break
        finally:
            stream.reading = False

    async def _caught_up(self) -> None:
        """After (re)connecting: read every watched stream that moved meanwhile. Nothing
        remembered from before is trusted (the epoch moves on)."""
        self._epoch += 1
        for idle in [k for k, s in self._streams.items() if not s.subscribers]:
            del self._streams[idle]
        watched = list(self._streams)
        if watched:
            versions = await self.threads.run(feed.latest_seqs, watched)
            for stream_id, version in versions.items():
                stream = self._streams.get(stream_id)
                if stream is not None and any(
                    s.after is None or s.after < version for s in stream.subscribers
                ):
                    self.announced(stream_id, version)
        self.listening.set()
