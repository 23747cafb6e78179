"""Issue 16, rulings on a running game: a page open on a game a tournament director then
decides learns it at once (the feed wakes: the ruling is announced like an append) and
shows "Decided by a ruling: ..." with the game over and nothing left to play, for a player
and a spectator, in Family Business and in Infamy. A director's note made during play is
not shown to players until the game is over, nor to a staff user who plays in it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import reviews
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import Table
from tests.factories import UserFactory
from tests.web.conftest import shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def rule(table_id, kind: str, winners: list[int] = (), reason: str = "A player left.") -> None:
    director = get_user_model().objects.filter(username="director").first()
    if director is None:
        director = UserFactory(username="director", is_staff=True)
    reviews.ruling_record(
        table=Table.objects.get(id=table_id),
        user=director,
        kind=kind,
        winners=list(winners),
        reason=reason,
    )


def running(game: str = "family_business", **options):
    """alice (seat 0, to play first) and bots, started."""
    alice = get_user_model().objects.get(username="alice")
    table = table_create(created_by=alice, game=game, seats=3, mode="sandbox", **options)
    seat_join(table_id=table.id, user=alice)
    for _ in range(2):
        seat_add_bot(table_id=table.id, bot="heuristic")
    return table_start(table_id=table.id)


def test_a_family_business_page_shows_the_ruling_that_ends_its_game(new_page):
    alice, mallory = new_page("alice"), new_page("mallory")
    sign_up(alice, "alice")
    sign_up(mallory, "mallory", from_home=False)
    table = running(seed="ruled-fb")
    for page in (alice, mallory):
        page.goto(f"/games/{table.id}")
    expect(alice.get_by_test_id("status")).to_contain_text("Your turn")
    expect(alice.locator("#hand .card.clickable").first).to_be_visible()
    expect(mallory.get_by_test_id("status")).to_contain_text("alice")

    # A director's note during play may discuss hidden cards: not on alice's replay page.
    rule(table.id, "note", reason="alice holds two CONTRACTs; no action.")
    replay = new_page("alice-replay")
    sign_up(replay, "alice2", from_home=False)
    # (the panel starts hidden: wait for the page's read of the rulings, refused to a player
    # while the game runs, so that its staying hidden says something)
    with replay.expect_response(lambda r: r.url.endswith(f"/games/{table.id}/rulings")) as read:
        replay.goto(f"/games/{table.id}/replay")
    assert read.value.status == 403
    expect(replay.get_by_test_id("position")).to_be_visible()
    expect(replay.get_by_test_id("rulings")).to_be_hidden()
    expect(replay.locator("#error")).to_be_hidden()

    # The director awards the win to alice while both pages are open: they follow.
    rule(table.id, "award", [0], reason="Both bots crashed; alice led.")
    for page in (alice, mallory):
        expect(page.get_by_test_id("ruled")).to_contain_text(
            "Decided by a ruling: the win is awarded to", timeout=10_000
        )
        expect(page.get_by_test_id("ruled")).to_contain_text("alice")
        expect(page.get_by_test_id("status")).to_contain_text("Game over")
        expect(page.get_by_test_id("replay-link")).to_be_visible()
    expect(alice.locator("#action-panel")).to_contain_text("The game is over.")
    expect(alice.locator("#hand .card.clickable")).to_have_count(0)
    expect(alice.get_by_role("button", name="Resign…")).to_have_count(0)
    expect(alice.locator("#error")).to_be_hidden()
    shot(alice, "ruled-fb-desktop")

    # Now that it is over, the rulings are everyone's (the note too).
    replay.reload()
    expect(replay.get_by_test_id("ruling")).to_have_count(2)
    expect(replay.get_by_test_id("rulings")).to_contain_text("Both bots crashed")


def test_an_infamy_page_shows_the_ruling_that_voids_its_game(new_page):
    alice = new_page("alice")
    sign_up(alice, "alice")
    table = running(
        "infamy",
        seed="ruled-infamy",
        options={"sector_seconds": 600, "stacked": {"first_seat": 0}},
    )
    alice.goto(f"/games/{table.id}")
    expect(alice.get_by_test_id("auction-actions")).to_be_visible()

    rule(table.id, "void", reason="The auction was disputed; replayed offline.")
    expect(alice.get_by_test_id("ruled")).to_contain_text(
        "Decided by a ruling: the game is void", timeout=10_000
    )
    expect(alice.get_by_test_id("status")).to_contain_text("Game over")
    expect(alice.get_by_test_id("auction-actions")).to_have_count(0)
    expect(alice.locator("#error")).to_be_hidden()
    shot(alice, "ruled-infamy-desktop")


def test_a_staff_user_seated_at_the_table_gets_a_players_replay_page(new_page):
    """Staff who sit at a table are players there: their replay page offers no ruling form
    and reads no director's note while the game runs; an unseated director's page does."""
    alice = new_page("alice")
    sign_up(alice, "alice")
    get_user_model().objects.filter(username="alice").update(is_staff=True)
    table = running(seed="seated-staff")
    rule(table.id, "note", reason="alice holds two CONTRACTs; no action.")

    with alice.expect_response(lambda r: r.url.endswith(f"/games/{table.id}/rulings")) as read:
        alice.goto(f"/games/{table.id}/replay")
    assert read.value.status == 403
    expect(alice.get_by_test_id("position")).to_be_visible()
    expect(alice.locator("#ruling-panel")).to_be_hidden()
    expect(alice.locator("#note-form")).to_be_hidden()
    expect(alice.get_by_test_id("rulings")).to_be_hidden()

    director = new_page("director")
    sign_up(director, "td", from_home=False)
    get_user_model().objects.filter(username="td").update(is_staff=True)
    director.goto(f"/games/{table.id}/replay")
    expect(director.locator("#ruling-panel")).to_be_visible()
    expect(director.get_by_test_id("ruling")).to_contain_text("two CONTRACTs")
