"""What one process's feed will hold: per user, in all, and what it sheds under load.

The counts are per process (each feed process protects itself; behind a load balancer a
user may hold ``FB_FEED_MAX_PER_USER`` connections in each process). A user over the cap
gets 429 ``too_many_feeds``; a process at ``FB_FEED_MAX_CONNECTIONS`` answers new feed
requests 503 ``feed_overloaded`` with ``Retry-After``. When the event loop itself falls
behind with work of its own (a timer that should fire every ``LAG_PROBE_SECONDS`` fires
late by more than ``FB_FEED_SHED_LAG_MS`` at ``LAG_PROBES`` probes in a row, while the
loop's thread wanted the CPU, on it or queued for it, for at least ``BUSY_SHARE`` of that
time: ``demand``), the process refuses new
feed connections and ends its oldest streams, a tenth at a time: streams resume from
``Last-Event-ID`` when the load has passed, and commands and ``/healthz`` keep answering
meanwhile.

A loop that is late while its thread does not even ask for the CPU is waiting for
something shedding cannot give back: the GIL (this process's other threads, a garbage
collection) or a blocking call. Ending streams then only adds reconnects, each a sign-in
and a read, and leaves their viewers seconds behind: it is not done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.conf import settings

from api.errors import ApiError

log = logging.getLogger(__name__)

LAG_PROBE_SECONDS = 0.25
LAG_PROBES = 4
BUSY_SHARE = 0.8  # of a probe's wall time, the loop's thread on the CPU
RETRY_AFTER_SECONDS = 5


class Demand:
    """How long the calling thread has wanted the CPU: on it, or runnable and waiting for
    it (Linux's per-thread ``schedstat``: a thread starved by other processes still
    wants it; one waiting for the GIL or in a blocking call does not). Elsewhere: the
    time it was on the CPU."""

    def __init__(self) -> None:
        self._fd: int | None = None
        with contextlib.suppress(OSError):
            self._fd = os.open(
                f"/proc/self/task/{threading.get_native_id()}/schedstat", os.O_RDONLY
            )

    def seconds(self) -> float:
        if self._fd is not None:
            with contextlib.suppress(OSError, ValueError):
                on_cpu, queued, _ = os.pread(self._fd, 128, 0).split()
                return (int(on_cpu) + int(queued)) / 1e9
        return time.thread_time()

    def __del__(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)


@dataclass(eq=False)
class Slot:
    """One open feed connection. ``shed`` is set when the process wants it to end."""

    user_id: int
    opened: float = field(default_factory=time.monotonic)
    shed: asyncio.Event = field(default_factory=asyncio.Event)
    wakers: list[Callable[[], None]] = field(default_factory=list)  # called when shed


class Limits:
    def __init__(self) -> None:
        self._by_user: Counter[int] = Counter()
        self._slots: dict[Slot, None] = {}  # insertion order: oldest first
        self.lag_ms = 0.0
        self.busy = 0.0  # share of the last probe the loop's thread wanted the CPU
        self._late_probes = 0
        self._probe: asyncio.Task[None] | None = None

    @property
    def open(self) -> int:
        return len(self._slots)

    @property
    def overloaded(self) -> bool:
        """The loop was late past the threshold at each of the last LAG_PROBES probes (one
        late wake-up is a busy machine's scheduling; several in a row are a backlog)."""
        return self._late_probes >= LAG_PROBES

    def check_capacity(self) -> None:
        """Refuse a new feed connection if this process is full or falling behind."""
        self._start_probe()
        if self.open >= settings.FB_FEED_MAX_CONNECTIONS or self.overloaded:
            raise ApiError(
                "feed_overloaded",
                "This server holds as many feed connections as it can; retry shortly.",
                retry_after=RETRY_AFTER_SECONDS,
            )

    def check(self, user_id: int) -> None:
        """Refuse a new feed connection of ``user_id`` if it is over a limit."""
        self.check_capacity()
        held = self._by_user[user_id]
        if held >= settings.FB_FEED_MAX_PER_USER:
            raise ApiError(
                "too_many_feeds",
                f"You hold {held} open feed connections, the most allowed; close one first.",
                limit=settings.FB_FEED_MAX_PER_USER,
            )

    @contextlib.contextmanager
    def slot(self, user_id: int, *, checked: bool = False) -> Iterator[Slot]:
        """Hold a feed connection of ``user_id`` (``checked``: ``check`` said yes already;
        a stream checks before its response starts and holds the slot while it runs)."""
        if not checked:
            self.check(user_id)
        slot = Slot(user_id)
        self._by_user[user_id] += 1
        self._slots[slot] = None
        try:
            yield slot
        finally:
            self._slots.pop(slot, None)
            self._by_user[user_id] -= 1
            if self._by_user[user_id] <= 0:
                del self._by_user[user_id]

    def _start_probe(self) -> None:
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._measure_lag())

    async def _measure_lag(self) -> None:
        demand = Demand()
        while True:
            before, wanted_before = time.monotonic(), demand.seconds()
            await asyncio.sleep(LAG_PROBE_SECONDS)
            took = time.monotonic() - before
            self.lag_ms = max(0.0, (took - LAG_PROBE_SECONDS) * 1000)
            self.busy = (demand.seconds() - wanted_before) / took
            late = self.lag_ms > settings.FB_FEED_SHED_LAG_MS and self.busy >= BUSY_SHARE
            self._late_probes = self._late_probes + 1 if late else 0
            if self.overloaded and self._slots:
                self._shed(max(1, len(self._slots) // 10))

    def _shed(self, count: int) -> None:
        oldest = [s for s in self._slots if not s.shed.is_set()][:count]
        for slot in oldest:
            slot.shed.set()
            for wake in slot.wakers:
                wake()
        log.warning(
            "feed: event loop %.0f ms late, its thread %.0f%% busy; ending %d of %d streams",
            self.lag_ms,
            self.busy * 100,
            len(oldest),
            len(self._slots),
        )
