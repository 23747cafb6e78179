"""Infamy in a real browser: the game picked in the lobby; an auction (a bid and a pass,
each page following the other), the sealed sector choice (committed on one page, shown on
the other only as "chosen" until the reveal) and a placement by clicking a space on the
board. Screenshots of each at desktop and phone size go to .local/screenshots/."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.infamy.game import GAME
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.service import game_command_execute, game_load
from tests.web.conftest import SCREENSHOTS
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def shots(page, name: str, focus: str = "#action-panel") -> None:
    """The screen at desktop size (from the top), then at phone size scrolled to ``focus``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport, at in (("1280x800", DESKTOP, "main"), ("390x844", PHONE, focus)):
        page.set_viewport_size(viewport)
        # (the page redraws as the game moves: scroll by selector, not by element)
        page.evaluate("s => document.querySelector(s).scrollIntoView({block: 'start'})", at)
        page.screenshot(path=str(SCREENSHOTS / f"infamy-{name}-{size}.png"))
    page.set_viewport_size(DESKTOP)


def drive(table_id, humans: set[int], until, *, also=lambda state: False) -> None:
    """Play the human seats with the bot's choices, server-side, until ``until(state)``
    (or ``also(state)``) holds; the bot seats move by themselves."""
    for n in range(400):
        state = game_load(game_id=table_id).state
        if until(state) or also(state):
            return
        seat = [s for s in GAME.status(state).awaiting if s in humans][0]
        game_command_execute(
            game_id=table_id,
            seat=seat,
            actor=f"user:{seat}",
            command=GAME.bot_command(state, seat, "heuristic", f"drive:{n}"),
            command_id=uuid.uuid4(),
        )
    pytest.fail("the game never got there")


def test_the_lobby_creates_an_infamy_table(new_page):
    page = new_page("alice")
    sign_up(page, "alice", from_home=False)
    page.get_by_test_id("game-picker").select_option("infamy")
    expect(page.get_by_label("Seconds for the sealed sector choice")).to_be_visible()
    expect(page.get_by_label("Seconds to answer an attack")).to_be_hidden()
    page.locator("select[name=seats]").select_option("3")
    page.locator("select[name=bots]").select_option("2")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]+$"))
    expect(page.locator("#seats li")).to_have_count(3)
    expect(page.locator("#table-info")).to_contain_text("Infamy")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_test_id("sector")).to_have_count(6)
    expect(page.get_by_test_id("contact")).to_have_count(5)
    expect(page.get_by_test_id("player")).to_have_count(3)


def test_an_auction_a_sealed_choice_and_a_placement(new_page):
    alice, bob = new_page("alice"), new_page("bob")
    sign_up(alice, "alice")
    sign_up(bob, "bob", from_home=False)
    creator = get_user_model().objects.get(username="alice")
    # Alice (seat 0) holds the bodyguard marker and opens the first auction; the first
    # Day's contacts need no reward choice; a Watchdog starts in sector 6.
    table = table_create(
        created_by=creator,
        game="infamy",
        seats=3,
        mode="sandbox",
        seed="web-infamy",
        options={
            "sector_seconds": 600,
            "stacked": {
                "first_seat": 0,
                "watchdog_sector": 6,
                "contacts": [["c02", "c03", "c04", "c06", "c05"]],
            },
        },
    )
    row = f'tr[data-table="{table.id}"]'
    for page in (alice, bob):
        page.reload()
        page.locator(row).get_by_role("button", name="Join").click()
        expect(page).to_have_url(re.compile(rf"/games/{table.id}$"))
    alice.get_by_role("button", name="Add a bot").click()
    expect(alice.locator("#seats li")).to_have_count(3)
    alice.get_by_role("button", name="Start the game").click()

    # --- the auction: alice bids 2 on the Arms Dealer; bob sees it, and passes ---------
    expect(alice.get_by_test_id("status")).to_contain_text("auction for the Arms Dealer")
    expect(alice.get_by_test_id("auction-actions")).to_be_visible()
    alice.get_by_test_id("bid-total").select_option("2")
    # a feed update re-renders the panel: the pick stays (a reset menu sent bids of 1)
    alice.evaluate("draw()")
    expect(alice.get_by_test_id("bid-total")).to_have_value("2")
    shots(alice, "auction")
    alice.get_by_role("button", name="Bid").click()
    expect(bob.locator('[data-testid=bid][data-seat="0"]')).to_contain_text("alice: 2 (high)")
    expect(bob.locator("#log")).to_contain_text("alice bid 2 on the Arms Dealer")
    expect(bob.get_by_role("button", name="Pass")).to_be_visible()
    bob.get_by_role("button", name="Pass").click()
    expect(alice.locator("#log")).to_contain_text("bob passed.")

    # the rest of the contact phase is played for them
    drive(table.id, {0, 1}, lambda s: s.step == "sector")

    # --- the sealed choice: alice commits sector 3; bob sees only that she chose -------
    expect(alice.get_by_test_id("prompt")).to_contain_text("Choose your sector card in secret")
    expect(alice.get_by_test_id("countdown")).to_contain_text("until the cards are revealed")
    expect(alice.locator('.sector[data-sector="6"]')).not_to_have_class(re.compile("selectable"))
    alice.locator('.sector.selectable[data-sector="3"]').click()
    expect(alice.get_by_test_id("chosen-sector")).to_have_text("3 Refinery")
    shots(alice, "sealed-choice")
    alice.get_by_role("button", name="Commit (sealed)").click()
    expect(alice.get_by_test_id("my-sector")).to_have_text("3 Refinery")
    alice_card = bob.locator('.player[data-seat="0"]')
    expect(alice_card.get_by_test_id("chosen")).to_be_visible()
    expect(alice_card.get_by_test_id("committed")).to_have_count(0)
    expect(bob.locator(".chosen-by")).to_have_count(0)
    assert "Refinery" not in bob.locator("#log").inner_text()
    shots(bob, "sealed-waiting", focus='.player[data-seat="0"]')
    bob.locator('.sector.selectable[data-sector="1"]').click()
    bob.get_by_role("button", name="Commit (sealed)").click()
    for page in (alice, bob):
        expect(page.locator("#log")).to_contain_text("The sector cards were revealed")
        expect(page.locator('.player[data-seat="0"]').get_by_test_id("committed")).to_have_text(
            "3 Refinery"
        )

    # --- a placement: alice clicks a bright space of her sector on the board -----------
    drive(table.id, {0, 1}, lambda s: s.step == "place" and s.actor == 0,
          also=lambda s: s.step != "place")  # fmt: skip
    state = game_load(game_id=table.id).state
    assert (state.step, state.actor) == ("place", 0), "alice's figure had no legal space"
    expect(alice.get_by_test_id("prompt")).to_contain_text("Place your figure in 3 Refinery")
    space = alice.locator('.space.selectable[data-space^="3/"]').first
    expect(space).to_be_visible()
    shots(alice, "placement", focus='.sector[data-sector="3"]')
    where = space.get_attribute("data-space")
    space.click()
    if where.endswith("/job"):  # a job asks for its Reputation and reward choices
        alice.get_by_role("button", name="Confirm").click()
    expect(bob.locator(f'.space[data-space="{where}"] [data-testid=figure]')).to_have_attribute(
        "data-seat", "0"
    )
    expect(bob.locator("#log")).to_contain_text("alice placed a figure on")


def test_the_informants_discard_is_asked_in_the_reward_step(new_page):
    """Rules 2 (3.3): after the Informant's two draws its discard belongs to the ``reward``
    step; the page asks for it by the legal ``discard`` options, whatever the step's name."""
    alice = new_page("alice")
    sign_up(alice, "alice")
    users = get_user_model().objects
    creator = users.get(username="alice")
    table = table_create(
        created_by=creator, game="infamy", seats=3, mode="sandbox", seed="web-informant",
        options={"stacked": {"first_seat": 0, "watchdog_sector": 6,
                             "contacts": [["c07", "c03", "c04", "c06", "c05"]],
                             "schemes.harada": ["h01"], "schemes.trust": ["t03"]}},
    )  # fmt: skip
    seat_join(table_id=table.id, user=creator, position=0, name="alice")
    for i, name in ((1, "bob"), (2, "carol")):
        seat_join(table_id=table.id, user=users.create(username=name), position=i, name=name)
    table_start(table_id=table.id)
    for seat, command in ((0, {"type": "bid", "total": 1}), (1, {"type": "pass"}),
                          (2, {"type": "pass"}), (0, {"type": "reward", "deck": "harada"}),
                          (0, {"type": "reward", "deck": "trust"})):  # fmt: skip
        game_command_execute(game_id=table.id, seat=seat, actor=f"user:{seat}",
                             command=command, command_id=uuid.uuid4())  # fmt: skip
    state = game_load(game_id=table.id).state
    assert state.step == "reward" and state.players[0].hand == ("h01", "t03")
    alice.goto(f"/games/{table.id}")
    expect(alice.locator("#action-panel")).to_contain_text("Discard a scheme")
    shots(alice, "informant-discard")
    alice.get_by_role("button", name="Discard Data Mining").click()
    expect(alice.locator("#log")).to_contain_text("alice discarded Data Mining.")
    state = game_load(game_id=table.id).state
    assert state.players[0].hand == ("h01",) and state.step == "auction"


def test_the_replay_viewer_steps_through_a_finished_game(new_page):
    page = new_page("alice")
    sign_up(page, "alice", from_home=False)
    table = table_create(created_by=None, game="infamy", seats=3)
    for _ in range(3):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table_start(table_id=table.id)  # the bots play it to the end in the request
    assert game_load(game_id=table.id).state.over
    page.goto(f"/games/{table.id}/replay?at=40")
    expect(page.get_by_test_id("position")).to_contain_text("Round 1 · event 40 of")
    expect(page.locator("#log li.now")).to_have_count(1)
    expect(page.get_by_test_id("sector")).to_have_count(6)
    page.get_by_role("button", name="▶", exact=True).click()
    expect(page.get_by_test_id("position")).to_contain_text("Round 1 · event 41 of")
    page.get_by_role("button", name="»").click()
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#log")).to_contain_text("wins the game")
    # once the game is over the seed is public: anyone can re-run every shuffle
    expect(page.locator("#seed")).not_to_have_text("(revealed at the end)")
    shots(page, "replay", focus="#status")
