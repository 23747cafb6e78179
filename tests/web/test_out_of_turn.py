"""Out-of-turn play on the generic table page (G-8): a seat the game does not wait for sees
"Out of turn you may ..." with its choices (here a Scarface 1920 job, rules 2, on the
other seat's plan step), sends one, and the turn stays where it was. Scarface 1920 has a
page of its own now (tests/web/test_scarface_page.py does this there): here its pages are
taken out of the web's registry, so its table gets the generic page, as a game with
out-of-turn play and no pages would."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.lobby import seat_join, table_create, table_start
from games.registry import GAMES
from games.service import game_load
from tests.factories import UserFactory
from tests.games.scarface.builders import dealt, give_jobs, player
from tests.web.conftest import PHONE, shot
from tests.web.test_play import sign_up
from web.games import PAGES

pytestmark = pytest.mark.django_db(transaction=True)

SCARFACE = GAMES["scarface"]


def test_a_seat_not_awaited_completes_a_job_from_the_out_of_turn_line(new_page, monkeypatch):
    monkeypatch.delitem(PAGES, "scarface")  # the generic page, not the game's own
    bob = new_page("bob")
    bob.set_viewport_size(PHONE)
    sign_up(bob, "bob")
    state = dealt(2, rules_version=2)
    active = state.seat
    state = give_jobs(state, 1 - active, ("j27", "j10"))
    state = give_jobs(state, active, ("j16", "j04"))
    state = player(player(state, 0, money=10), 1, money=10)
    alice = UserFactory(username="alice")
    table = table_create(
        created_by=alice,
        game="scarface",
        seats=2,
        mode="sandbox",
        options={"position": SCARFACE.position_of(state)},
    )
    users = {active: alice, 1 - active: get_user_model().objects.get(username="bob")}
    for seat in (0, 1):
        seat_join(table_id=table.id, user=users[seat], position=seat)
    table = table_start(table_id=table.id)
    before = game_load(game_id=table.id)
    key = SCARFACE.status(before.state).step_key

    bob.goto(f"/games/{table.id}")
    expect(bob.get_by_test_id("generic-table")).to_be_visible()
    line = bob.get_by_test_id("out-of-turn")
    expect(line).to_contain_text("Out of turn you may: Complete Cops on the Payroll")
    expect(line).to_contain_text("The turn stays with alice")
    expect(bob.get_by_test_id("status")).to_contain_text("Waiting for alice")
    expect(bob.get_by_test_id("status")).to_contain_text("You may act out of turn")
    shot(bob, "out-of-turn-390x844")
    bob.get_by_test_id("actions").get_by_role("button", name="Complete Cops on the Payroll").click()
    expect(bob.locator("#game")).to_have_attribute("data-version", str(before.version + 2))
    expect(line).to_have_count(0)
    expect(bob.get_by_test_id("actions")).to_contain_text("Nothing you may play out of turn")
    expect(bob.get_by_test_id("status")).to_contain_text("Waiting for alice")
    after = game_load(game_id=table.id)
    status = SCARFACE.status(after.state)
    assert status.awaiting == (active,) and status.step_key == key
    assert after.state.players[1 - active].done == ("j27",)
