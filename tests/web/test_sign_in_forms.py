"""The sign-up and log-in forms sent by the browser itself (before auth.js has loaded, or
with scripts off): the same accounts, limits and session as the API, and a password never
in a URL or an answer."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"


def _form(path: str) -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    page = client.get(path).content.decode()
    assert '<form id="auth-form" method="post"' in page  # never a GET: no password in a URL
    return client, client.cookies["csrftoken"].value


def _signed_in_as(client: Client) -> str | None:
    me = client.get("/api/v1/auth/session").json()["user"]
    return me and me["username"]


def test_signing_up_by_the_form_makes_the_account_and_signs_in() -> None:
    client, token = _form("/signup?next=/lobby")
    sent = client.post(
        "/signup?next=/lobby",
        {
            "username": "ivy",
            "password": PASSWORD,
            "password2": PASSWORD,
            "csrfmiddlewaretoken": token,
        },
    )
    assert (sent.status_code, sent["Location"]) == (302, "/lobby")
    assert _signed_in_as(client) == "ivy"
    assert get_user_model().objects.get(username="ivy").check_password(PASSWORD)


def test_logging_in_by_the_form_returns_to_the_page_asked_for() -> None:
    UserFactory(username="jack", password=PASSWORD)
    client, token = _form("/login?next=/lobby%3Fx%3D1")
    sent = client.post(
        "/login?next=/lobby%3Fx%3D1",
        {"username": "jack", "password": PASSWORD, "csrfmiddlewaretoken": token},
    )
    assert (sent.status_code, sent["Location"]) == (302, "/lobby?x=1")
    assert _signed_in_as(client) == "jack"


def test_a_wrong_password_shows_the_form_again_with_the_reason_and_not_the_password() -> None:
    UserFactory(username="kate", password=PASSWORD)
    client, token = _form("/login")
    sent = client.post(
        "/login", {"username": "kate", "password": "secret-guess", "csrfmiddlewaretoken": token}
    )
    page = sent.content.decode()
    assert sent.status_code == 400
    assert "Unknown username or wrong password." in page
    assert 'value="kate"' in page  # the username is kept
    assert "secret-guess" not in page
    assert _signed_in_as(client) is None


@pytest.mark.parametrize(
    ("username", "password2", "reason"),
    [
        ("liam", "another-passphrase", "The two passwords differ."),
        ("Taken", PASSWORD, "That username is taken."),
        ("liam", "", "The two passwords differ."),
    ],
)
def test_a_refused_sign_up_makes_no_account_and_says_why(username, password2, reason) -> None:
    UserFactory(username="taken")
    before = get_user_model().objects.count()
    client, token = _form("/signup")
    sent = client.post(
        "/signup",
        {
            "username": username,
            "password": PASSWORD,
            "password2": password2,
            "csrfmiddlewaretoken": token,
        },
    )
    assert sent.status_code == 400
    assert reason in sent.content.decode()
    assert PASSWORD not in sent.content.decode()
    assert get_user_model().objects.count() == before


def test_a_weak_password_is_refused_with_django_s_reasons() -> None:
    client, token = _form("/signup")
    sent = client.post(
        "/signup",
        {
            "username": "mia",
            "password": "12345678",
            "password2": "12345678",
            "csrfmiddlewaretoken": token,
        },
    )
    assert sent.status_code == 400
    assert "This password is too common." in sent.content.decode()
    assert not get_user_model().objects.filter(username="mia").exists()


def test_the_form_counts_against_the_same_sign_in_limits_as_the_api(settings) -> None:
    settings.FB_SIGN_IN_FAILURES = 2
    UserFactory(username="noah", password=PASSWORD)
    client, token = _form("/login")
    for _ in range(2):
        wrong = client.post(
            "/login", {"username": "noah", "password": "nope-nope", "csrfmiddlewaretoken": token}
        )
        assert wrong.status_code == 400
    # Over the limit: refused before the password is looked at, by the form and the API.
    right = client.post(
        "/login", {"username": "noah", "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    assert right.status_code == 429
    assert "Too many failed log-ins" in right.content.decode()
    api = Client().post(
        "/api/v1/auth/token",
        {"username": "noah", "password": PASSWORD},
        content_type="application/json",
    )
    assert (api.status_code, api.json()["code"]) == (429, "too_many_failed_sign_ins")


def test_the_form_counts_against_the_sign_up_and_sign_in_rate(settings) -> None:
    settings.FB_AUTH_RATE = "1/min"
    client, token = _form("/login")
    first = client.post("/login", {"username": "x", "password": "y", "csrfmiddlewaretoken": token})
    again = client.post("/login", {"username": "x", "password": "y", "csrfmiddlewaretoken": token})
    assert (first.status_code, again.status_code) == (400, 429)
    assert "try again in" in again.content.decode()


def test_a_form_without_its_csrf_token_is_refused() -> None:
    client, _token = _form("/signup")
    sent = client.post("/signup", {"username": "olga", "password": PASSWORD, "password2": PASSWORD})
    assert sent.status_code == 403
    assert not get_user_model().objects.filter(username="olga").exists()


@pytest.mark.parametrize("path", ["/signup", "/login"])
def test_the_forms_refuse_other_methods(path) -> None:
    assert Client().put(path).status_code == 405


@pytest.mark.django_db(transaction=True)
def test_in_a_browser_without_auth_js_the_forms_still_sign_up_log_out_and_log_in(new_page):
    import re

    from playwright.sync_api import expect

    page = new_page("pia")
    page.route(re.compile(r".*/auth\.js(\?.*)?$"), lambda route: route.abort())
    page.goto("/signup")
    page.get_by_label("Username").fill("pia")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill("not-the-same-one")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("alert")).to_have_text("The two passwords differ.")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/lobby$"))
    expect(page.get_by_test_id("username")).to_have_text("pia")
    assert PASSWORD not in page.url

    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"/$"))
    page.goto("/lobby")  # -> /login?next=/lobby
    page.get_by_label("Username").fill("pia")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/lobby$"))
    expect(page.get_by_test_id("username")).to_have_text("pia")
