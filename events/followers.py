"""Threads of the Celery workers that follow the store's announcements (``events.notify``):
the webhook relay (``webhooks.worker``) and the ratings projector (``ratings.worker``).

Each holds its own PostgreSQL connection (named in ``pg_stat_activity`` by its
``application_name``) that LISTENs for appends; when the connection or its work fails it
starts again after a growing pause, so a restarted database or a bug in one game's
projection does not end the thread. ``worker_threads`` wires a kind of follower to the
worker's start and shutdown, one per worker process, and keeps a pool process forked
later from holding the follower's session open after the worker dies.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
from celery.signals import worker_ready, worker_shutting_down
from django.db import connection

from events.notify import connection_params, parse

log = logging.getLogger(__name__)

RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)


class Follower(threading.Thread):
    """A daemon thread that runs ``follow`` on a fresh listening connection until stopped."""

    application_name = "fbservice-follower"
    what = "follower"  # for the log

    def __init__(self, name: str, interval: float) -> None:
        super().__init__(name=name, daemon=True)
        self.interval = interval
        self.stopping = threading.Event()
        self.listener: psycopg.Connection[Any] | None = None

    def stop(self) -> None:
        self.stopping.set()

    def follow(self, conn: psycopg.Connection[Any]) -> None:
        """Work on ``conn`` (autocommit, this follower's own) until stopped or it fails."""
        raise NotImplementedError

    def run(self) -> None:
        failures = 0
        try:
            while not self.stopping.is_set():
                try:
                    self.session()
                    failures = 0
                except Exception:
                    log.exception("%s failed; starting again", self.what)
                    delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                    failures += 1
                    with contextlib.suppress(Exception):
                        connection.close()
                    self.stopping.wait(delay)
        finally:
            with contextlib.suppress(Exception):
                connection.close()

    def session(self) -> None:
        params = connection_params()
        params["application_name"] = self.application_name
        with psycopg.connect(autocommit=True, **params) as conn:
            self.listener = conn
            try:
                self.follow(conn)
            finally:
                self.listener = None


def heard(conn: psycopg.Connection[Any], timeout: float) -> set[uuid.UUID]:
    """The games announced within ``timeout`` (after the first, a short drain)."""
    streams: set[uuid.UUID] = set()
    for wait, most in ((timeout, 1), (0.005, 500)):
        for note in conn.notifies(timeout=wait, stop_after=most):
            parsed = parse(note.payload)
            if parsed is not None:
                streams.add(parsed[0])
        if not streams:
            break
    return streams


def worker_threads(
    make: Callable[[], Follower], enabled: Callable[[], bool], uid: str
) -> Callable[[], None]:
    """The function that connects one ``make()`` follower per Celery worker (when
    ``enabled()`` at the worker's start) to the worker's start and shutdown signals."""
    started: list[Follower] = []

    def close_in_child() -> None:
        # a pool process forked later must not keep the follower's session (and any lock
        # it holds) alive after the worker dies: close its copy of the socket, send nothing
        for follower in started:
            listener = follower.listener
            if listener is not None:
                with contextlib.suppress(Exception):
                    os.close(listener.fileno())
        started.clear()

    def start(**_: Any) -> None:
        if enabled():
            if not started:
                os.register_at_fork(after_in_child=close_in_child)
            follower = make()
            follower.start()
            started.append(follower)

    def stop(**_: Any) -> None:
        for follower in started:
            follower.stop()

    def connect() -> None:
        worker_ready.connect(start, weak=False, dispatch_uid=f"{uid}-start")
        worker_shutting_down.connect(stop, weak=False, dispatch_uid=f"{uid}-stop")

    return connect
