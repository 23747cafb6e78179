"""Issue 16's smaller fixes in the browser, at a phone (390x844) and a desktop size: one
counter button per kind of card, a timeout worded as the system playing for the seat,
"Murder Inc." with one full stop, an ability card's "reconstructed" inside the card, the
phone hand in three columns, developer details folded away, undone moves marked in the
log, the lobby's result column and remembered settings, and the favicon."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import reviews, tasks
from games.family_business import CARD_KIND
from games.lobby import seat_join, table_create, table_start
from games.models import GameClock, Table
from games.service import game_command_execute
from tests.factories import UserFactory
from tests.service.helpers import hand_stack, run, state
from tests.web.conftest import shot
from tests.web.helpers import bob_at_a_sandbox_table
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def test_bob_counters_once_runs_out_of_time_and_reads_it_in_the_log(new_page):
    # alice (seat 0) holds a CONTRACT; bob (seat 1) two FAMILY INFLUENCE and an ability.
    bob, table = bob_at_a_sandbox_table(
        new_page,
        advanced=True,
        seed="web-polish",
        reaction_seconds=120,
        turn_seconds=300,
        stacked_deck=hand_stack(
            ["CONTRACT", "TRUCE"], ["FAMILY_INFLUENCE", "FAMILY_INFLUENCE", "LIBRARIAN"]
        ),
    )
    log = bob.locator("#log")
    expect(log).to_contain_text("bob plays Murder Inc.")
    expect(log).not_to_contain_text("Inc..")

    # The ability card's "reconstructed" stays inside the card, even on a phone.
    ability = bob.locator('#hand .card[data-kind="LIBRARIAN"]')
    expect(ability.locator(".card-recon")).to_have_text("reconstructed")
    overflow = ability.evaluate(
        "c => [c, ...c.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1)"
        " || c.querySelector('.card-recon').getBoundingClientRect().right"
        " > c.getBoundingClientRect().right"
    )
    assert overflow is False

    # Developer details are folded away until asked for.
    details = bob.get_by_test_id("details")
    expect(details.locator("#game-details")).to_be_hidden()
    details.locator("summary").click()
    expect(details.locator("#game-details")).to_contain_text("seed hash")

    target = state(table).state.players[1].crew[0]
    contract = state(table).state.players[0].hand[0]
    run(table, 0, {"type": "play", "card": contract, "targets": [target]})
    panel = bob.locator("#window-panel")
    expect(panel).to_contain_text("Reaction window")
    buttons = panel.get_by_role("button", name="Counter with FAMILY INFLUENCE")
    expect(buttons).to_have_count(1)  # two copies, one button
    shot(bob, "30-phone-reaction-window")
    buttons.click()
    expect(log).to_contain_text("countered with a FAMILY INFLUENCE")
    expect(bob.get_by_test_id("status")).to_contain_text("Your turn")

    # The phone hand fills three columns: the first row holds three cards.
    hand = bob.locator("#hand .card")
    expect(hand).to_have_count(6)
    # measured in the page, on the cards drawn at that moment (the hand is redrawn whenever
    # the state is re-read); it never holds with two columns
    bob.wait_for_function(
        """() => {
          const tops = [...document.querySelectorAll('#hand .card')]
            .map((c) => Math.round(c.getBoundingClientRect().top));
          return tops.length === 6 && tops[0] > 0 && tops[3] > tops[0]
            && tops.filter((t) => t === tops[0]).length === 3;
        }"""
    )
    shot(bob, "31-phone-your-turn")

    # bob's turn runs out: the system discards for him, never a counter while he has others.
    clock = GameClock.objects.get(game=table)
    tasks.service.turn_timeout(
        game_id=table.id,
        key=clock.turn_key,
        deadline=clock.turn_deadline_ms,
        now=clock.turn_deadline_ms,
    )
    timeout = bob.get_by_test_id("timeout")
    expect(timeout).to_have_count(1)
    expect(timeout).to_contain_text(
        re.compile(
            r"^\d+ Time ran out: Murder Inc\. \(bob\) discarded an? .+ \(the system played for them\)\.$"
        )
    )
    expect(timeout).not_to_contain_text("FAMILY INFLUENCE")
    expect(bob.locator('#hand .card[data-kind="FAMILY_INFLUENCE"]')).to_have_count(1)
    shot(bob, "32-phone-timeout-in-the-log")
    bob.set_viewport_size(DESKTOP)
    expect(timeout).to_be_visible()
    shot(bob, "33-desktop-timeout-in-the-log")


def test_an_undone_move_stays_in_the_log_marked_as_undone(new_page):
    alice = new_page("alice")
    sign_up(alice, "alice")
    # Undo is refused once a move showed anyone a card (a discard starts bob's turn and
    # draws him one), so alice takes back a CONTRACT, which opens a window: a stacked
    # sandbox made casual with undo before it starts.
    table = table_create(
        created_by=None,
        seats=2,
        mode="sandbox",
        stacked_deck=hand_stack(["CONTRACT"]),
        reaction_seconds=300,
    )
    Table.objects.filter(id=table.id).update(mode=Table.Mode.CASUAL, undo=Table.Undo.OWN_LAST)
    user = get_user_model().objects.get(username="alice")
    seat_join(table_id=table.id, user=user)
    seat_join(table_id=table.id, user=UserFactory(username="bob"))
    table_start(table_id=table.id)
    loaded = state(table)
    contract = next(c for c in loaded.state.players[0].hand if CARD_KIND[c] == "CONTRACT")
    target = loaded.state.players[1].crew[0]
    game_command_execute(
        game_id=table.id,
        seat=0,
        actor=f"user:{user.pk}",
        command={"type": "play", "card": contract, "targets": [target]},
        command_id=uuid.uuid4(),
    )
    alice.goto(f"/games/{table.id}")
    alice.get_by_role("button", name="Undo my last move").click()
    expect(alice.locator("#log")).to_contain_text("A move was taken back")
    undone = alice.locator("#log li.undone")
    expect(undone.first).to_be_visible()
    expect(undone).not_to_have_count(0)  # the contract and its window, struck out
    expect(alice.get_by_test_id("status")).to_contain_text("Your turn")
    shot(alice, "34-desktop-undone-in-the-log")


def test_the_lobby_remembers_settings_names_bots_and_shows_who_won(new_page):
    carol = new_page("carol")
    sign_up(carol, "carol")
    assert carol.request.get("/favicon.ico").status == 200
    expect(carol.get_by_label("Bot style").locator("option")).to_have_text(["clever", "random"])
    carol.get_by_label("Players (seats)").select_option("2")
    carol.get_by_label("Bots to seat now").select_option("1")
    carol.get_by_label("Bot style").select_option("heuristic")
    carol.get_by_label("Seconds per turn (0: no limit)").fill("45")
    carol.get_by_role("button", name="Create table").click()
    expect(carol).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    expect(carol.locator("#seats")).to_contain_text("Clever bot 2")
    carol.get_by_role("button", name="Start the game").click()
    expect(carol.get_by_test_id("status")).to_contain_text("Your turn")
    carol.get_by_role("button", name="Resign…").click()
    carol.get_by_role("button", name="Yes, resign").click()
    expect(carol.get_by_test_id("status")).to_contain_text("Game over")

    carol.goto("/lobby")
    expect(carol.get_by_label("Players (seats)")).to_have_value("2")
    expect(carol.get_by_label("Bots to seat now")).to_have_value("1")
    expect(carol.get_by_label("Seconds per turn (0: no limit)")).to_have_value("45")
    expect(carol.get_by_test_id("winner")).to_have_text("won by Clever bot 2")
    shot(carol, "35-desktop-lobby-result")
    carol.set_viewport_size(PHONE)
    expect(carol.get_by_test_id("winner")).to_be_visible()
    shot(carol, "36-phone-lobby-result")

    # A tournament director then awards the win to carol: the lobby and the game page say
    # the result was decided by a ruling (the game's own log still ends as played).
    table = Table.objects.get(seat_set__user__username="carol")
    director = UserFactory(username="director", is_staff=True)
    reviews.ruling_record(
        table=table, user=director, kind="award", winners=[0], reason="The bot crashed."
    )
    carol.reload()
    expect(carol.get_by_test_id("winner")).to_have_text("won by carol")
    expect(carol.locator(f'tr[data-table="{table.id}"]')).to_contain_text("(by a ruling)")
    carol.goto(f"/games/{table.id}")
    expect(carol.get_by_test_id("ruled")).to_contain_text(
        "Decided by a ruling: the win is awarded to"
    )
