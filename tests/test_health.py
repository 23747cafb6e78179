import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from api import health
from events.models import StoredEvent
from events.notify import connection_params
from tests.webhooks.helpers import started_table, subscribe, users
from webhooks.models import Delivery
from webhooks.worker import APPLICATION_NAME, RELAY_LOCK, Relay

pytestmark = pytest.mark.django_db
HOOK = "http://127.0.0.1:9/hooks"  # never called here: no worker sends


def unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_healthz_is_ok_when_database_and_broker_answer(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True


def test_healthz_is_degraded_when_the_broker_is_down(client, settings):
    settings.CELERY_BROKER_URL = f"redis://:hunter2@127.0.0.1:{unused_port()}/0"

    started = time.monotonic()
    response = client.get("/healthz")

    assert time.monotonic() - started < 2.5
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is False
    assert "hunter2" not in response.content.decode()
    # where the broker is, and why it failed, are for staff only
    assert body["broker"] == {"ok": False}
    assert "127.0.0.1" not in response.content.decode()
    staff = get_user_model().objects.create_user("staff", password="x" * 12, is_staff=True)
    client.force_login(staff)
    body = client.get("/healthz").json()
    assert body["broker"]["url"].startswith("redis://:**@127.0.0.1:")
    assert body["broker"]["error"]
    assert "hunter2" not in str(body)


def test_healthz_with_a_bad_token_is_still_a_probe(client):
    response = client.get("/healthz", HTTP_AUTHORIZATION="Token not-a-token")
    assert response.status_code == 200
    assert "url" not in response.json()["broker"]


def test_broker_probe_gives_up_on_a_broker_that_never_answers(settings):
    settings.HEALTH_BROKER_TIMEOUT = 0.5
    with socket.socket() as silent:  # accepts connections, never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]

        started = time.monotonic()
        result = health.check_broker(f"amqp://guest:guest@127.0.0.1:{port}//")

    assert time.monotonic() - started < 2.0
    assert result["ok"] is False
    assert result["url"] == f"amqp://guest:**@127.0.0.1:{port}//"


# --- the webhook relay: whether one runs (any host), and how far behind it is ----------------


def staff_client(client):
    staff = get_user_model().objects.create_user("staff", password="x" * 12, is_staff=True)
    client.force_login(staff)
    return client


def relay_section(client) -> dict:
    response = client.get("/healthz")
    assert response.status_code == 200  # reported, never a 503
    return response.json()["webhook_relay"]


def wait_for(check, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout:.0f}s")


@contextmanager
def relay_thread() -> Iterator[Relay]:
    """A webhook relay as a worker runs it (a thread, its own session and lock)."""
    relay = Relay(interval=0.2)
    relay.start()
    try:
        yield relay
    finally:
        relay.stop()
        relay.join(10)


@pytest.mark.django_db(transaction=True)
def test_healthz_says_no_relay_runs_and_what_waits_for_one(client, settings) -> None:
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = True
    players = users("alice", "bob")
    subscribe(players[0], HOOK, ["all"])
    started_table(players, reaction_seconds=300)

    assert relay_section(client) == {"ok": False}  # anyone: only whether it is well
    relay = relay_section(staff_client(client))
    assert relay["running"] is False and relay["holder"] is None
    assert relay["ok"] is False
    assert relay["games_behind"] == 1
    assert relay["oldest_unrelayed_seconds"] >= 0
    assert relay["pending_deliveries"] == 0  # nothing relayed, so nothing to send yet
    assert relay["tolerance_seconds"] == settings.HEALTH_RELAY_LAG_SECONDS


@pytest.mark.django_db(transaction=True)
def test_healthz_shows_the_running_relay_and_how_far_behind_it_is(client, settings) -> None:
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = True
    players = users("alice", "bob")
    sub = subscribe(players[0], HOOK, ["all"])
    table = started_table(players, reaction_seconds=300)
    staff_client(client)

    with relay_thread(), relay_thread():  # two workers' relays: one relays, one stands by
        relay = wait_for(lambda: (r := relay_section(client))["games_behind"] == 0 and r)
        assert relay["ok"] is True and relay["running"] is True
        holder = relay["holder"]
        assert holder["application_name"] == APPLICATION_NAME
        assert holder["pid"] > 0 and holder["connected_at"] and holder["standby"] == 1
        assert relay["oldest_unrelayed_seconds"] is None
        # no worker sends them here: the relay's deliveries wait, and their age shows
        events = StoredEvent.objects.filter(stream_id=table.id).count()
        assert (
            relay["pending_deliveries"]
            == events
            == Delivery.objects.filter(subscription=sub).count()
        )
        assert relay["oldest_pending_seconds"] >= 0
        assert relay_section(Client()) == {"ok": True}  # anyone: only whether it is well

    assert wait_for(lambda: relay_section(client)["running"] is False)  # their locks died too


@pytest.mark.django_db(transaction=True)
def test_a_relay_that_holds_the_lock_but_falls_behind_is_not_ok(client, settings) -> None:
    settings.HEALTH_RELAY_LAG_SECONDS = 0.2
    players = users("alice", "bob")
    started_table(players, reaction_seconds=300)
    params = {**connection_params(), "application_name": APPLICATION_NAME}
    with psycopg.connect(autocommit=True, **params) as stuck:  # holds the lock, relays nothing
        stuck.execute("SELECT pg_advisory_lock(%s)", [RELAY_LOCK])
        time.sleep(0.3)
        relay = relay_section(staff_client(client))
        assert relay["running"] is True and relay["holder"]["pid"] == stuck.info.backend_pid
        assert relay["games_behind"] == 1 and relay["oldest_unrelayed_seconds"] > 0.2
        assert relay["ok"] is False
