"""Where the relay runs: a thread of each Celery worker, one relaying at a time.

The thread holds a PostgreSQL connection that LISTENs for the store's append
announcements (``events.notify``) and takes a session advisory lock: the holder relays
each announced game at once, and every ``FB_WEBHOOK_SWEEP_SECONDS`` relays any game that
is behind (a lost announcement) and re-sends overdue delivery lanes (a lost task, a killed
worker). The others try for the lock each interval; when the holder dies its session ends,
PostgreSQL frees the lock and another worker takes over. ``python manage.py
webhook_relay`` runs the same loop on its own (FB_WEBHOOK_RELAY=false keeps it out of the
workers).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import uuid
from typing import Any

import psycopg
from celery.signals import worker_ready, worker_shutting_down
from django.conf import settings
from django.db import connection

from events.notify import CHANNEL, connection_params, parse

log = logging.getLogger(__name__)

RELAY_LOCK = 0x66_6277_6872_6C79  # any constant the project uses for nothing else
APPLICATION_NAME = "fbservice-webhook-relay"  # the relay's sessions, in pg_stat_activity
RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)


class Relay(threading.Thread):
    def __init__(self, interval: float | None = None) -> None:
        super().__init__(name="fb-webhook-relay", daemon=True)
        self.interval = float(settings.FB_WEBHOOK_SWEEP_SECONDS if interval is None else interval)
        self.stopping = threading.Event()
        self.listener: psycopg.Connection[Any] | None = None

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        failures = 0
        try:
            while not self.stopping.is_set():
                try:
                    self.lead()
                    failures = 0
                except Exception:
                    log.exception("webhook relay failed; starting again")
                    delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                    failures += 1
                    with contextlib.suppress(Exception):
                        connection.close()
                    self.stopping.wait(delay)
        finally:
            with contextlib.suppress(Exception):
                connection.close()

    def lead(self) -> None:
        """Wait for the lock, then relay until stopped or the connection fails."""
        params = connection_params()
        params["application_name"] = APPLICATION_NAME
        with psycopg.connect(autocommit=True, **params) as conn:
            self.listener = conn
            try:
                while not self.take_lock(conn):
                    if self.stopping.wait(self.interval):
                        return
                log.info("webhook relay: this process relays")
                conn.execute(f"LISTEN {CHANNEL}")
                self.catch_up()
                next_sweep = time.monotonic() + self.interval
                while not self.stopping.is_set():
                    streams = self.heard(conn, max(next_sweep - time.monotonic(), 0.01))
                    self.relay(streams)
                    if time.monotonic() >= next_sweep:
                        self.catch_up()
                        next_sweep = time.monotonic() + self.interval
            finally:
                self.listener = None

    @staticmethod
    def take_lock(conn: psycopg.Connection[Any]) -> bool:
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", [RELAY_LOCK]).fetchone()
        return bool(row and row[0])

    def heard(self, conn: psycopg.Connection[Any], timeout: float) -> set[uuid.UUID]:
        """The games announced within ``timeout`` (after the first, a short drain)."""
        streams: set[uuid.UUID] = set()
        for note in conn.notifies(timeout=timeout, stop_after=1):
            parsed = parse(note.payload)
            if parsed is not None:
                streams.add(parsed[0])
        if streams:
            for note in conn.notifies(timeout=0.005, stop_after=500):
                parsed = parse(note.payload)
                if parsed is not None:
                    streams.add(parsed[0])
        return streams

    def relay(self, streams: set[uuid.UUID]) -> None:
        from webhooks.relay import relay_stream

        for stream_id in streams:
            relay_stream(stream_id)

    def catch_up(self) -> None:
        from webhooks import tasks
        from webhooks.relay import relay_all

        relay_all()
        tasks.sweep()


# pg_locks shows a bigint advisory key as two oids (high and low 32 bits, objsubid 1), in
# the database it was taken in: a relay of another database on the same server is not ours.
_HOLDER = """
SELECT l.pid, a.application_name, host(a.client_addr), a.backend_start,
       (SELECT count(*) FROM pg_stat_activity s
        WHERE s.datname = current_database() AND s.application_name = %s AND s.pid <> l.pid)
FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid::bigint = %s AND l.objid::bigint = %s
"""


def holder() -> dict[str, Any] | None:
    """The session that holds the relay's lock, from any host (None: no relay runs), and
    how many other relay sessions wait to take over (``standby``)."""
    with connection.cursor() as cursor:
        cursor.execute(_HOLDER, [APPLICATION_NAME, RELAY_LOCK >> 32, RELAY_LOCK & 0xFFFF_FFFF])
        row = cursor.fetchone()
    if row is None:
        return None
    pid, name, address, since, standby = row
    return {
        "pid": pid,
        "application_name": name,
        "client_addr": address,  # None: a unix socket
        "connected_at": since.isoformat() if since else None,
        "standby": standby,
    }


_started: list[Relay] = []


def _start(**_: Any) -> None:
    if settings.FB_WEBHOOK_RELAY:
        if not _started:
            os.register_at_fork(after_in_child=_close_in_child)
        relay = Relay()
        relay.start()
        _started.append(relay)


def _close_in_child() -> None:
    """A pool process forked later must not keep the relay's sessions (and its lock)
    alive after the worker dies: close its copies of their sockets (nothing is sent)."""
    for relay in _started:
        listener = relay.listener
        if listener is not None:
            with contextlib.suppress(Exception):
                os.close(listener.fileno())
    _started.clear()


def _stop(**_: Any) -> None:
    for relay in _started:
        relay.stop()


def connect_worker_signals() -> None:
    worker_ready.connect(_start, weak=False, dispatch_uid="fb-webhook-relay-start")
    worker_shutting_down.connect(_stop, weak=False, dispatch_uid="fb-webhook-relay-stop")
