"""Issue 29, alerts and the phone layout: the tab's title says when the game waits for the
seat (its turn, a window waiting for its answer) and when its game ends, on every game's
page (web/static/web/alerts.js decides from the game document alone); a browser
notification when the tab is hidden, asked for only by its button; the window's panel
comes into view as it opens; at 390x844 the hand, the Hit List and an open window sit
within two screens and the replay's bar takes at most a tenth of the screen."""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.family_business import CARD_KIND
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from tests.factories import UserFactory
from tests.service.helpers import hand_stack, run, state
from tests.web.conftest import DOC_IMAGES, PHONE, SCREENSHOTS
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

BASE = "Game · Family Business"

# Counts the permission prompts and keeps every notification shown; `window.__hidden`
# stands for a tab in the background (document.hidden).
WATCH = """
(() => {
  window.__prompts = 0;
  window.__notes = [];
  window.__hidden = false;
  Object.defineProperty(document, "hidden", { configurable: true, get: () => window.__hidden });
  if (!("Notification" in window)) return;
  const Real = window.Notification;
  const asked = Real.requestPermission.bind(Real);
  class Watched {
    constructor(title, options) { window.__notes.push(title); this.title = title; }
    close() {}
    static get permission() { return Real.permission; }
    static requestPermission() { window.__prompts += 1; return asked(); }
  }
  window.Notification = Watched;
})();
"""


def watched_page(browser, live_server, contexts, *, grant: bool, viewport=None):
    context = browser.new_context(
        viewport=viewport or {"width": 1280, "height": 800}, base_url=live_server.url
    )
    if grant:
        context.grant_permissions(["notifications"], origin=live_server.url)
    context.set_default_timeout(15_000)
    context.add_init_script(WATCH)
    contexts.append(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


@pytest.fixture
def pages(browser, live_server):
    contexts: list = []
    all_errors: list[list[str]] = []

    def make(**kw):
        page, errors = watched_page(browser, live_server, contexts, **kw)
        all_errors.append(errors)
        return page

    yield make
    for context in contexts:
        context.close()
    assert [e for errors in all_errors for e in errors] == [], "JavaScript errors on the pages"


def table_of_two(seed: str, *, seats: int = 2):
    """alice (seat 0, no page) and bob (seat 1, signed up on a page) at a started sandbox
    table of people (carol in seat 2 if three); alice holds a CONTRACT."""
    alice = UserFactory(username="alice")
    table = table_create(
        created_by=alice,
        seats=seats,
        mode="sandbox",
        seed=seed,
        reaction_seconds=120,
        stacked_deck=hand_stack(["CONTRACT"], *([[]] * (seats - 1))),
    )
    seat_join(table_id=table.id, user=alice)
    seat_join(table_id=table.id, user=get_user_model().objects.get(username="bob"))
    if seats == 3:
        seat_join(table_id=table.id, user=UserFactory(username="carol"))
    return table_start(table_id=table.id)


def attack_bob(table):
    contract = next(c for c in state(table).state.players[0].hand if CARD_KIND[c] == "CONTRACT")
    target = state(table).state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": contract, "targets": [target]})
    return state(table).state.window


def in_view(page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const b = document.querySelector(sel).getBoundingClientRect();
             return b.height > 0 && b.top >= -1 && b.top < window.innerHeight; }""",
        selector,
    )


def test_the_title_and_a_hidden_tabs_notification_say_what_waits_for_the_seat(pages):
    bob = pages(grant=True, viewport={"width": 1024, "height": 480})  # a short window
    sign_up(bob, "bob")
    table = table_of_two("alerts-title")
    bob.goto(f"/games/{table.id}")
    expect(bob.locator("#log li")).not_to_have_count(0)
    expect(bob).to_have_title(BASE)  # alice's turn: nothing waits for bob
    notify = bob.get_by_test_id("alert-notify")
    expect(notify).to_have_text("Notify me when this tab is hidden")
    expect(bob.get_by_test_id("alert-sound")).to_have_text("Sound off")  # off by default
    assert bob.evaluate("window.__prompts") == 0
    notify.click()  # permission already granted (the context's): switched on, no prompt
    expect(notify).to_have_text("Notifications on")
    # the sound's toggle is remembered in this browser
    bob.get_by_test_id("alert-sound").click()
    expect(bob.get_by_test_id("alert-sound")).to_have_text("Sound on")
    assert bob.evaluate("localStorage.getItem('fb.alerts.sound')") == "on"

    # bob reads far down the page, in another tab: alice attacks him
    bob.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    bob.wait_for_function("window.scrollY > 100")
    bob.evaluate("window.__hidden = true")
    attack_bob(table)
    expect(bob).to_have_title(re.compile(r"^⚠ Your answer is awaited · Game · Family Business$"))
    expect(bob.locator("#window-panel")).to_be_visible()
    bob.wait_for_function(
        "document.querySelector('#window-panel').getBoundingClientRect().top >= -1"
    )
    assert in_view(bob, "#window-panel")  # brought into view as it opened
    bob.wait_for_function("window.__notes.length === 1")
    assert bob.evaluate("window.__notes") == ["Your answer is awaited"]

    # he passes by hand, the only seat to answer: the window closes at once (a hand pass
    # is public) and his turn comes (he drew at once); the tab in front: the title says
    # it, no notification
    bob.evaluate("window.__hidden = false")
    bob.locator('#window-panel [data-action="pass"]').click()
    expect(bob).to_have_title("▶ Your turn · Game · Family Business")
    assert bob.evaluate("window.__notes") == ["Your answer is awaited"]

    # the game ends (he resigns at a table of two): the title says so
    bob.evaluate("window.__hidden = true")
    bob.get_by_role("button", name="Resign…").click()
    bob.get_by_role("button", name="Yes, resign").click()
    expect(bob).to_have_title("■ Game over · Game · Family Business")
    expect(bob.get_by_test_id("alert-controls")).to_be_hidden()  # nothing more to alert
    bob.wait_for_function("window.__notes.length === 2")
    assert bob.evaluate("window.__notes")[1] == "Game over"
    assert bob.evaluate("window.__prompts") == 0


def test_notifications_are_asked_for_only_by_their_button(pages):
    bob = pages(grant=False)
    sign_up(bob, "bob")
    table = table_of_two("alerts-ask")
    bob.goto(f"/games/{table.id}")
    expect(bob.locator("#log li")).not_to_have_count(0)
    bob.wait_for_timeout(500)
    assert bob.evaluate("window.__prompts") == 0  # never on load
    assert bob.evaluate("Notification.permission") != "granted"
    notify = bob.get_by_test_id("alert-notify")
    expect(notify).to_be_visible()
    notify.click()
    bob.wait_for_function("window.__prompts === 1")
    attack_bob(table)
    bob.evaluate("window.__hidden = true")
    expect(bob).to_have_title(re.compile(r"^⚠ Your answer is awaited"))
    bob.wait_for_timeout(300)
    assert bob.evaluate("window.__notes") == []  # not granted: nothing shown


def test_the_generic_page_says_it_is_your_turn_in_its_title(pages):
    page = pages(grant=False)
    sign_up(page, "ann")
    ann = get_user_model().objects.get(username="ann")
    table = table_create(created_by=ann, game="goofspiel", seats=2, mode="sandbox")
    seat_join(table_id=table.id, user=ann)
    seat_add_bot(table_id=table.id, bot="heuristic")
    table = table_start(table_id=table.id, run_bots=True)
    page.goto(f"/games/{table.id}")
    expect(page.get_by_test_id("generic-table")).to_be_visible()
    expect(page).to_have_title(re.compile(r"^▶ Your turn · Game · "))
    expect(page.get_by_test_id("alert-sound")).to_be_visible()
    phone_check(page, "alerts-generic")


def test_infamys_page_says_it_is_your_turn_in_its_title(pages):
    page = pages(grant=False)
    sign_up(page, "ann")
    ann = get_user_model().objects.get(username="ann")
    table = table_create(created_by=ann, game="infamy", seats=3, mode="sandbox")
    seat_join(table_id=table.id, user=ann)
    for _ in range(2):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table = table_start(table_id=table.id, run_bots=True)
    page.goto(f"/games/{table.id}")
    expect(page.get_by_test_id("actions")).to_be_visible()
    expect(page).to_have_title(re.compile(r"^▶ Your turn · Game · Infamy$"))
    phone_check(page, "alerts-infamy")


def phone_check(page, name: str) -> None:
    """At 390x844 the page's actions are on the first screen and nothing is wider than the
    screen; its picture at both sizes."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    actions = page_box(page, '[data-testid="actions"]')
    assert actions["top"] < PHONE["height"], actions
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    save(page, name)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(150)
    save(page, name)


def doc_images() -> bool:
    return os.environ.get("FB_DOC_SCREENSHOTS", "").strip() in {"1", "true", "yes"}


def save(page, name: str) -> None:
    size = page.viewport_size
    for folder in [SCREENSHOTS] + ([DOC_IMAGES] if doc_images() else []):
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))


def page_box(page, selector: str) -> dict:
    """The element's box in the page's coordinates (not the window's)."""
    return page.evaluate(
        """(sel) => { const b = document.querySelector(sel).getBoundingClientRect();
             return { top: b.top + window.scrollY, bottom: b.bottom + window.scrollY, height: b.height }; }""",
        selector,
    )


def test_on_a_phone_the_hand_the_hit_list_and_the_window_are_within_two_screens(pages):
    bob = pages(grant=True, viewport=PHONE)
    sign_up(bob, "bob")
    table = table_of_two("alerts-phone", seats=3)  # three crews on the page
    bob.goto(f"/games/{table.id}")
    expect(bob.locator("#log li")).not_to_have_count(0)
    attack_bob(table)
    expect(bob.locator("#window-panel")).to_be_visible()
    expect(bob).to_have_title(re.compile(r"^⚠ Your answer is awaited"))
    boxes = {s: page_box(bob, s) for s in ("#window-panel", "#hand", "#hit-list")}
    for selector, box in boxes.items():
        assert box["height"] > 0, selector
        assert box["bottom"] <= 2 * PHONE["height"], (selector, boxes)
    # in the order a turn needs them: the window, the hand, then the Hit List at once
    assert boxes["#window-panel"]["bottom"] <= boxes["#hand"]["top"], boxes
    assert 0 <= boxes["#hit-list"]["top"] - boxes["#hand"]["bottom"] <= 120, boxes
    bob.evaluate("window.scrollTo(0, 0)")
    save(bob, "alerts-window")
    # the second screen: the hand, then the Hit List
    bob.evaluate("window.scrollTo(0, document.querySelector('.hand-panel').offsetTop - 8)")
    bob.wait_for_timeout(100)
    save(bob, "phone-hand-hit-list")
    bob.set_viewport_size({"width": 1280, "height": 800})
    bob.wait_for_timeout(150)
    save(bob, "alerts-window")


def test_on_a_phone_the_replays_bar_takes_at_most_a_tenth_of_the_screen(pages):
    page = pages(grant=False, viewport=PHONE)
    sign_up(page, "viewer")
    table = table_create(created_by=None, seats=3, mode="sandbox", seed="alerts-replay")
    for _ in range(3):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table = table_start(table_id=table.id, run_bots=True)
    page.goto(f"/games/{table.id}/replay?turn=3")
    bar = page.get_by_test_id("replay-bar")
    expect(bar).to_be_visible()
    expect(page.get_by_test_id("position")).to_contain_text("event")
    page.evaluate("window.scrollTo(0, 1200)")
    page.wait_for_function("window.scrollY > 300")
    save(page, "replay-bar")
    box = bar.bounding_box()
    assert box is not None and -1 <= box["y"] <= 1, box  # still sticks to the top
    assert box["height"] <= PHONE["height"] / 10, box
    expect(page.get_by_role("button", name="Turn ▶")).to_be_in_viewport()
    # at a moment its line shows too: still within a tenth
    page.get_by_role("button", name="Next moment").click()
    expect(page.get_by_test_id("moment-now")).to_be_visible()
    box = bar.bounding_box()
    assert box is not None and box["height"] <= PHONE["height"] / 10, box
    save(page, "replay-bar-moment")


def test_open_tables_in_the_lobby_and_their_waiting_rooms_name_their_game(pages):
    page = pages(grant=False, viewport=PHONE)
    host = UserFactory(username="host")
    family = table_create(created_by=host, seats=3, mode="casual")
    seat_join(table_id=family.id, user=host)
    goof = table_create(created_by=host, game="goofspiel", seats=2, mode="casual")
    seat_join(table_id=goof.id, user=host)
    sign_up(page, "ann")
    for table, title in ((family, "Family Business"), (goof, "Goofspiel")):
        row = page.locator(f'#open-tables tr[data-table="{table.id}"]')
        expect(row.get_by_test_id("table-game")).to_have_text(title)
        expect(row.get_by_test_id("table-game")).to_be_visible()
    page.locator("#open-tables").scroll_into_view_if_needed()
    save(page, "lobby-open-tables")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(150)
    save(page, "lobby-open-tables")
    page.set_viewport_size(PHONE)
    page.goto(f"/games/{family.id}")
    expect(page.locator("#waiting h1")).to_contain_text("Family Business table")
    page.goto(f"/games/{goof.id}")
    expect(page.locator("#waiting h1")).to_contain_text("Goofspiel table")


def test_a_spectator_gets_no_alerts(pages):
    bob = pages(grant=False)
    sign_up(bob, "bob")
    table = table_of_two("alerts-spectator")
    attack_bob(table)  # a window waits for bob: nothing of it is the spectator's
    dan = pages(grant=True)
    sign_up(dan, "dan")
    dan.goto(f"/games/{table.id}")
    expect(dan.locator("#action-panel")).to_contain_text("You are watching")
    expect(dan.locator("#window-panel")).to_be_visible()
    dan.wait_for_timeout(300)
    expect(dan).to_have_title(BASE)
    expect(dan.get_by_test_id("alert-controls")).to_be_hidden()
