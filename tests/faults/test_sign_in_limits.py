"""Sign-in limits under gunicorn with several workers, as in production: the counts are
PostgreSQL's (``api.limits``), so a burst spread over the workers gets the limit once,
not once per worker (a per-process count let about 20 guesses per process through), and
a victim's right password from its own address still signs in.

The client addresses come from ``X-Forwarded-For``, believed from the test's own address
(``TRUSTED_PROXIES=127.0.0.1``), as a reverse proxy in front would send them."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct-horse-battery"


def sign_in(url: str, address: str, password: str) -> requests.Response:
    return requests.post(  # a connection of its own: the workers share the requests
        f"{url}/api/v1/auth/token",
        json={"username": "victim", "password": password},
        headers={"X-Forwarded-For": address, "Connection": "close"},
        timeout=60,
    )


def test_a_burst_over_the_workers_gets_the_limit_once_and_the_victim_signs_in(
    webs, settings
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the server's
    User.objects.create_user(username="victim", password=PASSWORD)
    web = webs(
        workers=3,
        TRUSTED_PROXIES="127.0.0.1",
        FB_SIGN_IN_FAILURES="4",
        FB_SIGN_IN_ADDRESS_FAILURES="100",
    )
    answers: list[Any] = []
    start = threading.Barrier(15)

    def guess() -> None:
        start.wait()
        answers.append(sign_in(web.url, "203.0.113.5", "wrong-password"))

    threads = [threading.Thread(target=guess) for _ in range(15)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    statuses = sorted(r.status_code for r in answers)
    assert statuses == [400] * 4 + [429] * 11, [r.text for r in answers]
    refused = next(r for r in answers if r.status_code == 429)
    assert refused.json()["code"] == "too_many_failed_sign_ins"
    assert int(refused.headers["Retry-After"]) > 0
    # the attacker's address stays refused, even with the right password; the victim's not
    assert sign_in(web.url, "203.0.113.5", PASSWORD).status_code == 429
    assert sign_in(web.url, "198.51.100.20", PASSWORD).status_code == 200
