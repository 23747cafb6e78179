"""The play-by-web page against the production-shape server (gunicorn with uvicorn workers
serving fbservice.asgi): two players in Chromium, each page following the game through
the async feed with its session cookie; one player's move shows up on the other's page."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.lobby import seat_join, table_create, table_start
from tests.service.helpers import hand_stack
from tests.web.conftest import shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_reaches_the_other_players_page_through_the_async_feed(webs, browser) -> None:
    server = webs(FB_AUTH_RATE="10000/min", FB_COMMAND_RATE="10000/min")
    errors: list[str] = []
    pages = {}
    for name in ("alice", "bob"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server.url)
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.on("pageerror", lambda error, n=name: errors.append(f"{n}: {error}"))
        pages[name] = page
    alice, bob = pages["alice"], pages["bob"]
    sign_up(alice, "alice")
    sign_up(bob, "bob", from_home=False)
    users = get_user_model().objects
    table = table_create(
        created_by=users.get(username="alice"),
        seats=2,
        mode="sandbox",
        seed="feed-browser",
        stacked_deck=hand_stack(["CONTRACT"], []),
    )
    seat_join(table_id=table.id, user=users.get(username="alice"))
    seat_join(table_id=table.id, user=users.get(username="bob"))
    table_start(table_id=table.id)
    alice.goto(f"/games/{table.id}")
    bob.goto(f"/games/{table.id}")
    expect(alice.get_by_test_id("status")).to_contain_text("Your turn")
    expect(bob.get_by_test_id("status")).to_contain_text("alice")
    time.sleep(1.0)  # bob's page is waiting on the feed now
    alice.locator('#hand .card[data-kind="CONTRACT"]').first.click()
    alice.get_by_role("button", name="Discard it instead").click()
    moved = time.monotonic()
    expect(bob.get_by_test_id("status")).to_contain_text("Your turn", timeout=10_000)
    took = time.monotonic() - moved
    expect(bob.locator("#log")).to_contain_text("alice")
    shot(bob, "feed-asgi-bob-sees-alices-move")
    for page in pages.values():
        page.context.close()
    assert errors == [], errors
    assert took < 5.0, took
