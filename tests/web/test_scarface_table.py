"""Scarface 1920 is played in a real browser on its own page (web/scarface/; it was played
on the generic table page before it had one), against a heuristic bot, from the first plan
to "Prohibition Ends at Last", by its labelled legal options alone (the first choice each
time); the result panel is the engine's own. tests/web/test_scarface_page.py tests what the
page shows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.registry import GAMES
from games.service import game_load
from tests.web.conftest import DESKTOP, shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

SCARFACE = GAMES["scarface"]
MAX_CLICKS = 600


def test_scarface_is_played_to_the_end_on_its_own_page(new_page):
    page = new_page("alice")
    page.set_viewport_size(DESKTOP)
    sign_up(page, "alice", from_home=False)
    page.get_by_test_id("game-picker").select_option("scarface")
    expect(page.get_by_test_id("picked-goal")).to_contain_text("Prohibition Chicago")
    page.get_by_label("Players (seats)").select_option("2")
    page.get_by_label("Bots to seat now").select_option("1")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    table_id = page.url.rsplit("/", 1)[1]
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_test_id("scarface-table")).to_be_visible()
    explain = page.get_by_test_id("explain")
    expect(explain).to_contain_text("Prohibition Chicago")
    expect(explain.get_by_test_id("rules-link")).to_have_attribute("href", "/games/scarface/rules")
    status = page.get_by_test_id("status")
    actions = page.get_by_test_id("actions")
    options = actions.locator("button[data-testid=choice], button[data-testid=option]")
    clicks = 0
    while clicks < MAX_CLICKS:
        if game_load(game_id=table_id).state.over:
            break
        expect(options.first).to_be_visible()
        if clicks == 0:
            expect(status).to_contain_text("Your move")
            shot(page, "scarface-table-1280x800")
        version = int(page.locator("#game").get_attribute("data-version"))
        options.first.click()
        try:
            page.wait_for_function(
                f"() => Number(document.querySelector('#game').dataset.version) > {version}",
                timeout=30_000,
            )
        except PlaywrightTimeout:  # a click lost to a redraw (the page polls): try again
            page.reload()
        clicks += 1
    state = game_load(game_id=table_id).state
    assert state.over and state.news == "w16", f"not over after {clicks} clicks"
    outcome = SCARFACE.outcome(state)
    assert outcome is not None
    expect(status).to_contain_text("Game over")
    expect(page.get_by_test_id("outcome-summary")).to_have_text(outcome.summary)
    expect(options).to_have_count(0)
    shot(page, "scarface-over-1280x800")
