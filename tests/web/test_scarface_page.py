"""Scarface 1920's own page (web/templates/web/scarface/, web/static/web/scarface/): two
people and two heuristic bots at a rules-2 table from a sandbox position. Through the page
bob completes a job out of turn (the document's ``out_of_turn``, the view's
``may_complete``), alice lays out a plan and uses her Driver's targeted skill by clicking
the district it lights, and both play every turn of theirs by clicks to the end (the first
choice each time), which shows on both pages and the replay. Neither page ever holds the other seat's money or
jobs in its DOM (the API's per-seat view redacts them; the page computes nothing hidden)."""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.registry import GAMES
from games.scarface.content import STANDIN
from games.service import game_load
from tests.games.scarface.builders import dealt, give_jobs, player
from tests.web.conftest import DESKTOP, DOC_IMAGES, PHONE, SCREENSHOTS, doc_shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

SCARFACE = GAMES["scarface"]
ALICE, BOB = 0, 1
MAX_CLICKS = 1_000  # the two people's moves in a whole game: about 200


def job_name(job: str) -> str:
    return STANDIN.jobs[job].name


def hidden_from(page, other: int, other_jobs: tuple[str, ...]) -> None:
    """``page`` holds none of seat ``other``'s money or jobs: not in its gang board, not in
    the text of the page, not even in the state the script keeps."""
    board = page.locator(f'[data-testid="gang"][data-seat="{other}"]')
    expect(board).to_be_visible()
    expect(board.get_by_test_id("money")).to_have_count(0)
    expect(board.get_by_test_id("my-jobs")).to_have_count(0)
    expect(page.get_by_test_id("money")).to_have_count(1)  # its own only
    text = page.locator("#game").inner_text()
    for job in other_jobs:
        assert job_name(job) not in text, job
    kept = page.evaluate(
        f"() => [doc.state.players[{other}].money, doc.state.players[{other}].jobs]"
    )
    assert kept == [None, None]


def city_shot(page, name: str) -> None:
    """The city scrolled into view, at a phone's and a desktop's size (as ``doc_shot``)."""
    before = page.viewport_size
    folders = [SCREENSHOTS] + ([DOC_IMAGES] if os.environ.get("FB_DOC_SCREENSHOTS") else [])
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.locator("#city").scroll_into_view_if_needed()
        page.locator("#city").evaluate("el => el.closest('.panel').scrollIntoView()")
        page.wait_for_timeout(150)
        for folder in folders:
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))
    if before:
        page.set_viewport_size(before)


def click_a_move(page) -> None:
    """One move on ``page``: the turn's end when offered, else its first choice."""
    version = int(page.locator("#game").get_attribute("data-version"))
    actions = page.get_by_test_id("actions")
    end = actions.get_by_role("button", name=re.compile("^End the turn"))
    if end.count():
        end.first.click()
    else:
        first = actions.locator("button[data-testid=choice], button[data-testid=option]").first
        first.click()
    page.wait_for_function(
        f"() => Number(document.querySelector('#game').dataset.version) > {version}",
        timeout=30_000,
    )


def test_two_people_and_two_bots_play_scarface_on_its_own_page(new_page):
    alice = new_page("alice")
    alice.set_viewport_size(DESKTOP)
    sign_up(alice, "alice")
    bob = new_page("bob")
    bob.set_viewport_size(PHONE)
    sign_up(bob, "bob")
    users = get_user_model().objects
    people = {ALICE: users.get(username="alice"), BOB: users.get(username="bob")}

    state = dealt(4, rules_version=2)
    assert state.seat == ALICE and "outfit-s5" in state.players[ALICE].hand  # the Driver
    state = give_jobs(state, BOB, ("j27", "j10"))
    state = give_jobs(state, ALICE, ("j16", "j04"))
    state = player(player(state, ALICE, money=10), BOB, money=10)
    table = table_create(
        created_by=people[ALICE],
        game="scarface",
        seats=4,
        mode="sandbox",
        options={"position": SCARFACE.position_of(state)},
    )
    for seat, user in people.items():
        seat_join(table_id=table.id, user=user, position=seat)
    for seat in (2, 3):
        seat_add_bot(table_id=table.id, position=seat)
    table_start(table_id=table.id)
    start = game_load(game_id=table.id)

    alice.goto(f"/games/{table.id}")
    bob.goto(f"/games/{table.id}")
    expect(alice.get_by_test_id("scarface-table")).to_be_visible()
    expect(alice.get_by_test_id("explain").get_by_test_id("rules-link")).to_have_attribute(
        "href", "/games/scarface/rules"
    )
    expect(alice.get_by_test_id("status")).to_contain_text("Your move")
    expect(alice.get_by_test_id("district")).to_have_count(len(STANDIN.districts))
    expect(alice.get_by_test_id("tile")).to_have_count(len(STANDIN.tiles))
    expect(alice.get_by_test_id("gang")).to_have_count(4)
    expect(alice.get_by_test_id("money")).to_contain_text("$10")
    hidden_from(alice, BOB, ("j27", "j10"))
    hidden_from(bob, ALICE, ("j16", "j04"))

    # bob, not awaited, completes a job out of turn; the turn stays with alice
    line = bob.get_by_test_id("out-of-turn")
    expect(line).to_contain_text("Out of turn you may: Complete Cops on the Payroll")
    expect(bob.get_by_test_id("may-complete")).to_contain_text("Cops on the Payroll")
    doc_shot(bob, "scarface-table-out-of-turn")
    bob.get_by_test_id("actions").get_by_role("button", name="Complete Cops on the Payroll").click()
    expect(bob.locator("#game")).to_have_attribute("data-version", str(start.version + 2))
    expect(line).to_have_count(0)
    after = game_load(game_id=table.id)
    assert after.state.players[BOB].done == ("j27",) and after.state.seat == ALICE
    mine = alice.locator(f'[data-testid="gang"][data-seat="{BOB}"]')
    expect(mine).to_contain_text("Cops on the Payroll")  # done jobs are public

    # alice lays out her Driver, then sends its car to the Loop by the lit district
    alice.get_by_test_id("actions").get_by_role("button", name="Plan Driver", exact=True).click()
    expect(alice.get_by_test_id("plan")).to_contain_text("Driver")
    loop = alice.locator('[data-testid="district"][data-district="D1"]')
    expect(loop).to_have_class(re.compile(r"\blit\b"))
    doc_shot(alice, "scarface-table")
    city_shot(alice, "scarface-table-city")
    loop.locator("h4").click()  # three choices name it: all are pointed at
    focused = alice.locator("#actions button.focus")
    expect(focused).to_have_count(3)  # the Driver's car, its truck, the order moving a thug
    driver = alice.locator('#actions button.focus[aria-label^="Use Driver\'s skill"]')
    expect(driver).to_have_count(2)
    driver.filter(has_text="car South Side to The Loop").click()
    expect(loop.locator('.piece[data-seat="0"]')).to_contain_text("1 car")
    moved = game_load(game_id=table.id).state
    assert moved.players[ALICE].cars == ("D1",) and "outfit-s5" in moved.skills_used
    hidden_from(bob, ALICE, ("j16", "j04"))

    # to the end by clicks: whoever of the two is awaited plays on their page
    pages = {ALICE: alice, BOB: bob}
    clicks = waits = 0
    while True:
        loaded = game_load(game_id=table.id)
        awaited = SCARFACE.status(loaded.state).awaiting
        if loaded.state.over:
            break
        assert awaited, "the game waits for nobody"
        if awaited[0] not in pages:  # a bot's turn, still being played: wait for it
            waits += 1
            assert waits < 300, "a bot never answered"
            alice.wait_for_timeout(100)
            continue
        page = pages[awaited[0]]
        expect(page.locator("#game")).to_have_attribute("data-version", str(loaded.version))
        click_a_move(page)
        clicks, waits = clicks + 1, 0
        assert clicks < MAX_CLICKS, "the game does not end"
        if clicks % 40 == 0:
            hidden_from(alice, BOB, ())
            hidden_from(bob, ALICE, ())
    final = game_load(game_id=table.id).state
    assert final.over and clicks > 60, clicks  # every turn of the two people's, by clicks
    outcome = SCARFACE.outcome(final)
    for page in (alice, bob):
        expect(page.get_by_test_id("status")).to_contain_text("Game over", timeout=30_000)
        expect(page.get_by_test_id("outcome-summary")).to_have_text(outcome.summary)
        expect(page.get_by_test_id("final")).to_contain_text("final income")
    # once over, every sum is shown: alice's page now holds bob's money
    expect(alice.get_by_test_id("money")).to_have_count(4)

    alice.goto(f"/games/{table.id}/replay")
    expect(alice.get_by_test_id("board")).to_be_visible()
    expect(alice.locator("#city [data-testid=district]")).to_have_count(len(STANDIN.districts))
    doc_shot(alice, "scarface-replay")
