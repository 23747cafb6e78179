"""Every LISTEN connection (the feed's ``listen``, the clock loop's, the webhook relay's)
is made from ``events.notify.connection_params``: with a connect timeout of its own, and
with DATABASE_URL's ``?connect_timeout=N`` (settings put it in OPTIONS) taken as it is,
not given twice (a TypeError that kept the webhook relay from ever starting)."""

from __future__ import annotations

import asyncio
import threading

import psycopg
import pytest
from django.db import connections

from events.notify import CONNECT_TIMEOUT, connection_params, listen
from games.clock_loop import _Listener
from webhooks.worker import RELAY_LOCK, Relay

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def url_connect_timeout(monkeypatch: pytest.MonkeyPatch) -> str:
    """As if DATABASE_URL ended in ?connect_timeout=7 (parse_database_url: a string)."""
    options = connections["default"].settings_dict["OPTIONS"]
    monkeypatch.setitem(options, "connect_timeout", "7")
    return "7"


def test_connection_params_bring_a_connect_timeout() -> None:
    assert "connect_timeout" not in connections["default"].settings_dict["OPTIONS"]
    assert connection_params()["connect_timeout"] == CONNECT_TIMEOUT


def test_the_database_urls_connect_timeout_is_the_one_used(url_connect_timeout: str) -> None:
    params = connection_params()
    assert params["connect_timeout"] == url_connect_timeout
    with psycopg.connect(autocommit=True, **params) as conn:
        assert conn.info.get_parameters()["connect_timeout"] == url_connect_timeout


def test_the_feeds_listener_listens_with_it(url_connect_timeout: str) -> None:
    lost: list[bool] = []

    async def until_listening() -> None:
        listening = asyncio.Event()

        async def on_listening() -> None:
            listening.set()

        task = asyncio.create_task(
            listen(lambda *_: None, on_listening, on_lost=lambda: lost.append(True))
        )
        try:
            await asyncio.wait_for(listening.wait(), 10)
        finally:
            task.cancel()

    asyncio.run(until_listening())
    assert lost == []


def _clock_loop_connect_timeout() -> str:
    listener = _Listener()
    try:
        conn = listener._connect()
        assert conn is not None, "the clock loop could not listen"
        return str(conn.info.get_parameters()["connect_timeout"])
    finally:
        listener.close()


def test_the_clock_loop_listens_with_a_connect_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _clock_loop_connect_timeout() == str(CONNECT_TIMEOUT)  # libpq's own: wait forever
    monkeypatch.setitem(connections["default"].settings_dict["OPTIONS"], "connect_timeout", "7")
    assert _clock_loop_connect_timeout() == "7"


def relay_lock_taken() -> bool:
    """Whether some session holds the relay's lock (ours, if we get it, ends with us)."""
    with psycopg.connect(autocommit=True, **connection_params()) as probe:
        row = probe.execute("SELECT pg_try_advisory_lock(%s)", [RELAY_LOCK]).fetchone()
    return not (row and row[0])


def test_the_webhook_relay_takes_its_lock_with_it(url_connect_timeout: str) -> None:
    relay = Relay(interval=0.2)
    relay.start()
    try:
        for _ in range(100):
            if relay_lock_taken():
                break
            threading.Event().wait(0.1)
        assert relay_lock_taken(), "the relay never took its lock"
    finally:
        relay.stop()
        relay.join(10)
    assert not relay.is_alive()
    assert not relay_lock_taken()  # its session ended with it, and so did the lock
