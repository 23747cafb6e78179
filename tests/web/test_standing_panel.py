"""Issue 16, standing reactions on the table page: the panel shows the seat's preferences
(auto-pass on by default), passes on everything for a while and stops, declares a counter
that the server keeps, and the server then answers an attack with it for the seat, which
the seat's log words as done automatically."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.family_business import CARD_KIND
from games.standing import standing_react
from tests.service.helpers import hand_stack, run, state
from tests.web.helpers import bob_at_a_sandbox_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_bob_sets_his_standing_reactions_and_the_server_counters_for_him(new_page):
    bob, table = bob_at_a_sandbox_table(
        new_page,
        seed="web-standing",
        reaction_seconds=120,
        stacked_deck=hand_stack(["CONTRACT"], ["FAMILY_INFLUENCE"]),
    )

    panel = bob.get_by_test_id("standing")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("auto-pass on")
    panel.locator("summary").click()
    auto = panel.get_by_label("Pass automatically when I hold no counter that applies")
    expect(auto).to_be_checked()

    # pass on everything for a while, then stop
    panel.get_by_role("button", name="Pass on everything for 10 minutes").click()
    expect(panel.locator("summary")).to_contain_text("passing on everything")
    panel.get_by_role("button", name="Stop").click()
    expect(panel.locator("summary")).not_to_contain_text("passing on everything")

    # declare FAMILY INFLUENCE against attacks on his mobsters: the server keeps it
    panel.get_by_label("Answer attacks on my mobsters with FAMILY INFLUENCE when I hold it").check()
    expect(panel.locator("summary")).to_contain_text("1 counter declared")
    bob.reload()
    panel = bob.get_by_test_id("standing")
    expect(panel.locator("summary")).to_contain_text("1 counter declared")

    # alice's CONTRACT on bob: the server counters it for him, as his own move (the task
    # a worker runs when a window opens; this test has no worker, so it calls it)
    contract = next(c for c in state(table).state.players[0].hand if CARD_KIND[c] == "CONTRACT")
    target = state(table).state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": contract, "targets": [target]})
    assert standing_react(game_id=table.id) == {1: "declared"}
    expect(bob.locator("#log")).to_contain_text(
        "countered with a FAMILY INFLUENCE (automatically)", timeout=20_000
    )
    # only the answer itself says so, not what followed in the same command (issue 29:
    # the window's close, the next turn and its draw said "(automatically)" too)
    expect(bob.locator("#log li", has_text="Turn 2")).to_have_count(1)
    expect(bob.locator("#log li", has_text="(automatically)")).to_have_count(1)
