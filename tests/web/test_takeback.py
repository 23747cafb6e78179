"""Issue 29, "Undo casual players can use", in the browser: at a casual table of two
people alice discards (bob draws at his turn's start), asks to take it back, bob accepts
on his page; the cards bob drew go back, the deck is reshuffled from a fresh committed
seed, and the exported record with that reshuffle verifies offline. A declined request
changes nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from events.models import StoredEvent
from games.lobby import seat_join, table_create, table_start
from games.models import Table
from games.record import game_export
from games.verify import verify_record
from tests.service.helpers import state
from tests.web.conftest import DESKTOP, PHONE, doc_shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def two_people(new_page):
    alice, bob = new_page("alice"), new_page("bob")
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    users = get_user_model().objects
    table = table_create(created_by=None, seats=2, reaction_seconds=5)
    seat_join(table_id=table.id, user=users.get(username="alice"))
    seat_join(table_id=table.id, user=users.get(username="bob"))
    table = table_start(table_id=table.id)
    for page in (alice, bob):
        page.goto(f"/games/{table.id}")
    return alice, bob, table


def discard_first(page) -> None:
    # the page sets data-version once its first document has rendered
    expect(page.locator("#game")).to_have_attribute("data-version", re.compile(r"^\d+$"))
    version = int(page.locator("#game").get_attribute("data-version"))
    page.locator("#hand .card").first.click()
    discard = page.get_by_role("button", name="Discard it instead")
    if discard.count():
        discard.click()
    else:
        page.get_by_role("button", name="Confirm").click()
    page.wait_for_function(
        f"() => Number(document.getElementById('game').dataset.version) > {version}"
    )


def test_a_discard_that_made_bob_draw_is_taken_back_with_his_consent(new_page, tmp_path):
    alice, bob, table = two_people(new_page)
    before = state(table).state
    expect(alice.get_by_test_id("status")).to_contain_text("Your turn")
    discard_first(alice)
    expect(bob.get_by_test_id("status")).to_contain_text("Your turn")
    assert len(state(table).state.players[1].hand) == len(before.players[1].hand) + 1

    alice.get_by_role("button", name="Undo my last move").click()
    expect(alice.get_by_test_id("takeback")).to_contain_text(
        re.compile(r"You asked .*bob.* to let you take back")
    )
    prompt = bob.get_by_test_id("takeback")
    expect(prompt).to_contain_text(re.compile(r"alice.* asks to take back their last move"))
    # the tab says it waits on bob's answer (alerts.js, from the document's takeback)
    expect(bob).to_have_title(re.compile(r"^⚠ A takeback waits for your answer · "))
    bob.set_viewport_size(PHONE)
    doc_shot(bob, "takeback-request")
    bob.set_viewport_size(DESKTOP)
    bob.get_by_role("button", name="Accept the takeback").click()

    expect(alice.get_by_test_id("status")).to_contain_text("Your turn")
    expect(alice.locator("#log")).to_contain_text("A move was taken back")
    expect(bob.get_by_test_id("takeback")).to_have_count(0)
    expect(alice.get_by_test_id("takeback")).to_have_count(0)
    after = state(table).state
    assert after.players[0].hand == before.players[0].hand
    assert after.players[1].hand == before.players[1].hand  # bob's draw went back
    assert sorted(after.deck) == sorted(before.deck) and after.deck != before.deck
    types = list(
        StoredEvent.objects.filter(stream_id=table.id)
        .order_by("-seq")
        .values_list("type", flat=True)[:2]
    )
    assert types == ["family_business.DeckShuffled", "stream.Undone"]

    # the reshuffle is proved offline: the exported record, checked by the verifier's
    # command line (pure: no Django, no network), re-runs it from the revealed fresh seed
    record = game_export(Table.objects.get(id=table.id))
    assert verify_record(record).ok
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    run = subprocess.run(
        [sys.executable, "-m", "games.verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": os.environ.get("PATH", "")},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("OK:")
    record["reseeds"] = ["0" * 32]  # another seed than the one the marker committed to
    path.write_text(json.dumps(record))
    forged = subprocess.run(
        [sys.executable, "-m", "games.verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": os.environ.get("PATH", "")},
    )
    assert forged.returncode == 1 and "reshuffle_seed_hash" in forged.stderr


def test_a_declined_takeback_changes_nothing(new_page):
    alice, bob, table = two_people(new_page)
    discard_first(alice)
    expect(bob.get_by_test_id("status")).to_contain_text("Your turn")
    version = state(table).version
    alice.get_by_role("button", name="Undo my last move").click()
    bob.get_by_role("button", name="Decline").click()
    expect(bob.get_by_test_id("takeback")).to_have_count(0)
    expect(alice.get_by_test_id("takeback")).to_have_count(0)
    expect(bob.get_by_test_id("status")).to_contain_text("Your turn")
    assert state(table).version == version
