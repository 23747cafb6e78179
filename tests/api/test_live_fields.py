"""What the web page asked the API for: undo_available, the table in command results, the
turn deadline, and the replay's audit hashes."""

from __future__ import annotations

import pytest

from games.service import clock_ms
from tests.api.helpers import create_table, seat_all, start

pytestmark = pytest.mark.django_db


def test_undo_available_follows_the_services_checks(alice, bob):
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    doc = start(alice, table["id"])
    assert doc["undo_available"] is False  # nothing played yet
    card = doc["state"]["players"][0]["hand"][0]["id"]
    played = alice.command(table["id"], {"type": "play", "card": card, "discard": True})
    body = played.json()
    assert played.status_code == 201 and body["undo_available"] is True
    assert body["table"]["id"] == table["id"] and body["table"]["status"] == "started"
    assert alice.state(table["id"])["undo_available"] is True
    assert bob.state(table["id"])["undo_available"] is False  # not bob's command
    undone = alice.post(f"/games/{table['id']}/undo", key="6b0c1b1e-4d37-4a0e-9c55-3a3f3c0d1f01")
    assert undone.status_code == 201 and undone.json()["undo_available"] is False
    # bob's turn now? no: the undo gave alice her turn back; ranked tables never offer it
    ranked = create_table(alice, seats=2, mode="ranked")
    seat_all(ranked["id"], bob)
    assert start(alice, ranked["id"])["undo_available"] is False


def test_turn_deadline_is_shown_on_tables_with_a_turn_limit(alice, bob, mallory):
    plain = create_table(alice, seats=2)
    seat_all(plain["id"], bob)
    assert start(alice, plain["id"])["turn_deadline"] is None
    timed = create_table(alice, seats=2, turn_seconds=90, turn_action="bot")
    assert timed["turn_seconds"] == 90
    seat_all(timed["id"], bob)
    before = clock_ms()
    doc = start(alice, timed["id"])
    assert before + 80_000 <= doc["turn_deadline"] <= clock_ms() + 90_000
    assert mallory.state(timed["id"])["turn_deadline"] == doc["turn_deadline"]
    card = doc["state"]["players"][0]["hand"][0]["id"]
    body = alice.command(timed["id"], {"type": "play", "card": card, "discard": True}).json()
    assert body["turn_deadline"] is not None and body["state"]["turn_seat"] == 1


def test_the_replay_carries_the_audit_hash_once_the_game_is_over(alice, bob, mallory, staff):
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    running = mallory.get(f"/games/{table['id']}/replay", at=3).json()
    assert running["hash"] is None and running["prev_hash"] is None  # could leak a draw
    audit = staff.get(f"/games/{table['id']}/audit").json()
    assert (
        staff.get(f"/games/{table['id']}/replay", at=3).json()["hash"] == audit["events"][2]["hash"]
    )
    bob.post(f"/games/{table['id']}/resign", key="0b9d2f4e-8a51-4c8e-b1a5-6f7f2b6c3d10")
    done = mallory.get(f"/games/{table['id']}/replay", at=3).json()
    assert done["hash"] == audit["events"][2]["hash"]
    assert done["prev_hash"] == audit["events"][1]["hash"]
