"""Who the client is, as the production server (gunicorn with uvicorn workers from
docker/gunicorn.conf.py, DEBUG off) decides it: from the connection's peer address alone,
unless that peer is a proxy named in TRUSTED_PROXIES. Neither server in front rewrites the
address from X-Forwarded-For (uvicorn's proxy headers are off), so a forged header buys no
fresh sign-in limit and lands in no audit record; a trusted proxy's header is believed.
X-Forwarded-Proto follows the same rule."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from events.models import CommandRecord, StoredEvent
from tests.service.helpers import human_table, state

pytestmark = pytest.mark.django_db(transaction=True)

AUTH_RATE = 10  # sign-ins a minute per client address on these servers
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "fault-tests-only-not-a-secret",
    "FB_AUTH_RATE": f"{AUTH_RATE}/min",
}


def sign_in(web, forwarded_for: str | None) -> int:
    """A failed sign-in (a new username each: only the per-address limit counts)."""
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    response = requests.post(
        f"{web.url}/api/v1/auth/token",
        json={"username": f"u{uuid.uuid4().hex[:12]}", "password": "wrong-password"},
        headers=headers,
        timeout=30,
    )
    assert response.status_code in (400, 429), response.text
    return response.status_code


def discard_with(web, forwarded_for: str) -> dict[str, Any]:
    """alice discards a card through ``web`` saying X-Forwarded-For: ``forwarded_for``;
    the metadata of the command's record and of its events."""
    table = human_table(2)
    loaded = state(table)
    token = Token.objects.get_or_create(user=User.objects.get(username="alice"))[0].key
    key = uuid.uuid4()
    card = loaded.state.players[0].hand[0]
    response = requests.post(
        f"{web.url}/api/v1/games/{table.id}/commands",
        json={"command": {"type": "play", "card": card, "discard": True}},
        headers={
            "Authorization": f"Token {token}",
            "Idempotency-Key": str(key),
            "X-Forwarded-For": forwarded_for,
        },
        timeout=30,
    )
    assert response.status_code == 201, response.text
    events = StoredEvent.objects.filter(stream_id=table.id, command_id=key)
    assert events.exists()
    return {
        "command": CommandRecord.objects.get(stream_id=table.id, command_id=key).metadata,
        "events": [e.metadata for e in events],
    }


def signs_in_as_secure(web, forwarded_proto: str) -> bool:
    """Whether the server took a session sign-in for HTTPS (X-Forwarded-Proto): with no
    Origin and no Referer, Django's CSRF check refuses a secure request (a Referer is
    required there) and lets a plain-HTTP one through to the credentials."""
    first = requests.get(f"{web.url}/api/v1/auth/session", timeout=30)
    token = first.json()["csrf_token"]
    response = requests.post(
        f"{web.url}/api/v1/auth/session",
        json={"username": "nobody", "password": "wrong-password"},
        headers={
            "X-CSRFToken": token,
            "Cookie": f"csrftoken={first.cookies['csrftoken']}",
            "X-Forwarded-Proto": forwarded_proto,
        },
        timeout=30,
    )
    code = response.json()["code"]
    assert code in ("csrf_failed", "invalid_credentials"), response.text
    return bool(code == "csrf_failed")


def test_a_forged_forwarded_for_is_ignored(webs) -> None:
    web = webs(**PRODUCTION)
    # a client's X-Forwarded-Proto does not make its plain-HTTP request a secure one (one
    # sign-in attempt of this client)
    assert signs_in_as_secure(web, "https") is False
    # a new forged address each time: still one client, limited at the configured rate
    codes = [sign_in(web, f"10.{i}.{i}.1, 203.0.113.{i}") for i in range(AUTH_RATE + 5)]
    assert codes == [400] * (AUTH_RATE - 1) + [429] * 6
    # the audit has the real peer, not what the client wrote
    recorded = discard_with(web, "198.51.100.23")
    assert recorded["command"]["ip"] == "127.0.0.1"
    assert {m["ip"] for m in recorded["events"]} == {"127.0.0.1"}


def test_a_trusted_proxys_forwarded_for_is_believed(webs) -> None:
    web = webs(**PRODUCTION, TRUSTED_PROXIES="127.0.0.1")
    # each client behind the proxy has its own limit...
    assert [sign_in(web, f"203.0.113.{i}") for i in range(AUTH_RATE + 5)] == [400] * (AUTH_RATE + 5)
    # ...counted against the address the proxy appended, whatever the client put before it
    codes = [sign_in(web, f"10.0.0.{i}, 198.51.100.7") for i in range(AUTH_RATE + 1)]
    assert codes == [400] * AUTH_RATE + [429]
    assert sign_in(web, None) == 400  # the proxy's own address is another client
    recorded = discard_with(web, "192.0.2.1, 198.51.100.23")
    assert recorded["command"]["ip"] == "198.51.100.23"
    assert {m["ip"] for m in recorded["events"]} == {"198.51.100.23"}
    # the proxy says the client came over HTTPS
    assert signs_in_as_secure(web, "https") is True


def test_make_runs_server_ignores_a_forged_forwarded_for_too(make_run_web) -> None:
    web = make_run_web(FB_AUTH_RATE=f"{AUTH_RATE}/min")
    codes = [sign_in(web, f"10.{i}.{i}.1") for i in range(AUTH_RATE + 2)]
    assert codes == [400] * AUTH_RATE + [429] * 2, web.tail()
    assert discard_with(web, "198.51.100.23")["command"]["ip"] == "127.0.0.1"
