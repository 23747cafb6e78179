"""Sign-in limits that cannot be turned against a user (docs/api.md, "Sign-in limits").

Failed sign-ins are counted per username from one address and per address, in
PostgreSQL: an attacker failing on purpose from other addresses never locks the victim out
(they did: about 20 wrong passwords made the victim's right one a 429 for an hour), an
address that keeps failing for one username is refused for it, whatever the password, and
an address spraying usernames is refused for all. The counts are rows every web process
shares (tests/faults/test_sign_in_limits.py runs them under gunicorn's workers)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import F
from rest_framework.test import APIClient

from api.models import LimitHit
from tests.api.helpers import API

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"
VICTIM = "192.0.2.10"  # the victim's own address


@pytest.fixture(autouse=True)
def _limits(settings) -> None:
    settings.FB_SIGN_IN_FAILURES = 3
    settings.FB_SIGN_IN_ADDRESS_FAILURES = 8
    settings.FB_SIGN_IN_WINDOW = 900


@pytest.fixture
def victim(db) -> str:
    get_user_model().objects.create_user(username="victim", password=PASSWORD)
    return "victim"


def sign_in(address: str, username: str, password: str, *, session: bool = False):
    client = APIClient(REMOTE_ADDR=address)
    body = {"username": username, "password": password}
    if not session:
        return client.post(f"{API}/auth/token", body, format="json")
    client.get(f"{API}/auth/session")
    token = client.cookies["csrftoken"].value
    return client.post(f"{API}/auth/session", body, format="json", HTTP_X_CSRFTOKEN=token)


def codes(responses) -> list[int]:
    return [r.status_code for r in responses]


def test_the_victims_password_works_while_others_fail_on_purpose(victim) -> None:
    for attacker in range(40):  # a botnet: 40 addresses, each past its own limit
        address = f"203.0.113.{attacker}"
        tries = [sign_in(address, "victim", "wrong-password") for _ in range(5)]
        assert codes(tries) == [400, 400, 400, 429, 429]
    assert sign_in(VICTIM, "victim", PASSWORD).status_code == 200
    assert sign_in(VICTIM, "victim", PASSWORD, session=True).status_code == 200
    assert sign_in("203.0.113.0", "victim", PASSWORD).status_code == 429  # its own limit


def test_an_address_failing_for_a_username_is_refused_for_it_whatever_the_password(
    victim,
) -> None:
    failed = [sign_in(VICTIM, "victim", "wrong-password") for _ in range(3)]
    assert codes(failed) == [400, 400, 400]
    assert {r.json()["code"] for r in failed} == {"invalid_credentials"}
    for session in (False, True):  # the right password too: a 429 tells nothing of it
        refused = sign_in(VICTIM, "Victim", PASSWORD, session=session)
        assert refused.status_code == 429
        body = refused.json()
        assert body["code"] == "too_many_failed_sign_ins"
        assert body["extra"]["per"] == "username" and body["extra"]["limit"] == 3
        assert 890 <= body["extra"]["retry_after"] <= 900
        assert refused["Retry-After"] == str(body["extra"]["retry_after"])
    # refusals are not failures: the count is still 3, nothing more was recorded
    assert LimitHit.objects.filter(scope="sign_in").count() == 3
    # another username from that address, and the username from another address, go on
    get_user_model().objects.create_user(username="roommate", password=PASSWORD)
    assert sign_in(VICTIM, "roommate", PASSWORD).status_code == 200
    assert sign_in("198.51.100.1", "victim", PASSWORD).status_code == 200


def test_an_address_spraying_usernames_is_refused_for_every_username(victim) -> None:
    sprayed = [sign_in("203.0.113.66", f"user{n}", "wrong-password") for n in range(10)]
    assert codes(sprayed) == [400] * 8 + [429] * 2
    assert sprayed[-1].json()["extra"]["per"] == "address"
    refused = sign_in("203.0.113.66", "victim", PASSWORD)  # a right password too
    assert (refused.status_code, refused.json()["code"]) == (429, "too_many_failed_sign_ins")
    assert int(refused["Retry-After"]) > 0
    assert sign_in(VICTIM, "victim", PASSWORD).status_code == 200  # elsewhere: fine


def test_a_success_forgets_that_usernames_failures_from_that_address(victim) -> None:
    assert codes([sign_in(VICTIM, "other", "wrong") for _ in range(3)]) == [400] * 3
    for _ in range(3):  # 2 + 2 + 2 failures for victim: never 3 in a row
        assert codes([sign_in(VICTIM, "victim", "wrong") for _ in range(2)]) == [400, 400]
        assert sign_in(VICTIM, "victim", PASSWORD).status_code == 200  # forgets its two
    assert codes([sign_in(VICTIM, "victim", "wrong") for _ in range(4)]) == [400] * 3 + [429]
    # forgotten for the address too; the other username's 3 stay: 3 + 3 + 2 make 8
    assert codes([sign_in(VICTIM, f"user{n}", "wrong") for n in range(3)]) == [400, 400, 429]
    assert sign_in(VICTIM, "user9", "wrong").json()["extra"]["per"] == "address"


def test_failures_are_forgotten_after_the_window(victim) -> None:
    assert codes([sign_in(VICTIM, "victim", "wrong") for _ in range(4)]) == [400] * 3 + [429]
    LimitHit.objects.update(at=F("at") - timedelta(seconds=900))  # the window has passed
    assert sign_in(VICTIM, "victim", "wrong").status_code == 400  # a try again, not a 429
    sign_in("198.51.100.5", "someone", "wrong")  # any failure prunes what no window counts
    assert LimitHit.objects.filter(scope="sign_in").count() == 2  # the two of just now


def test_the_counts_are_rows_that_name_no_username_in_clear(victim) -> None:
    sign_in(VICTIM, "victim", "wrong")
    hits = list(LimitHit.objects.filter(scope="sign_in").values_list("key", "sub"))
    assert len(hits) == 1 and hits[0][0] == VICTIM
    assert "victim" not in hits[0][1] and len(hits[0][1]) == 32  # a digest


def test_a_count_of_0_is_no_limit(settings, victim) -> None:
    settings.FB_SIGN_IN_FAILURES = settings.FB_SIGN_IN_ADDRESS_FAILURES = 0
    assert codes([sign_in(VICTIM, "victim", "wrong") for _ in range(12)]) == [400] * 12
    assert not LimitHit.objects.filter(scope="sign_in").exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_guesses_from_one_address_never_pass_the_limit(settings) -> None:
    """Each guess is counted before its password is checked, under a lock on its address:
    a burst reaching several threads (or processes) at once still gets 3 tries, not more."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    get_user_model().objects.create_user(username="victim", password=PASSWORD)
    answers: list[int] = []
    start = threading.Barrier(8)

    def guess() -> None:
        start.wait()
        try:
            answers.append(sign_in("203.0.113.7", "victim", "wrong-password").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=guess) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answers) == [400] * 3 + [429] * 5
