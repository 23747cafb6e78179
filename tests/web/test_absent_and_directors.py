"""Issue 29: absent players and directors in the browser.

- A director's deciding ruling asks for confirmation in a dialog naming the game, where it
  stands and the result it sets; Cancel records nothing; after it, the replay's last
  position reads as decided (no turn, the ruling shown). Screenshots of the dialog at a
  phone's and a desktop's size (docs/web.md).
- At a two-person table whose other person timed out ``abandon_after`` turns in a row, the
  table page says they are absent and offers "Claim the win"; the claim ends the game by
  abandonment, which both pages then say.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import GameClock, Ruling, Table
from games.service import game_command_execute, game_load
from games.timeouts import turn_timeout
from tests.web.conftest import doc_shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_deciding_ruling_asks_first_and_the_replay_then_shows_it_decided(new_page):
    director = new_page("td")
    sign_up(director, "td")
    get_user_model().objects.filter(username="td").update(is_staff=True)
    alice = get_user_model().objects.create_user("alice", password="x")
    table = table_create(created_by=alice, seats=3, mode="ranked")
    seat_join(table_id=table.id, user=alice)
    for _ in range(2):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table = table_start(table_id=table.id)  # alice's turn: the game waits on her

    director.goto(f"/games/{table.id}/replay")
    expect(director.locator("#ruling-panel")).to_be_visible()
    expect(director.get_by_test_id("position")).to_contain_text(" of ")  # set up
    director.get_by_label("Ruling").select_option("award")
    director.locator("#ruling-winners input[value='1']").check()
    director.get_by_label("Why").fill("alice left the tournament hall; the bot led.")
    director.get_by_role("button", name="Record the ruling").click()

    dialog = director.get_by_test_id("ruling-confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Award the win in Family Business?")
    expect(director.get_by_test_id("ruling-confirm-game")).to_contain_text("ranked table")
    expect(director.get_by_test_id("ruling-confirm-game")).to_contain_text("alice")
    now = director.get_by_test_id("ruling-confirm-now")
    expect(now).to_contain_text("Running")
    expect(now).to_contain_text("waiting on alice")
    expect(now).to_contain_text("The ruling ends it now")
    expect(director.get_by_test_id("ruling-confirm-result")).to_contain_text(
        "Clever bot 2 wins; every other seat loses."
    )
    doc_shot(director, "ruling-confirm")

    # Cancel: nothing recorded, the game runs on
    director.get_by_test_id("ruling-cancel").click()
    expect(dialog).to_be_hidden()
    director.wait_for_timeout(300)
    assert not Ruling.objects.exists()
    assert Table.objects.get(id=table.id).status == Table.Status.STARTED

    director.get_by_role("button", name="Record the ruling").click()
    expect(dialog).to_be_visible()
    director.get_by_test_id("ruling-confirm-yes").click()
    expect(director.get_by_test_id("ruling").first).to_contain_text("The win is awarded to")
    assert Ruling.objects.get().kind == "award"
    assert Table.objects.get(id=table.id).status == Table.Status.FINISHED

    # the replay of the decided game: its end reads as decided, nobody's turn
    director.reload()
    decided = director.get_by_test_id("replay-decided")
    expect(decided).to_contain_text("Decided by a ruling: the win is awarded to Clever bot 2")
    expect(director.locator("#replay-board .badge.turn")).to_have_count(0)
    expect(director.locator("#replay-board .badge.win")).to_have_count(1)
    director.get_by_role("button", name="«").click()  # the first event: as it was
    expect(decided).to_be_hidden()


def time_out(table_id: uuid.UUID) -> None:
    row = GameClock.objects.get(game_id=table_id)
    assert row.turn_deadline_ms is not None
    turn_timeout(
        game_id=table_id, key=row.turn_key, deadline=row.turn_deadline_ms, now=row.turn_deadline_ms
    )


def hand_discard(table_id: uuid.UUID, seat: int) -> None:
    game = game_load(game_id=table_id)
    card = game.definition.view(game.state, seat, now=0)["players"][seat]["hand"][0]["id"]
    game_command_execute(
        game_id=table_id,
        seat=seat,
        actor=f"user:{seat}",
        command={"type": "play", "card": card, "discard": True},
        command_id=uuid.uuid4(),
    )


def test_the_present_person_claims_the_win_on_the_table_page(new_page):
    alice, bob = new_page("alice"), new_page("bob")
    sign_up(alice, "alice")
    sign_up(bob, "bob", from_home=False)
    users = get_user_model().objects
    table = table_create(
        created_by=users.get(username="alice"),
        seats=2,
        mode="ranked",
        turn_seconds=600,
        abandon_after=2,
    )
    seat_join(table_id=table.id, user=users.get(username="alice"))
    seat_join(table_id=table.id, user=users.get(username="bob"))
    table = table_start(table_id=table.id)
    time_out(table.id)  # alice's turn runs out; bob's turn
    bob.goto(f"/games/{table.id}")
    expect(bob.get_by_test_id("status")).to_contain_text("Your turn")
    expect(bob.get_by_test_id("claim-win")).to_have_count(0)
    hand_discard(table.id, 1)  # bob plays by hand
    expect(bob.locator("#log")).to_contain_text("Turn 3: Capone Mob (alice) to play")
    time_out(table.id)  # alice again: absent
    bob.reload()
    expect(bob.get_by_test_id("absent")).to_contain_text("(alice) is absent: 2 timeouts in a row")
    alice.goto(f"/games/{table.id}")
    expect(alice.get_by_test_id("absent")).to_be_visible()
    expect(alice.get_by_test_id("claim-win")).to_have_count(0)  # not for the absent seat
    bob.get_by_test_id("claim-win").scroll_into_view_if_needed()
    doc_shot(bob, "absent-claim")
    bob.get_by_test_id("claim-win").click()
    for page in (bob, alice):
        expect(page.get_by_test_id("abandoned")).to_contain_text(
            "(alice) timed out 2 turns in a row and is out.", timeout=10_000
        )
        expect(page.get_by_test_id("status")).to_contain_text("Game over")
        expect(page.locator("#log")).to_contain_text(
            "(alice) was absent (too many timeouts in a row) and is out."
        )
    expect(bob.locator("#error")).to_be_hidden()
    assert Table.objects.get(id=table.id).status == Table.Status.FINISHED


def test_the_table_creator_chooses_the_abandonment_rule_in_the_lobby(new_page):
    page = new_page("carol")
    sign_up(page, "carol")
    page.get_by_test_id("game-picker").select_option("goofspiel")
    expect(page.locator("#abandon-field")).to_be_hidden()  # no resign: no rule
    page.get_by_test_id("game-picker").select_option("family_business")
    field = page.get_by_label("Out after this many timeouts in a row (0: never)")
    expect(field).to_have_value("3")  # the documented default
    page.get_by_label("Seconds per turn (0: no limit)").fill("60")
    field.fill("5")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    table = Table.objects.get(id=page.url.rsplit("/", 1)[1])
    assert (table.turn_seconds, table.abandon_after) == (60, 5)
