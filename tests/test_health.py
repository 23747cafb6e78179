import socket
import time

import pytest
from django.contrib.auth import get_user_model

from api import health

pytestmark = pytest.mark.django_db


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
