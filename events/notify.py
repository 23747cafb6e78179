"""Appends announce themselves: listening for them without polling the database.

A trigger (``events/migrations/0003_notify_appends.py``) sends
``pg_notify('fb_events', '<stream id>:<last seq>')`` for every statement that appends
to a stream; PostgreSQL delivers it on commit only, so a rolled-back append announces
nothing. ``listen`` keeps one connection per process that LISTENs on the channel and
hands each announcement to a callback, reconnecting after any failure. Notifications sent
while it was not listening are lost: ``on_listening`` runs after every (re)connect so its
owner can catch up with one read.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from django.db import connections

log = logging.getLogger(__name__)

CHANNEL = "fb_events"
# A LISTEN connection that has heard nothing for this long is pinged, so a dead TCP
# connection (a database host gone without a reset) is noticed and replaced.
PING_SECONDS = 20.0
RETRY_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)
# A connect to a database host that does not answer gives up after this long (libpq waits
# forever by default), unless DATABASE_URL says otherwise (``?connect_timeout=N``).
CONNECT_TIMEOUT = 5


def parse(payload: str) -> tuple[uuid.UUID, int] | None:
    """``'<stream id>:<seq>'`` as (stream id, seq); None for anything else."""
    stream, _, seq = payload.partition(":")
    try:
        return uuid.UUID(stream), int(seq)
    except ValueError:
        return None


def announce(stream_id: uuid.UUID, seq: int) -> None:
    """Announce ``stream_id`` at ``seq`` without appending, in the caller's transaction
    (delivered on its commit, like the trigger's): for a change beside the stream that its
    listeners should read again (a tournament director's ruling ending a game)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{stream_id}:{seq}"])


def connection_params(alias: str = "default") -> dict[str, Any]:
    """What psycopg needs to reach the database Django uses (its async connection takes
    no Django cursor classes or adapters), with a connect timeout: pass these as they are
    (DATABASE_URL's options are in them, so a keyword given beside them again is a
    TypeError)."""
    params = dict(connections[alias].get_connection_params())
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    params.setdefault("application_name", "fbservice-listener")
    params.setdefault("connect_timeout", CONNECT_TIMEOUT)
    return params


async def listen(
    on_append: Callable[[uuid.UUID, int], None],
    on_listening: Callable[[], Awaitable[None]],
    *,
    params: dict[str, Any] | None = None,
    on_lost: Callable[[], None] | None = None,
) -> None:
    """LISTEN until cancelled: ``on_append(stream id, seq)`` for every announcement (on the
    event loop; it must not block), ``on_listening()`` after every successful (re)connect,
    ``on_lost()`` as soon as the connection failed (announcements may be missed from then
    until ``on_listening``). ``params``: as ``connection_params()`` gives (the default)."""
    attempt = 0
    while True:
        try:
            conninfo = params if params is not None else connection_params()
            async with await psycopg.AsyncConnection.connect(autocommit=True, **conninfo) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                attempt = 0
                await on_listening()
                while True:
                    heard = False
                    async for note in conn.notifies(timeout=PING_SECONDS):
                        heard = True
                        parsed = parse(note.payload)
                        if parsed is not None:
                            on_append(*parsed)
                    if not heard:
                        await asyncio.wait_for(conn.execute("SELECT 1"), PING_SECONDS)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # any failure: wait a little and listen again
            if on_lost is not None:
                on_lost()
            delay = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
            attempt += 1
            log.warning("event listener lost (%s); reconnecting in %.1f s", exc, delay)
            await asyncio.sleep(delay)
