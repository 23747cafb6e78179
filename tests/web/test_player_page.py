"""A player's profile page (/players/<username>): their rating in each game, its history
and recent games with links, at a desktop's and a phone's size; the name in the top bar
links to one's own profile, an opponent's name to theirs, and nobody's is a 404 page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.lobby import seat_add_bot, seat_join, table_create, table_start
from ratings.projector import catch_up
from ratings.reads import profile_document
from tests.factories import UserFactory
from tests.ratings.helpers import bot_game, resigned_game
from tests.web.conftest import DESKTOP, PHONE, doc_shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

FB = "family_business"


def rated_history() -> None:
    """alice's record: five ranked games of Family Business and two of Goofspiel against
    bob, carol and bots, rated; and a casual game still running."""
    alice = get_user_model().objects.get(username="alice")
    bob, carol = UserFactory(username="bob"), UserFactory(username="carol")
    for resign in ([1], [0], [1], [0, 2], [1]):  # alice (seat 0) wins, loses, ...
        players = [alice, bob, carol] if len(resign) == 2 else [alice, bob]
        resigned_game(FB, players, resign)
    for _ in range(2):
        resigned_game(FB, [bob, carol], [1])  # bob and carol alone: not on alice's page
    table = table_create(created_by=alice, game="goofspiel", seats=2)
    seat_join(table_id=table.id, user=alice)
    seat_add_bot(table_id=table.id, bot="heuristic")
    table_start(table_id=table.id, run_bots=True)
    bot_game("goofspiel", ["heuristic", "random"])
    catch_up()


def test_a_profile_shows_ratings_history_and_recent_games_on_a_desktop_and_a_phone(new_page):
    page = new_page("alice")
    sign_up(page, "alice")
    rated_history()
    page.set_viewport_size(DESKTOP)
    page.get_by_test_id("username").click()  # the top bar's name: one's own profile
    expect(page).to_have_url(re.compile(r"/players/alice$"))
    expect(page.get_by_test_id("profile")).to_have_attribute("data-loaded", "true")
    expect(page.get_by_test_id("player-name")).to_have_text("alice")

    (card,) = page.get_by_test_id("rating").all()
    expect(card).to_contain_text("Family Business")
    expect(card).to_contain_text("5 games")
    expect(card.locator("svg.spark")).to_be_visible()  # the history as a line
    (rating,) = profile_document("alice")["ratings"]
    expect(card.get_by_test_id("display-rating")).to_have_text(str(rating["display"]))
    expect(card).to_contain_text(f"μ {rating['mu']:.1f} · σ {rating['sigma']:.1f}")

    rows = page.get_by_test_id("history-row")
    expect(rows).to_have_count(5)
    expect(rows.first).to_contain_text("Family Business")
    expect(rows.first).to_contain_text("1st of 2")  # the newest first: a win
    expect(rows.nth(1)).to_contain_text("2nd of 3")  # the others share second place
    expect(rows.first.get_by_role("link", name="Replay")).to_have_attribute(
        "href", re.compile(r"^/games/[0-9a-f-]{36}/replay$")
    )

    recent = page.get_by_test_id("recent-game")
    expect(recent).to_have_count(6)
    expect(recent.first).to_contain_text("Goofspiel")  # the newest: casual, alice to bid
    expect(recent.first.get_by_test_id("result")).to_have_text("Playing")
    expect(recent.first.get_by_role("link", name="Open")).to_have_attribute(
        "href", re.compile(r"^/games/[0-9a-f-]{36}$")
    )
    results = [r.inner_text() for r in page.get_by_test_id("result").all()]
    assert results[0] == "Playing"
    assert results[1:] == ["Won", "Lost", "Won", "Lost", "Won"]
    doc_shot(page, "player-profile")

    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the profile scrolls sideways on a phone"
    # an opponent's name is their profile
    recent.nth(1).get_by_role("link", name="bob").click()
    expect(page).to_have_url(re.compile(r"/players/bob$"))
    expect(page.get_by_test_id("profile")).to_have_attribute("data-loaded", "true")
    expect(page.get_by_test_id("history-row")).to_have_count(7)


def test_a_player_without_games_and_nobody(new_page):
    page = new_page("dave")
    sign_up(page, "dave")
    page.goto("/players/dave")
    expect(page.get_by_test_id("no-ratings")).to_be_visible()
    expect(page.get_by_test_id("recent-games")).to_contain_text("No games yet.")
    response = page.goto("/players/nobody-at-all")
    assert response is not None and response.status == 404
    expect(page.get_by_test_id("no-player")).to_contain_text("nobody-at-all")
