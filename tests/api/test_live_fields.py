"""What the web page asked the API for: undo_available, the table in command results, the
turn deadline, and the replay's audit hashes."""

from __future__ import annotations

import uuid

import pytest

from events.models import CommandRecord
from games import cache
from games.models import GameClock, Table
from games.selectors import undo_check
from games.service import clock_ms, game_load
from tests.api.helpers import (
    create_table,
    discard_other,
    event_count,
    play_contract,
    seat_all,
    start,
    undoable_game,
)

pytestmark = pytest.mark.django_db


def test_undo_available_follows_the_services_checks(alice, bob, staff):
    game = undoable_game(staff, [alice, bob], [["CONTRACT"], []])
    assert alice.state(game)["undo_available"] is False  # nothing played yet
    played = play_contract(alice, game, 0)
    body = played.json()
    assert played.status_code == 201 and body["undo_available"] is True
    assert body["table"]["id"] == game and body["table"]["status"] == "started"
    assert alice.state(game)["undo_available"] is True
    assert bob.state(game)["undo_available"] is False  # not bob's command
    undone = alice.post(f"/games/{game}/undo", key="6b0c1b1e-4d37-4a0e-9c55-3a3f3c0d1f01")
    assert undone.status_code == 201 and undone.json()["undo_available"] is False
    # a discard passes the turn and bob draws: offered (a takeback request bob answers,
    # the deck reshuffled from a fresh seed), and gone once bob acts
    assert discard_other(alice, game, 0).json()["undo_available"] is True
    assert alice.state(game)["undo_available"] is True
    assert bob.state(game)["undo_available"] is False
    discard_other(bob, game, 1)
    assert alice.state(game)["undo_available"] is False
    # ranked tables never offer it
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


def _undo_from_the_log(table_id: str, seat: int) -> bool:
    """What the command log says (the path that does not use the loaded events)."""
    table = Table.objects.get(id=table_id)
    loaded = game_load(game_id=table.id, use_snapshots=False)
    return (
        undo_check(
            table, seat=seat, version=loaded.version, over=bool(loaded.state.over), last=None
        )[1]
        is None
    )


def test_undo_available_in_command_results_matches_a_fresh_get(settings, alice, bob, carol, staff):
    settings.FB_SNAPSHOT_EVERY = 1  # cold reads find a snapshot with nothing after it
    players = (alice, bob, carol)
    game = undoable_game(staff, list(players), [["CONTRACT"]] * 3)
    answers = 0

    def check(actor, doc, step):
        nonlocal answers
        if step % 2:
            cache.clear()  # the GETs below read cold
        for position, player in enumerate(players):
            expected = _undo_from_the_log(game, position)
            fresh = player.state(game)
            assert fresh["version"] == doc["version"]
            assert fresh["undo_available"] is expected, (step, position)
            if player is actor:
                assert doc["undo_available"] is expected, (step, position)
                answers += expected

    for step in range(12):
        seat = alice.state(game)["state"]["turn_seat"]
        actor = players[seat]
        if step % 3 == 2:  # a contract opens a window: the actor may take it back
            played = play_contract(actor, game, seat)
            assert played.status_code == 201, played.json()
            check(actor, played.json(), step)
            undone = actor.post(f"/games/{game}/undo", key=str(uuid.uuid4()))
            assert undone.status_code == 201, undone.json()
            check(actor, undone.json(), step)
        # the next seat draws: an undo is offered (a takeback request, then a reshuffle)
        played = discard_other(actor, game, seat)
        assert played.status_code == 201, played.json()
        check(actor, played.json(), step)
    assert answers == 16  # after each contract and each discard: 4 + 12


def test_a_refusal_on_the_one_statement_path_writes_nothing(alice, bob):
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    game = table["id"]
    doc = start(alice, game)
    alice.state(game)  # the table is in this process's cache now
    count = event_count(game)
    clock = GameClock.objects.values().get(game_id=game)
    accepted = CommandRecord.objects.filter(stream_id=game, outcome="accepted").count()
    card = bob.state(game)["state"]["players"][1]["hand"][0]["id"]
    late = bob.command(game, {"type": "play", "card": card, "discard": True})
    assert (late.status_code, late.json()["code"]) == (422, "not_your_turn")
    mine = doc["state"]["players"][0]["hand"][0]["id"]
    stale = alice.command(
        game, {"type": "play", "card": mine, "discard": True}, expected_version=doc["version"] - 1
    )
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
    assert event_count(game) == count
    assert GameClock.objects.values().get(game_id=game) == clock
    assert CommandRecord.objects.filter(stream_id=game, outcome="accepted").count() == accepted
    assert CommandRecord.objects.filter(stream_id=game, outcome="refused").count() == 2
    assert alice.state(game)["undo_available"] is False and bob.state(game)["version"] == count


def test_the_command_that_ends_the_game_answers_with_the_table_finished(alice, bob):
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    game = table["id"]
    start(alice, game)
    bob.state(game)  # cached as started (commands skip re-reading its status)
    ended = bob.post(f"/games/{game}/resign", key=str(uuid.uuid4()))
    assert ended.status_code == 201
    body = ended.json()
    assert body["state"]["over"] and body["table"]["status"] == "finished"
    assert body["undo_available"] is False
    assert Table.objects.get(id=game).status == Table.Status.FINISHED
    assert GameClock.objects.get(game_id=game).version == body["version"] == event_count(game)
    assert alice.get(f"/tables/{game}").json()["status"] == "finished"
    late = alice.command(game, {"type": "resign"})
    assert (late.status_code, late.json()["code"]) == (409, "game_over")
    assert event_count(game) == body["version"]
