"""Sign-up, tokens and sessions."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.helpers import API

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def post(client: APIClient, path: str, body: dict | None = None, **extra):
    return client.post(f"{API}{path}", body or {}, format="json", **extra)


def test_register_returns_a_token_that_signs_requests_in(anon) -> None:
    response = post(anon, "/auth/register", {"username": "erin", "password": PASSWORD})
    assert response.status_code == 201
    body = response.json()
    assert body["user"]["username"] == "erin" and body["user"]["is_staff"] is False
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get(f"{API}/auth/me").json()["username"] == "erin"
    login = post(anon, "/auth/token", {"username": "erin", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["token"] == body["token"]
    # revoking the token signs it out
    assert client.delete(f"{API}/auth/token").status_code == 204
    revoked = client.get(f"{API}/auth/me")
    assert (revoked.status_code, revoked.json()["code"]) == (401, "authentication_failed")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "alice", "password": PASSWORD}, "username"),  # taken
        ({"username": "ALICE", "password": PASSWORD}, "username"),  # taken, any case
        ({"username": "erin", "password": "123"}, "password"),  # too short, numeric
        ({"username": "erin", "password": "password"}, "password"),  # too common
        ({"username": "bad name!", "password": PASSWORD}, "username"),
        ({"username": "erin"}, "password"),
        ({"username": 5, "password": PASSWORD}, "username"),
        ({"username": "erin", "password": PASSWORD, "is_staff": True}, "is_staff"),
    ],
)
def test_bad_registrations_are_400_with_the_field(anon, alice, body, field) -> None:
    response = post(anon, "/auth/register", body)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert field in response.json()["extra"]["fields"]


def test_wrong_credentials(anon, alice) -> None:
    for body in ({"username": "alice", "password": "nope"}, {"username": "zed", "password": "x"}):
        response = post(anon, "/auth/token", body)
        assert (response.status_code, response.json()["code"]) == (400, "invalid_credentials")
    garbage = anon.generic("POST", f"{API}/auth/token", "{oops", content_type="application/json")
    assert (garbage.status_code, garbage.json()["code"]) == (400, "malformed_json")


def test_unauthenticated_requests_are_401(anon) -> None:
    for path in ("/tables", "/auth/me", "/games/00000000-0000-0000-0000-000000000000"):
        response = anon.get(f"{API}{path}")
        assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
        assert response["WWW-Authenticate"] == "Token"
    bad_token = APIClient()
    bad_token.credentials(HTTP_AUTHORIZATION="Token nope")
    response = bad_token.get(f"{API}/tables")
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")


def test_a_browser_session_needs_the_csrf_token(alice) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    hello = browser.get(f"{API}/auth/session").json()
    assert hello["user"] is None and hello["csrf_token"]
    creds = {"username": "alice", "password": "pw"}
    forged = post(browser, "/auth/session", creds)
    assert (forged.status_code, forged.json()["code"]) == (403, "csrf_failed")
    token = browser.cookies["csrftoken"].value
    signed_in = post(browser, "/auth/session", creds, HTTP_X_CSRFTOKEN=token)
    assert signed_in.status_code == 200 and signed_in.json()["user"]["username"] == "alice"
    token = browser.cookies["csrftoken"].value  # rotated at sign-in
    assert browser.get(f"{API}/auth/me").json()["username"] == "alice"
    # unsafe requests with the session need the token too
    unsafe = post(browser, "/tables", {"seats": 2})
    assert (unsafe.status_code, unsafe.json()["code"]) == (403, "csrf_failed")
    made = post(browser, "/tables", {"seats": 2}, HTTP_X_CSRFTOKEN=token)
    assert made.status_code == 201
    out = browser.delete(f"{API}/auth/session", HTTP_X_CSRFTOKEN=token)
    assert out.status_code == 204
    assert browser.get(f"{API}/auth/me").status_code == 401


def test_sign_in_is_rate_limited_per_client(settings, anon) -> None:
    settings.FB_AUTH_RATE = "2/min"
    codes = [
        post(anon, "/auth/token", {"username": "x", "password": "y"}).status_code for _ in range(3)
    ]
    assert codes == [400, 400, 429]


def test_signing_in_ignores_a_stale_token_sent_along(anon) -> None:
    response = post(anon, "/auth/register", {"username": "gina", "password": PASSWORD})
    assert response.status_code == 201
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    login = post(stale, "/auth/token", {"username": "gina", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["token"]
    assert stale.get(f"{API}/auth/session").status_code == 200  # the session view too
    assert stale.get(f"{API}/auth/me").status_code == 401  # elsewhere the bad token counts


def test_a_token_signs_in_its_user_by_either_keyword_and_nobody_else(anon, alice) -> None:
    """The token's user comes from one statement of text (api.auth): the same user by
    either keyword; an unknown key or an inactive user's token is 401."""
    from rest_framework.authtoken.models import Token

    key = Token.objects.create(user=alice.user).key
    for keyword in ("Token", "Bearer"):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"{keyword} {key}")
        me = client.get(f"{API}/auth/me")
        assert (me.status_code, me.json()["username"]) == (200, "alice")
    unknown = APIClient()
    unknown.credentials(HTTP_AUTHORIZATION=f"Token {'0' * 40}")
    refused = unknown.get(f"{API}/auth/me")
    assert (refused.status_code, refused.json()["code"]) == (401, "authentication_failed")
    alice.user.is_active = False
    alice.user.save(update_fields=["is_active"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    inactive = client.get(f"{API}/auth/me")
    assert (inactive.status_code, inactive.json()["code"]) == (401, "authentication_failed")
    assert "inactive" in inactive.json()["message"].lower()
