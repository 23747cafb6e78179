"""Issue 16, players: the table explains itself on a phone (390x844). Cards carry a few words
of what they do on their face; on your turn a card that cannot be played for effect is
dimmed and says why; targets are offered grouped by family in the family's colour and lit
on the board; a reaction window's attacked mobster is marked on the board; the last move
(the card, its target, the mobster that moved) is shown on the board itself."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.family_business import CARD_KIND
from games.lobby import seat_join, table_create, table_start
from tests.factories import UserFactory
from tests.service.helpers import hand_stack, run, state
from tests.web.conftest import doc_shot, shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def _card(table, seat: int, kind: str) -> str:
    return next(c for c in state(table).state.players[seat].hand if CARD_KIND[c] == kind)


def test_a_phone_player_reads_cards_targets_the_window_and_the_last_move(new_page):
    bob = new_page("bob")
    bob.set_viewport_size(PHONE)
    sign_up(bob, "bob")
    alice, carol = UserFactory(username="alice"), UserFactory(username="carol")
    # alice (seat 0) opens with a CONTRACT on bob; bob (seat 1) holds an answer, a CONTRACT
    # of his own; carol (seat 2) nothing that answers.
    table = table_create(
        created_by=alice,
        seats=3,
        mode="sandbox",
        seed="web-explains",
        reaction_seconds=120,
        stacked_deck=hand_stack(
            ["CONTRACT", "INTRIGUE", "INTRIGUE", "SUBSTITUTION", "SUBSTITUTION"],
            ["FAMILY_INFLUENCE", "CONTRACT", "TRUCE"],
            ["MOB_WAR"],
        ),
    )
    seat_join(table_id=table.id, user=alice)
    seat_join(table_id=table.id, user=get_user_model().objects.get(username="bob"))
    seat_join(table_id=table.id, user=carol)
    table = table_start(table_id=table.id)
    bob.goto(f"/games/{table.id}")
    expect(bob.get_by_test_id("status")).to_contain_text("alice")
    expect(bob.locator("#log li")).not_to_have_count(0)  # the page drew with its events

    # Every card says what it does on its face, inside the card and the screen, large
    # enough to read; nothing is dimmed while it is not bob's turn.
    influence = bob.locator('#hand .card[data-kind="FAMILY_INFLUENCE"]')
    text = influence.get_by_test_id("card-text")
    expect(text).to_be_visible()
    expect(text).to_have_text("Answer: cancel a Contract.")
    expect(bob.locator("#hand [data-testid=card-text]")).to_have_count(5)
    fits = influence.evaluate(
        """c => {
          const t = c.querySelector('[data-testid=card-text]').getBoundingClientRect();
          const b = c.getBoundingClientRect();
          return {inside: t.left >= b.left && t.right <= b.right + 0.5 && t.bottom <= b.bottom,
                  onScreen: b.right <= window.innerWidth, height: t.height,
                  size: parseFloat(getComputedStyle(c.querySelector('.card-text')).fontSize)};
        }"""
    )
    assert fits["inside"] and fits["onScreen"] and fits["height"] > 0, fits
    assert fits["size"] >= 11, fits  # readable on a phone
    expect(bob.locator("#hand .card.dimmed")).to_have_count(0)

    # alice's CONTRACT on bob's first mobster: the window marks the attacked mobster on
    # the board, and alice's box shows the card she played and on whom.
    target = state(table).state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": _card(table, 0, "CONTRACT"), "targets": [target]})
    expect(bob.locator("#window-panel")).to_contain_text("Reaction window")
    expect(bob.locator(f'#window-panel .mob.attacked[data-mobster="{target}"]')).to_have_count(1)
    attacked = bob.locator("#players .mob.attacked")
    expect(attacked).to_have_count(1)
    expect(attacked).to_have_attribute("data-mobster", target)
    expect(bob.locator('.player[data-seat="1"] .mob.attacked')).to_have_count(1)
    played = bob.locator('.player[data-seat="0"] [data-testid=last-move]')
    expect(played).to_contain_text("Played")
    expect(played.locator(".card")).to_have_attribute("data-kind", "CONTRACT")
    expect(bob.locator(".player.last-mover")).to_have_count(1)
    shot(bob, "explains-phone-window")
    doc_shot(bob, "reaction-window")

    # bob and carol let it through by hand (a table of people: a pass by hand is public,
    # docs/rules.md "Hand passes are public"): bob's page lists him as passed and offers
    # nothing more; carol's pass closes the window at once, long before its deadline. The
    # target went on the Hit List; it is lit as moved there, the window's marks are gone,
    # and the move is still alice's.
    bob.get_by_role("button", name="Pass now — the table will see it").click()
    expect(bob.locator("#window-panel .eligible")).to_contain_text("Murder Inc. (bob) · passed")
    expect(bob.locator("#window-panel button")).to_have_count(0)
    doc_shot(bob, "hand-pass")
    window = state(table).state.window
    assert window is not None and window.waiting_on == (2,)
    run(table, 2, {"type": "pass", "window": window.id})
    assert state(table).state.window is None
    expect(bob.get_by_test_id("status")).to_contain_text("Your turn")
    expect(bob.locator(".mob.attacked")).to_have_count(0)
    expect(bob.locator(f'#hit-list .mob.moved[data-mobster="{target}"]')).to_have_count(1)
    expect(played).to_contain_text("Played")

    # bob's turn: cards he cannot play for effect are dimmed and say why, on their face.
    why = bob.locator('#hand .card[data-kind="FAMILY_INFLUENCE"] [data-testid=card-why]')
    expect(why).to_have_text("Only as an answer to an attack")
    expect(why).to_be_visible()
    expect(bob.locator('#hand .card[data-kind="FAMILY_INFLUENCE"]')).to_have_class(
        re.compile(r"\bdimmed\b")
    )
    contract = bob.locator('#hand .card[data-kind="CONTRACT"]').first
    expect(contract).not_to_have_class(re.compile(r"\bdimmed\b"))
    expect(contract.get_by_test_id("card-why")).to_have_count(0)
    shot(bob, "explains-phone-hand")

    # Picking a CONTRACT's target: the choices come grouped by family, each in its colour,
    # and the same mobsters light up on the board (bob's own do not).
    contract.click()
    groups = bob.get_by_test_id("choice-group")
    expect(groups).to_have_count(2)
    families = {p.family for p in state(table).state.players if p.seat != 1}
    assert {groups.nth(i).get_attribute("data-family") for i in range(2)} == families
    colours = {groups.nth(i).evaluate("e => getComputedStyle(e).borderLeftColor") for i in range(2)}
    assert len(colours) == 2  # two families, two colours
    alice_crew = state(table).state.players[0].crew
    alice_family = bob.locator('.player[data-seat="0"] .player-head b').inner_text()
    expect(groups.filter(has_text=alice_family).locator("button")).to_have_count(len(alice_crew))
    expect(bob.locator('.player[data-seat="0"] .mob.selectable')).to_have_count(len(alice_crew))
    expect(bob.locator('.player[data-seat="1"] .mob.selectable')).to_have_count(0)
    expect(bob.locator('.player[data-seat="2"] .mob.selectable')).not_to_have_count(0)
    shot(bob, "explains-phone-targets")
    doc_shot(bob, "game-in-progress")

    # bob clicks carol's first mobster on the board and confirms: his own box now shows
    # his CONTRACT and its target; alice's last move is no longer marked.
    victim = state(table).state.players[2].crew[0]
    bob.locator(f'.player[data-seat="2"] .mob[data-mobster="{victim}"]').click()
    bob.get_by_role("button", name="Confirm").click()
    mine = bob.locator('.player[data-seat="1"] [data-testid=last-move]')
    expect(mine).to_contain_text("Played")
    expect(mine).to_contain_text(bob.locator(f'.mob[data-mobster="{victim}"]').first.inner_text())
    expect(bob.locator('.player[data-seat="0"] [data-testid=last-move]')).to_have_count(0)
    expect(bob.locator(f'#players .mob.attacked[data-mobster="{victim}"]')).to_have_count(1)
    expect(bob.locator(f'#window-panel .mob.attacked[data-mobster="{victim}"]')).to_have_count(1)
