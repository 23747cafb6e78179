"""The tournament page (/tournaments/<id>): a director's review desk (rounds, tables,
standings and their history, the review queue with a player's flag closed by a note) and a player's view of the same page
(no queue, their own table and results highlighted), at a desktop's and a phone's size.
A small Family Business event through the service: alice and five bots at tables of
three, one round; the bots' table plays to its end inline, alice's runs until a ruling."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import reviews
from games.models import Table
from tests.web.conftest import DESKTOP, PHONE, doc_shot
from tests.web.test_play import sign_up
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


def small_event() -> tuple[str, str, str]:
    """(tournament id, the bots' finished table, alice's running table)."""
    users = get_user_model().objects
    td, alice = users.get(username="td"), users.get(username="alice")
    created = services.tournament_create(
        user=td,
        name="Club night",
        game="family_business",
        rounds=1,
        table_min=3,
        table_max=3,
        turn_seconds=60,  # the queue reads the clocked games' audits (no timeouts here)
    )
    tid = str(created.id)
    services.register(tournament_id=tid, user=alice)
    for _ in range(5):
        services.register(tournament_id=tid, user=td, bot="heuristic")
    services.round_start(tournament_id=tid, user=td)
    assert services.advance(tournament_id=tid) == "running"  # alice has not moved
    t, _ = services.folded(services.get(tid))
    ((a, a_seats), (b, b_seats)) = t.rounds[0].tables
    mine, bots = (a, b) if 1 in a_seats else (b, a)
    assert Table.objects.get(id=bots).status == Table.Status.FINISHED
    assert Table.objects.get(id=mine).status != Table.Status.FINISHED
    return tid, bots, mine


def loaded(page, tid: str) -> None:
    page.goto(f"/tournaments/{tid}")
    expect(page.get_by_test_id("tournament")).to_have_attribute("data-loaded", "true")


def no_sideways_scroll(page) -> None:
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page scrolls sideways on a phone"
    page.set_viewport_size(DESKTOP)


def test_the_review_desk_for_staff_and_a_players_own_tables(new_page):
    staff, player = new_page("td"), new_page("alice")
    sign_up(staff, "td")
    sign_up(player, "alice")
    users = get_user_model().objects
    users.filter(username="td").update(is_staff=True)
    td = users.get(username="td")
    tid, bots, mine = small_event()
    reviews.ruling_record(
        table=Table.objects.get(id=bots), user=td, kind="void", reason="a misdeal at the start"
    )

    # staff: the queue names the ruling the standings have not taken in yet
    staff.set_viewport_size(DESKTOP)
    loaded(staff, tid)
    expect(staff.get_by_test_id("tournament-name")).to_have_text("Club night")
    expect(staff.get_by_test_id("summary")).to_contain_text("Round running")
    cards = staff.get_by_test_id("table-card")
    expect(cards).to_have_count(2)
    live = staff.locator(f"[data-testid=table-card][data-table='{mine}']")
    expect(live.get_by_test_id("table-state")).to_have_text("Live")
    expect(live.get_by_test_id("replay-link")).to_have_count(0)
    done = staff.locator(f"[data-testid=table-card][data-table='{bots}']")
    expect(done.get_by_test_id("replay-link")).to_have_attribute("href", f"/games/{bots}/replay")
    expect(done.get_by_test_id("table-link")).to_have_attribute("href", f"/games/{bots}")
    item = staff.get_by_test_id("queue-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("(void) pending")
    expect(item.get_by_test_id("queue-replay")).to_have_attribute("href", f"/games/{bots}/replay")
    expect(staff.get_by_test_id("standing-row")).to_have_count(6)
    expect(staff.get_by_test_id("my-pairings")).to_have_count(0)
    doc_shot(staff, "tournament-desk")
    no_sideways_scroll(staff)

    # the player: no queue; their table highlighted, live, in "Your games"
    player.set_viewport_size(DESKTOP)
    loaded(player, tid)
    expect(player.get_by_test_id("review-queue")).to_have_count(0)
    expect(player.get_by_test_id("my-pairing")).to_have_count(1)
    expect(player.get_by_test_id("my-result")).to_have_text("Live")
    highlighted = player.locator("[data-testid=table-card][data-mine=true]")
    expect(highlighted).to_have_count(1)
    expect(highlighted).to_have_attribute("data-table", mine)
    expect(player.locator("[data-testid=standing-row][data-mine=true]")).to_have_count(1)
    standing = player.locator("[data-testid=standing-row][data-mine=true]")
    expect(standing.get_by_test_id("profile-link")).to_have_attribute("href", "/players/alice")
    expect(player.get_by_test_id("standings").get_by_test_id("profile-link")).to_have_count(1)
    doc_shot(player, "tournament-player")
    no_sideways_scroll(player)

    # alice flags her game for the directors, with a reason
    player.get_by_test_id("flag-game").click()
    player.get_by_label("Why this game needs a look").fill("My opponent's clock froze")
    player.get_by_role("button", name="Send to the directors").click()
    expect(player.get_by_test_id("my-flag")).to_contain_text("My opponent's clock froze")
    doc_shot(player, "tournament-player-flag")
    loaded(staff, tid)
    flagged = staff.locator(f"[data-testid=queue-item][data-table='{mine}']")
    expect(flagged.locator("[data-kind=flagged]")).to_contain_text("Flagged by alice")
    doc_shot(staff, "tournament-desk-flag")
    flagged.get_by_label("What you found (flag 1)").fill("The clock ran normally.")
    flagged.get_by_role("button", name="Close flag").click()
    expect(staff.get_by_test_id("closed-flag")).to_contain_text("reviewed: The clock ran normally.")
    expect(flagged).to_have_count(0)
    loaded(player, tid)
    expect(player.get_by_test_id("my-flag")).to_contain_text("Flag closed: The clock ran normally.")

    # a director awards alice's game to her: the round ends, the rulings are taken in
    seats = next(s for x, s in services.folded(services.get(tid))[0].rounds[0].tables if x == mine)
    seat = seats.index(1)
    reviews.ruling_record(
        table=Table.objects.get(id=mine), user=td, kind="award", winners=[seat], reason="left"
    )
    assert services.advance(tournament_id=tid) == "finished"
    loaded(staff, tid)
    expect(staff.get_by_test_id("queue-empty")).to_be_visible()
    whys = staff.get_by_test_id("history-entry")
    expect(whys).to_have_count(3)  # newest first: the round's end after both rulings
    expect(whys.first).to_contain_text("round 1 ended")
    expect(staff.get_by_test_id("standings-history")).to_contain_text("(void)")
    expect(staff.get_by_test_id("standings-history")).to_contain_text("(award)")
    loaded(player, tid)
    expect(player.get_by_test_id("my-result")).to_have_text("1st of 3")
    first = player.get_by_test_id("standing-row").first
    expect(first).to_have_attribute("data-mine", "true")
    expect(player).to_have_url(re.compile(rf"/tournaments/{tid}$"))
    doc_shot(player, "tournament-player-finished")


def test_no_such_tournament(new_page):
    page = new_page("dave")
    sign_up(page, "dave")
    response = page.goto("/tournaments/00000000-0000-0000-0000-000000000000")
    assert response is not None and response.status == 404
    expect(page.get_by_test_id("no-tournament")).to_be_visible()


def test_the_list_a_directors_form_and_entering(new_page):
    """A director creates a tournament with the list page's form and lands on its desk;
    a player finds it in the list (linked from every page's bar) and enters it."""
    staff, player = new_page("td"), new_page("alice")
    sign_up(staff, "td")
    sign_up(player, "alice")
    get_user_model().objects.filter(username="td").update(is_staff=True)

    staff.set_viewport_size(DESKTOP)
    staff.goto("/tournaments")
    expect(staff.get_by_test_id("no-tournaments")).to_be_visible()
    form = staff.get_by_test_id("create-tournament")
    form.get_by_label("Name").fill("Friday Swiss")
    form.get_by_label("Game").select_option(label="Family Business")
    form.get_by_label("Smallest table").fill("3")
    form.get_by_label("Largest table").fill("4")
    doc_shot(staff, "tournament-list-director")
    form.get_by_role("button", name="Create").click()
    expect(staff).to_have_url(re.compile(r"/tournaments/[0-9a-f-]{36}$"))
    expect(staff.get_by_test_id("tournament-name")).to_have_text("Friday Swiss")
    expect(staff.get_by_test_id("summary")).to_contain_text("tables of 3–4")

    player.set_viewport_size(DESKTOP)
    player.goto("/lobby")
    player.get_by_role("link", name="Tournaments").click()
    row = player.get_by_test_id("tournament-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Friday Swiss")
    expect(row).to_contain_text("Family Business · swiss · 0 entrants")
    expect(player.get_by_test_id("create-tournament")).to_have_count(0)
    row.get_by_role("button", name="Enter").click()
    expect(row.locator(".badge.you")).to_have_text("entered")
    expect(row).to_contain_text("1 entrant ")
    doc_shot(player, "tournament-list")
    no_sideways_scroll(player)
    row.get_by_test_id("tournament-link").click()
    expect(player.get_by_test_id("my-pairings")).to_contain_text("No games yet")
