"""kombu's Redis transport with a guard that keeps a worker alive across a broker restart.

kombu 5.7.0 (the latest release): when the broker goes away, Celery's consumer first
collects the connection (which detaches the transport from it: ``transport.client`` is
None) and then closes it. Closing the channel restores its unacknowledged messages (the
countdown tasks the worker holds, so whenever a window is open) through a new Redis pool,
whose parameters are read from ``transport.client``: ``AttributeError: 'NoneType' object
has no attribute 'hostname'``. That is not a connection error, so it escapes Celery's
reconnect handling and the worker exits ("Unrecoverable error").

The guard: a channel whose connection is gone restores nothing (the messages stay in
Redis's ``unacked`` hash, restored after the visibility timeout if Redis kept them; the
sweeper does their work long before), and asking it for a new pool is a connection error,
which Celery handles by reconnecting. ``install()`` makes ``redis://``, ``rediss://`` and
``redis+socket://`` URLs use this transport (kombu resolves transports by alias).
tests/faults/test_broker_restart.py reproduces the crash without it.

``Consumer`` (CELERY_WORKER_CONSUMER) makes a worker whose broker went away try again at
most a second apart, instead of Celery's 2, 4, 6 ... 30 s (docs/timers.md#brokers).
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker import consumer as celery_consumer
from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)


def _detached(channel: Any) -> bool:
    """True once the kombu connection this channel's transport served has been closed."""
    return getattr(channel.connection, "client", None) is None


class QoS(kombu_redis.QoS):
    def restore_unacked(self, client: Any = None) -> Any:
        if client is None and _detached(self.channel):
            log.warning(
                "broker connection lost: %d unacknowledged message(s) left in Redis "
                "(restored after the visibility timeout; the sweeper does their work)",
                len(self._delivered),
            )
            self._delivered.clear()
            return None
        return super().restore_unacked(client)  # type: ignore[no-untyped-call]


class Channel(kombu_redis.Channel):
    QoS = QoS

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        if _detached(self):
            raise RedisConnectionError("the broker connection is closed")
        params: dict[str, Any] = super()._connparams(asynchronous)  # type: ignore[no-untyped-call]
        return params


class Transport(kombu_redis.Transport):
    Channel = Channel


def install() -> None:
    """Use this transport for Redis broker URLs in this process (idempotent)."""
    for alias in ("redis", "rediss"):
        TRANSPORT_ALIASES[alias] = f"{__name__}:Transport"


# A worker reconnects to a broker that went away every RECONNECT_MAX seconds at most.
# Celery's consumer calls kombu's ensure_connection with its defaults (2 s, then 4, 6 ...
# up to 30 s between attempts): after a 30 s outage the worker came back up to 12 s after
# the broker did. Attempts are cheap (a refused connection fails at once; connect timeouts
# bound the rest), so they are made often.
RECONNECT_START, RECONNECT_STEP, RECONNECT_MAX = 0.2, 0.2, 1.0


class Consumer(celery_consumer.Consumer):  # type: ignore[misc]  # Celery ships no types
    """The worker's consumer (CELERY_WORKER_CONSUMER), reconnecting at most a second apart."""

    def ensure_connected(self, conn: Any) -> Any:
        retry = conn.ensure_connection

        def ensure_connection(*args: Any, **kwargs: Any) -> Any:
            kwargs.setdefault("interval_start", RECONNECT_START)
            kwargs.setdefault("interval_step", RECONNECT_STEP)
            kwargs.setdefault("interval_max", RECONNECT_MAX)
            return retry(*args, **kwargs)

        conn.ensure_connection = ensure_connection
        return super().ensure_connected(conn)
