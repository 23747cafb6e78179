"""Issue 16, standing reactions on two pages at once: at a table of people an automatic pass
is sealed (docs/rules.md, "Hand passes are public, automatic passes are sealed"). bob's
and carol's automatic passes are shown on their own pages only; alice, who attacked, sees
both as able to answer until the window runs out, exactly as if they had not answered
(issue 29's pass by hand, public: tests/web/test_hand_passes.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.family_business import CARD_KIND
from games.lobby import seat_join, table_create, table_start
from games.service import close_window
from games.standing import standing_react
from tests.factories import UserFactory
from tests.service.helpers import hand_stack, run, state
from tests.web.conftest import PHONE
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_automatic_pass_shows_only_on_its_own_page(new_page):
    alice, bob = new_page("alice"), new_page("bob")
    bob.set_viewport_size(PHONE)
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    users = get_user_model().objects
    table = table_create(
        created_by=users.get(username="alice"),
        seats=3,
        mode="sandbox",
        seed="web-sealed",
        reaction_seconds=120,
        stacked_deck=hand_stack(["CONTRACT"], [], []),  # nobody holds a counter
    )
    for user in (users.get(username="alice"), users.get(username="bob")):
        seat_join(table_id=table.id, user=user)
    seat_join(table_id=table.id, user=UserFactory(username="carol"))
    table = table_start(table_id=table.id)
    for page in (alice, bob):
        page.goto(f"/games/{table.id}")
        expect(page.locator("#log li")).not_to_have_count(0)

    contract = next(c for c in state(table).state.players[0].hand if CARD_KIND[c] == "CONTRACT")
    target = state(table).state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": contract, "targets": [target]})
    window = state(table).state.window
    version = state(table).version
    # the task a worker runs as the window opens (no worker here): bob and carol hold no
    # counter, so their default standing reactions pass for both
    assert standing_react(game_id=table.id) == {1: "no_counter", 2: "no_counter"}
    assert state(table).version == version  # nothing appended for any of it

    expect(bob.get_by_test_id("auto-passed")).to_contain_text("Passed for you automatically")
    expect(bob.get_by_test_id("auto-passed")).to_contain_text("Nobody else sees it")
    eligible = alice.locator("#window-panel .eligible")
    expect(eligible).to_contain_text("Murder Inc. (bob) · may answer")
    expect(eligible).to_contain_text("Moran Gang (carol) · may answer")
    expect(alice.locator("#window-panel")).not_to_contain_text("passed")
    expect(alice.get_by_test_id("countdown")).to_contain_text("s left")

    # the window runs out (the timer's close, made at once): both pages move on together
    close_window(
        game_id=table.id, window_id=window.id, deadline=window.deadline, now=window.deadline
    )
    for page in (alice, bob):
        expect(page.locator("#window-panel")).to_be_hidden()
        expect(page.locator(f'#hit-list .mob[data-mobster="{target}"]')).to_have_count(1)
