"""The advanced rules in the browser (issue 8): a sandbox game against a bot with a stacked
deck, so that alice holds ability cards: she assigns them by clicking (the generic choices
UI), sees the badge and the reconstructed text, and answers BUTCHER's draw decision and
SHORT-TEMPERED's offer with their controls and countdown."""

from __future__ import annotations

import contextlib
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.lobby import table_create
from tests.service.helpers import hand_stack
from tests.web.conftest import shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

KEEP = ("SHORT_TEMPERED", "CONTRACT")


def until_decision(page) -> None:
    """Pass on the bot's attacks (reaction windows) until alice's own decision is shown."""
    panel = page.locator("#window-panel")
    for _ in range(30):
        expect(panel).to_contain_text(re.compile("Decision|Reaction window"))
        if "Decision" in panel.inner_text():
            return
        passing = panel.get_by_role("button", name="Pass")
        if passing.count():
            with contextlib.suppress(PlaywrightError):  # the window closed meanwhile
                passing.click(timeout=2000)
        page.wait_for_timeout(300)
    raise AssertionError("no decision came")


def test_abilities_and_decisions_in_the_browser(new_page):
    alice = new_page("alice")
    sign_up(alice, "alice")
    expect(alice.get_by_label(re.compile("Advanced rules"))).to_be_visible()
    shot(alice, "20-lobby-advanced-option")
    creator = get_user_model().objects.get(username="alice")
    table = table_create(
        created_by=creator,
        seats=2,
        mode="sandbox",
        advanced=True,
        seed="web-advanced",
        reaction_seconds=60,
        turn_seconds=300,
        stacked_deck=hand_stack(["BUTCHER", "SHORT_TEMPERED", "CONTRACT", "CONTRACT"], []),
    )
    alice.reload()
    row = alice.locator(f'#open-tables tr[data-table="{table.id}"]')
    expect(row).to_contain_text("Advanced rules")  # its non-default options, as badges
    row.get_by_role("button", name="Join").click()
    expect(alice.locator("#table-info")).to_contain_text("advanced rules")
    alice.get_by_role("button", name="Add a bot").click()
    alice.get_by_role("button", name="Start the game").click()
    status = alice.get_by_test_id("status")
    expect(status).to_contain_text("Your turn")
    expect(alice.get_by_test_id("turn-clock")).to_contain_text("left for your turn")
    expect(alice.get_by_test_id("abilities")).to_contain_text("No ability assigned yet")
    expect(alice.get_by_role("button", name="Undo my last move")).to_have_count(0)  # sandbox

    # turn 1: BUTCHER goes under Al Capone, chosen by clicking (the play's `choices`)
    card = alice.locator('#hand .card[data-kind="BUTCHER"]')
    expect(card).to_have_attribute("title", re.compile("reconstructed"))
    card.click()
    expect(alice.get_by_test_id("prompt")).to_contain_text("carry BUTCHER")
    alice.locator('.player[data-seat="0"] .mob.selectable[data-mobster="al-capone"]').click()
    alice.get_by_role("button", name="Confirm").click()
    badge = alice.locator(
        '.player[data-seat="0"] .mob[data-mobster="al-capone"] [data-testid=ability]'
    )
    expect(badge).to_contain_text("Butcher")
    expect(badge).to_have_attribute("title", re.compile("reconstructed"))
    legend = alice.get_by_test_id("abilities")
    expect(legend).to_contain_text("Butcher on Al Capone")
    expect(legend.locator(".recon-mark")).to_have_text("reconstructed")
    expect(alice.locator("#log")).to_contain_text("gave Al Capone the ability BUTCHER")
    shot(alice, "21-ability-assigned")

    # turn 3 (after the bot's): BUTCHER's draw decision, with a countdown
    panel = alice.locator("#window-panel")
    until_decision(alice)
    expect(panel).to_contain_text("Decision")
    expect(panel.get_by_test_id("countdown")).to_contain_text("left to decide")
    expect(panel.get_by_role("button", name="Draw from the deck")).to_be_visible()
    expect(status).to_contain_text("You are deciding")
    shot(alice, "22-butcher-decision")
    panel.get_by_role("button", name="Use BUTCHER…").click()
    kinds = alice.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.kind)")
    picks = [i for i, k in enumerate(kinds) if k not in KEEP][:2]
    assert len(picks) == 2, kinds
    for i in picks:
        alice.locator("#hand .card").nth(i).click()
    expect(alice.locator("#hand .card.butcher-pick")).to_have_count(2)
    shot(alice, "23-butcher-picking")
    alice.get_by_role("button", name="Discard 2 and draw 2").click()
    expect(alice.locator("#log")).to_contain_text("used BUTCHER")

    # still turn 3: the card play assigns SHORT-TEMPERED to Frank Nitti
    expect(status).to_contain_text("Your turn")
    alice.locator('#hand .card[data-kind="SHORT_TEMPERED"]').click()
    alice.locator('.choice[data-pick="frank-nitti"]').click()
    alice.get_by_role("button", name="Confirm").click()
    expect(legend).to_contain_text("Short-Tempered on Frank Nitti")

    # turn 5: draw normally this time, then a CONTRACT: SHORT-TEMPERED offers another attack
    until_decision(alice)
    expect(panel.get_by_role("button", name="Draw from the deck")).to_be_visible()
    panel.get_by_role("button", name="Draw from the deck").click()
    expect(status).to_contain_text("Your turn")
    alice.locator('#hand .card[data-kind="CONTRACT"]').first.click()
    alice.locator('.player[data-seat="1"] .mob.selectable').first.click()
    alice.get_by_role("button", name="Confirm").click()
    expect(panel).to_contain_text("SHORT-TEMPERED")
    expect(panel.get_by_role("button", name="End turn")).to_be_visible()
    expect(panel.get_by_test_id("countdown")).to_contain_text("left to decide")
    shot(alice, "24-short-tempered")
    panel.get_by_role("button", name="End turn").click()
    expect(alice.locator("#log")).to_contain_text("Turn 6")
    shot(alice, "25-after-the-decisions")
