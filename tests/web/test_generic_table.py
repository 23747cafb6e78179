"""A game without pages of its own, played in a real browser on the generic table page
(web/table/): Goofspiel picked in the lobby, played to the end against a bot at a phone's
and a desktop's size, its result panel the engine's own explanation. And Infamy's finished
page says why its winner won. Screenshots go to .local/screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.lobby import seat_add_bot, table_create, table_start
from games.registry import GAMES
from games.service import game_load
from tests.web.conftest import DESKTOP, PHONE, doc_shot, shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

GOOFSPIEL = GAMES["goofspiel"]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_goofspiel_is_picked_in_the_lobby_and_played_to_the_end(new_page, size):
    page = new_page("alice")
    page.set_viewport_size(size)
    sign_up(page, "alice", from_home=False)
    name = f"{size['width']}x{size['height']}"

    # the lobby lists it, with its goal and rules, and offers its own option
    entry = page.locator('[data-testid=game-entry][data-game="goofspiel"]')
    expect(entry).to_contain_text("Goofspiel")
    expect(entry.get_by_role("link", name="Rules")).to_have_attribute(
        "href", "/games/goofspiel/rules"
    )
    page.get_by_test_id("game-picker").select_option("goofspiel")
    expect(page.get_by_test_id("picked-goal")).to_contain_text("Win the most points")
    expect(page.get_by_label("Cards in each hand (and rounds)")).to_have_value("5")
    page.get_by_label("Cards in each hand (and rounds)").fill("4")
    page.get_by_label("Players (seats)").select_option("2")
    page.get_by_label("Bots to seat now").select_option("1")
    shot(page, f"goofspiel-lobby-{name}")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    table_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#seats li")).to_have_count(2)
    page.get_by_role("button", name="Start the game").click()

    # the generic page: the goal, the rules link, whose move, the options as buttons
    expect(page.get_by_test_id("generic-table")).to_be_visible()
    expect(page.get_by_test_id("goal")).to_contain_text(GOOFSPIEL.goal)
    expect(page.get_by_test_id("rules-link")).to_have_attribute("href", "/games/goofspiel/rules")
    status = page.get_by_test_id("status")
    options = page.get_by_test_id("actions").get_by_test_id("option")
    for round_ in range(1, 5):
        expect(status).to_contain_text("Your move")
        expect(page.locator('[data-fact="round"]')).to_contain_text(str(round_))
        expect(options).to_have_count(5 - round_)  # one bid per card left in hand
        first = options.first
        expect(first).to_contain_text("Bid")
        expect(first).to_contain_text("the single highest bid wins it")  # what it gives
        if round_ == 1:
            doc_shot(page, "goofspiel-table")
        # bid the highest card left (the last button: the hand is in order)
        version = int(page.locator("#game").get_attribute("data-version"))
        options.last.click()
        page.wait_for_function(
            f"() => Number(document.querySelector('#game').dataset.version) > {version}"
        )
        expect(page.locator("#log")).to_contain_text(f"Bids revealed: Round {round_}")

    # over: the status and the result panel say what the engine decided, and why
    state = game_load(game_id=table_id).state
    assert state.over
    outcome = GOOFSPIEL.outcome(state)
    assert outcome is not None
    expect(status).to_contain_text("Game over")
    expect(status).to_contain_text(outcome.summary)
    panel = page.get_by_test_id("outcome")
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("outcome-summary")).to_have_text(outcome.summary)
    tie_break = panel.get_by_test_id("tie-break")
    expect(tie_break).to_have_count(1)
    expect(tie_break).to_contain_text("Points won")
    for seat, score in enumerate(state.scores):
        expect(tie_break.locator(f'li[data-seat="{seat}"]')).to_contain_text(str(score))
    expect(options).to_have_count(0)
    expect(page.get_by_test_id("players").locator(".badge.win")).to_have_count(len(state.winners))
    doc_shot(page, "goofspiel-over")
    page.get_by_test_id("outcome").scroll_into_view_if_needed()
    shot(page, f"goofspiel-over-full-{name}")


def test_goofspiels_rules_page_is_linked_from_its_table(new_page):
    page = new_page("alice")
    sign_up(page, "alice", from_home=False)
    page.goto("/games/goofspiel/rules")
    expect(page.get_by_role("heading", name="Goofspiel: rules of the digital game")).to_be_visible()
    expect(page.get_by_role("heading", name="The end")).to_be_visible()
    page.set_viewport_size(PHONE)
    shot(page, "goofspiel-rules-390x844")
    page.set_viewport_size(DESKTOP)
    shot(page, "goofspiel-rules-1280x800")


def test_infamys_finished_page_says_why_its_winner_won(new_page):
    page = new_page("alice")
    sign_up(page, "alice", from_home=False)
    table = table_create(created_by=None, game="infamy", seats=3)
    for _ in range(3):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table_start(table_id=table.id)  # the bots play it to the end in the request
    state = game_load(game_id=table.id).state
    outcome = GAMES["infamy"].outcome(state)
    assert state.over and outcome is not None and outcome.winners == state.winners
    page.goto(f"/games/{table.id}")
    expect(page.get_by_test_id("status")).to_contain_text(outcome.summary)
    expect(page.get_by_test_id("outcome-summary")).to_have_text(outcome.summary)
    # the route to victory is the first comparison; each seat's standing is shown
    first = page.get_by_test_id("tie-break").first
    expect(first).to_contain_text("Victory: Infamy above 15 beats 5 Reputation")
    for seat in range(3):
        expect(first.locator(f'li[data-seat="{seat}"]')).to_be_visible()
    expect(page.get_by_test_id("tie-break")).to_have_count(len(outcome.tie_breaks))
    expect(page.get_by_test_id("goal")).to_contain_text("Become the most infamous")
    page.get_by_test_id("explain").scroll_into_view_if_needed()
    doc_shot(page, "infamy-over")
