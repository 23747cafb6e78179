"""Replay, audit and export: who may see what, before and after the end."""

from __future__ import annotations

import uuid

import pytest

from games.verify import verify_record
from tests.api.helpers import card_ids, create_table, seat_all, start, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, carol) -> str:
    """A three-seat game, running: alice discarded a card."""
    return started_game(alice, bob, carol, discard=True)


def hands(view: dict) -> dict[int, list[str]]:
    return {p["seat"]: [c["id"] for c in p["hand"]] for p in view["players"] if "hand" in p}


def test_a_replay_before_the_end_shows_only_your_own_hand(alice, bob, game) -> None:
    replay = bob.get(f"/games/{game}/replay", at=5).json()
    assert replay["at"] == 5 and replay["viewer"] == 1
    assert list(hands(replay["state"])) == [1]
    assert replay["state"]["revealed"] is False and "deck" not in replay["state"]
    assert "legal" not in replay["state"]
    # the whole game as of the latest event, by default
    latest = bob.get(f"/games/{game}/replay").json()
    assert latest["at"] == latest["version"] == bob.state(game)["version"]
    # beyond the end is the end
    assert bob.get(f"/games/{game}/replay", at=10_000).json()["at"] == latest["version"]


def test_a_finished_game_replays_with_every_hand_revealed(alice, bob, carol, mallory, game) -> None:
    for player in (alice, carol):
        response = player.post(f"/games/{game}/resign", key=str(uuid.uuid4()))
        assert response.status_code == 201
    early = mallory.get(f"/games/{game}/replay", at=5).json()
    assert early["state"]["revealed"] is True and early["viewer"] == "spectator"
    assert sorted(hands(early["state"])) == [0, 1, 2]
    assert len(early["state"]["deck"]) == early["state"]["deck_size"]
    assert early["state"]["seed"]
    assert early["state"]["over"] is False  # as of event 5, the game was still on


def test_the_audit_is_for_players_after_the_end_and_for_staff(
    alice, bob, carol, mallory, staff, game
) -> None:
    # before the end: staff only
    for player, status in ((alice, 403), (mallory, 403), (staff, 200)):
        response = player.get(f"/games/{game}/audit")
        assert response.status_code == status, player.name
        if status == 403:
            assert response.json()["code"] == "forbidden"
    live = staff.get(f"/games/{game}/audit").json()
    assert live["revealed"] is False
    assert "seed" not in live["events"][0]["data"]  # staff do not see the seed before the end
    assert live["events"][1]["data"]["cards"]  # but they see the deck order
    assert any(c["metadata"].get("ip") for c in live["commands"])  # and where commands came from
    refused = carol.command(game, {"type": "play", "card": "c01", "discard": True})
    assert refused.status_code == 422
    bob.post(f"/games/{game}/resign", key=str(uuid.uuid4()))
    carol.post(f"/games/{game}/resign", key=str(uuid.uuid4()))
    # after the end: the players too, never mallory
    assert mallory.get(f"/games/{game}/audit").status_code == 403
    audit = alice.get(f"/games/{game}/audit").json()
    assert audit["revealed"] is True
    assert audit["events"][0]["data"]["seed"]
    commands = audit["commands"]
    assert commands[0]["command"] == {"type": "start"} and commands[0]["outcome"] == "accepted"
    refusal = next(c for c in commands if c["outcome"] == "refused")
    assert refusal["seat"] == 2 and refusal["error_code"] == "not_your_turn"
    assert refusal["first_seq"] is None and refusal["actor"] == f"user:{carol.user.pk}"
    assert "_service" not in refusal["error_data"]
    assert all("ip" not in c["metadata"] for c in commands)
    assert all("ip" not in e["metadata"] for e in audit["events"])


def test_export_for_players_after_the_end_and_for_staff_at_any_time(
    alice, bob, carol, mallory, staff, game
) -> None:
    assert alice.get(f"/games/{game}/export").status_code == 403
    assert mallory.get(f"/games/{game}/export").status_code == 403
    unfinished = staff.get(f"/games/{game}/export")
    assert unfinished.status_code == 200 and unfinished.json()["seed"]
    for player in (bob, carol):
        player.post(f"/games/{game}/resign", key=str(uuid.uuid4()))
    record = alice.get(f"/games/{game}/export").json()
    assert verify_record(record).ok
    assert all("ip" not in e["metadata"] for e in record["events"])
    assert mallory.get(f"/games/{game}/export").status_code == 403


def test_staff_playing_a_game_see_it_as_their_seat(alice, staff) -> None:
    table = create_table(staff, seats=2)
    seat_all(table["id"], alice)
    start(staff, table["id"])
    seen = staff.state(table["id"])
    assert seen["viewer"] == 0 and list(hands(seen["state"])) == [0]
    assert staff.get(f"/games/{table['id']}/audit").status_code == 403
    other = alice.state(table["id"])["state"]["players"][1]["hand"]
    assert not ({c["id"] for c in other} & card_ids(seen))
