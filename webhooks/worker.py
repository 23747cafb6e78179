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

import logging
import time
import uuid
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection

from events.followers import Follower, heard, worker_threads
from events.notify import CHANNEL

log = logging.getLogger(__name__)

RELAY_LOCK = 0x66_6277_6872_6C79  # any constant the project uses for nothing else
APPLICATION_NAME = "fbservice-webhook-relay"  # the relay's sessions, in pg_stat_activity


class Relay(Follower):
    application_name = APPLICATION_NAME
    what = "webhook relay"

    def __init__(self, interval: float | None = None) -> None:
        sweep = settings.FB_WEBHOOK_SWEEP_SECONDS if interval is None else interval
        super().__init__("fb-webhook-relay", float(sweep))

    def follow(self, conn: psycopg.Connection[Any]) -> None:
        """Wait for the lock, then relay until stopped or the connection fails."""
        while not self.take_lock(conn):
            if self.stopping.wait(self.interval):
                return
        log.info("webhook relay: this process relays")
        conn.execute(f"LISTEN {CHANNEL}")
        self.catch_up()
        next_sweep = time.monotonic() + self.interval
        while not self.stopping.is_set():
            self.relay(heard(conn, max(next_sweep - time.monotonic(), 0.01)))
            if time.monotonic() >= next_sweep:
                self.catch_up()
                next_sweep = time.monotonic() + self.interval

    @staticmethod
    def take_lock(conn: psycopg.Connection[Any]) -> bool:
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", [RELAY_LOCK]).fetchone()
        return bool(row and row[0])

    def relay(self, streams: set[uuid.UUID]) -> None:
        from webhooks.relay import relay_stream

        for stream_id in streams:
            relay_stream(stream_id)

    def catch_up(self) -> None:
        from webhooks import tasks, tournament_relay
        from webhooks.relay import relay_all

        relay_all()
        tournament_relay.relay_all()
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


connect_worker_signals = worker_threads(
    Relay, lambda: bool(settings.FB_WEBHOOK_RELAY), "fb-webhook-relay"
)
