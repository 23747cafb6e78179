"""Who runs the sweeper (``games.tasks.sweep_once``): every Celery worker, one at a time,
and Celery beat's ``fb-sweep`` as a second way in. See docs/timers.md.

Beat used to be the sweeper's only trigger, so with beat down a worker killed with
countdown tasks in hand left them to Redis's visibility timeout (two hours). Now each
worker process runs a ``WorkerSweeper`` thread, and a PostgreSQL advisory lock makes one
of them the sweeper: the first to take it keeps it for the life of its database session
and sweeps every FB_SWEEP_SECONDS; the others try again each interval. The lock belongs to
the session, so when the holder dies (or its connection does) PostgreSQL frees it at once
and another worker takes over within one interval. Beat's sweep takes the same lock for
one pass and does nothing while a worker holds it: no two sweepers duplicate work.

Advisory locks are per database, so test databases and developers' databases on one
server never share a sweeper.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from typing import Any

from celery.signals import worker_ready, worker_shutting_down
from django.conf import settings
from django.db import connection

from games.tasks import sweep_once

log = logging.getLogger(__name__)

# The advisory lock's key: any constant the project uses for nothing else ("fbsweep").
SWEEP_LOCK = 0x66_6273_7765_6570


def sweep_unless_held() -> dict[str, int] | None:
    """One sweep under the lock, for beat's task; None if another sweeper holds it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [SWEEP_LOCK])
        if not cursor.fetchone()[0]:
            return None
    try:
        return sweep_once()
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [SWEEP_LOCK])


class WorkerSweeper(threading.Thread):
    """A worker's sweeper thread: sweeps every ``interval`` seconds while it holds the
    lock, and tries to take it otherwise. It has its own database connection (Django's
    are per thread), closed when it stops, which frees the lock."""

    def __init__(self, interval: float | None = None) -> None:
        super().__init__(name="fb-sweeper", daemon=True)
        self.interval = float(settings.FB_SWEEP_SECONDS if interval is None else interval)
        self.stopping = threading.Event()
        self.session: int | None = None  # the backend pid of the session holding the lock
        self.socket: int | None = None  # that session's socket (see _close_in_child)

    def run(self) -> None:
        try:
            while not self.stopping.wait(self.interval):
                self.tick()
        finally:
            self.socket = None
            with contextlib.suppress(Exception):
                connection.close()

    def stop(self) -> None:
        self.stopping.set()

    def tick(self) -> None:
        try:
            if self.holds_lock():
                sweep_once()
        except Exception:
            # A database restart, say: drop the session (and with it the lock, if
            # PostgreSQL has not already); the next tick starts again.
            log.exception("worker sweeper: sweep failed")
            self.session = self.socket = None
            with contextlib.suppress(Exception):
                connection.close()

    def holds_lock(self) -> bool:
        """Take the lock, or confirm this session still has it. The pid tells a session
        that kept it from a new one (Django reconnected): a kept lock was taken twice
        just now (session locks count), so once is given back."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s), pg_backend_pid()", [SWEEP_LOCK])
            taken, pid = cursor.fetchone()
            if not taken:
                self.session = self.socket = None
                return False
            if pid == self.session:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [SWEEP_LOCK])
            else:
                log.info("worker sweeper: this worker sweeps (every %.1fs)", self.interval)
            self.session = pid
            self.socket = connection.connection.fileno()
        return True


_started: list[WorkerSweeper] = []


def _start(**_: Any) -> None:
    if settings.FB_WORKER_SWEEP:
        if not _started:
            os.register_at_fork(after_in_child=_close_in_child)
        sweeper = WorkerSweeper()
        sweeper.start()
        _started.append(sweeper)


def _close_in_child() -> None:
    """A process forked from the worker later (a pool process replacing one that died)
    inherits the sweeper's database socket: if it kept it open after the worker's death,
    the session, and the lock, would outlive the worker. Closing the child's copy of the
    descriptor leaves the worker's connection alone (no message is sent)."""
    for sweeper in _started:
        if sweeper.socket is not None:
            with contextlib.suppress(OSError):
                os.close(sweeper.socket)
    _started.clear()


def _stop(**_: Any) -> None:
    for sweeper in _started:
        sweeper.stop()


def connect_worker_signals() -> None:
    """A Celery worker starts its sweeper thread once ready and stops it at shutdown
    (FB_WORKER_SWEEP=false: not at all). Other processes never get the signals."""
    worker_ready.connect(_start, weak=False, dispatch_uid="fb-worker-sweeper-start")
    worker_shutting_down.connect(_stop, weak=False, dispatch_uid="fb-worker-sweeper-stop")


# Whether the lock is held, and so a sweeper runs (the clock loop's evidence of a worker).
_HELD = """
SELECT EXISTS (SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 1
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND ((classid::bigint << 32) | objid::bigint) = %s)
"""


def sweeper_running() -> bool:
    """Whether some session holds the sweeper's lock now: a Celery worker's sweeper thread,
    which keeps it while the worker lives (beat's sweep holds it for one pass, and runs in
    a worker too). The clock loop reads it as "a worker runs" (games.clock_loop.Health)."""
    with connection.cursor() as cursor:
        cursor.execute(_HELD, [SWEEP_LOCK])
        (held,) = cursor.fetchone()
    return bool(held)
