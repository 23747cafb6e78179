"""Standing reactions over HTTP: reading and changing your own, the errors, and what the
server's standing commands look like to you and to everyone else. The window that opens
is answered in-process here (``standing_react``, what the task runs); tests/timers has it
with a real worker, and the leak test."""

from __future__ import annotations

import uuid

import pytest
from django.db import DatabaseError, transaction

from events.models import CommandRecord
from games.models import StandingPreference, Table
from games.standing import standing_react
from tests.api.helpers import (
    create_table,
    event_count,
    play_contract,
    seat_all,
    start,
    undoable_game,
)

pytestmark = pytest.mark.django_db

FI = "FAMILY_INFLUENCE"


def standing(player, game_id) -> dict:
    response = player.get(f"/games/{game_id}/standing")
    assert response.status_code == 200, response.content
    return response.json()


def change(player, game_id, body):
    return player.client.patch(f"/api/v1/games/{game_id}/standing", data=body, format="json")


@pytest.fixture
def game(staff, alice, bob, carol) -> str:
    """alice holds a CONTRACT, bob a FAMILY INFLUENCE, carol no counter at all."""
    return undoable_game(staff, [alice, bob, carol], [["CONTRACT"], [FI], []])


def test_the_defaults_until_you_change_them(bob, game) -> None:
    doc = standing(bob, game)
    assert (doc["seat"], doc["version"], doc["auto_pass"]) == (1, 0, True)
    assert doc["pass_all"] == {"active": False, "until": None, "until_ms": None, "turn": None}
    assert doc["counters"] == [] and doc["window_pass"] is None
    assert doc["answers"]["FINGER"] == ["TAKE_IT_ON_THE_LAM"]


def test_each_change_is_a_new_version_and_the_old_ones_stay(bob, game) -> None:
    declared = [{"counter": FI, "against": ["CONTRACT"]}]
    response = change(bob, game, {"counters": declared, "auto_pass": False})
    assert response.status_code == 200, response.content
    doc = response.json()
    assert doc["version"] == 1 and doc["auto_pass"] is False
    assert doc["counters"] == [{"counter": FI, "against": ["CONTRACT"], "mine_only": True}]
    doc = change(bob, game, {"pass_all": {"seconds": 60}, "expected_version": 1}).json()
    assert doc["version"] == 2 and doc["pass_all"]["active"] is True
    assert doc["pass_all"]["until_ms"] - doc["server_time"] <= 60_000
    assert doc["counters"] and doc["auto_pass"] is False  # left out: kept
    doc = change(bob, game, {"pass_all": {"end_of_turn": True}}).json()
    assert doc["pass_all"]["active"] is True and doc["pass_all"]["turn"] == 1
    assert doc["pass_all"]["until_ms"] is None
    doc = change(bob, game, {"pass_all": None, "counters": []}).json()
    assert doc["version"] == 4 and not doc["pass_all"]["active"] and doc["counters"] == []
    rows = StandingPreference.objects.filter(game_id=game, seat=1).order_by("version")
    assert [r.version for r in rows] == [1, 2, 3, 4] and rows[0].auto_pass is False
    assert rows[0].actor == f"user:{bob.user.pk}"


def test_the_record_is_append_only_in_the_database(bob, game) -> None:
    change(bob, game, {"auto_pass": False})
    for attempt in (
        lambda: StandingPreference.objects.filter(game_id=game).update(auto_pass=True),
        lambda: StandingPreference.objects.filter(game_id=game).delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            attempt()
    assert StandingPreference.objects.get(game_id=game).auto_pass is False


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"counters": [{"counter": "FINGER", "against": ["CONTRACT"]}]}, "bad_command", 400),
        ({"counters": [{"counter": "CONTRACT"}]}, "invalid", 400),
        ({"counters": [{"counter": FI, "mine": True}]}, "invalid", 400),
        ({"pass_all": {"seconds": 60, "end_of_turn": True}}, "invalid", 400),
        ({"pass_all": {"seconds": 0}}, "invalid", 400),
        ({"pass_all": {}}, "invalid", 400),
        ({"auto_pass": "yes"}, "invalid", 400),
        ({"everything": True}, "invalid", 400),
        ({"counters": [{"counter": FI}] * 9}, "invalid", 400),  # at most 8
        ({"counters": {"counter": FI}}, "invalid", 400),
        ({"auto_pass": True, "expected_version": 3}, "stale_version", 409),
    ],
)
def test_bad_changes_are_refused_and_change_nothing(bob, game, body, code, status) -> None:
    events = event_count(game)
    response = change(bob, game, body)
    assert (response.status_code, response.json()["code"]) == (status, code), response.content
    assert not StandingPreference.objects.filter(game_id=game).exists()
    assert event_count(game) == events


def test_only_your_own_seat(mallory, staff, game) -> None:
    for player in (mallory, staff):  # a spectator; staff, who hold no seat here
        assert player.get(f"/games/{game}/standing").json()["code"] == "not_your_seat"
        response = change(player, game, {"auto_pass": False})
        assert (response.status_code, response.json()["code"]) == (403, "not_your_seat")
    missing = mallory.get(f"/games/{uuid.uuid4()}/standing")
    assert (missing.status_code, missing.json()["code"]) == (404, "game_not_found")


def test_end_of_turn_needs_a_started_game_and_nothing_changes_after_the_end(
    alice, bob, carol
) -> None:
    table = create_table(alice, seats=2)
    response = change(alice, table["id"], {"pass_all": {"end_of_turn": True}})
    assert (response.status_code, response.json()["code"]) == (409, "not_started")
    assert change(alice, table["id"], {"auto_pass": False}).status_code == 200  # before start
    seat_all(table["id"], bob)
    start(alice, table["id"])
    bob.post(f"/games/{table['id']}/resign", key=str(uuid.uuid4()))
    assert Table.objects.get(id=table["id"]).status == "finished"
    response = change(alice, table["id"], {"auto_pass": True})
    assert (response.status_code, response.json()["code"]) == (409, "game_over")


def test_a_standing_pass_is_private_and_appends_nothing(alice, bob, carol, game) -> None:
    play_contract(alice, game, 0)
    version = alice.state(game)["version"]
    window = alice.state(game)["state"]["window"]["id"]
    done = standing_react(game_id=uuid.UUID(game))
    assert done == {2: "no_counter"}  # carol holds no counter; bob holds one: he decides
    assert alice.state(game)["version"] == version  # no event, nothing for others to see
    assert carol.state(game)["state"]["window"]["waiting_on"] == [1, 2]
    assert standing(carol, game)["window_pass"]["reason"] == "no_counter"
    assert standing(carol, game)["window_pass"]["window"] == window
    assert standing(bob, game)["window_pass"] is None
    record = CommandRecord.objects.get(stream_id=game, seat=2)
    assert record.actor == f"user:{carol.user.pk}" and record.first_seq is None
    assert record.command == {"type": "pass", "window": window}
    assert record.metadata == {"origin": "standing", "reason": "no_counter", "private": True}
    assert standing_react(game_id=uuid.UUID(game)) == {}  # once a window
    # carol may still answer herself: a pass of her own is public as ever
    response = carol.command(game, {"type": "pass", "window": window})
    assert response.status_code == 201 and response.json()["events"][0]["origin"] is None


def test_a_declared_counter_is_played_as_the_seats_own_command(alice, bob, carol, game) -> None:
    change(bob, game, {"counters": [{"counter": FI}]})
    play_contract(alice, game, 0)
    version = alice.state(game)["version"]
    assert standing_react(game_id=uuid.UUID(game)) == {1: "declared"}
    shown = {
        name: player.get(f"/games/{game}/events", after=version).json()["events"]
        for name, player in (("alice", alice), ("bob", bob), ("carol", carol))
    }
    assert shown["bob"][0]["data"]["type"] == "CounterPlayed"
    assert shown["bob"][0]["actor"] == f"user:{bob.user.pk}"
    assert shown["bob"][0]["origin"] == "standing"  # to bob himself
    assert shown["alice"][0]["origin"] is None and shown["carol"][0]["origin"] is None
    assert shown["alice"][0]["actor"] == shown["bob"][0]["actor"]
    record = CommandRecord.objects.get(stream_id=game, seat=1)
    assert record.metadata["origin"] == "standing" and record.first_seq == version + 1


def test_a_change_while_a_window_is_open_applies_to_it_at_once(
    alice, bob, game, django_capture_on_commit_callbacks
) -> None:
    play_contract(alice, game, 0)
    assert standing(bob, game)["window_pass"] is None
    with django_capture_on_commit_callbacks(execute=True):
        doc = change(bob, game, {"pass_all": {"end_of_turn": True}}).json()
    assert doc["window_pass"] is None  # read before the commit...
    assert standing(bob, game)["window_pass"]["reason"] == "pass_all"  # ...applied after it


def test_a_timeout_says_the_system_played_for_the_seat(alice, bob) -> None:
    from games.models import GameClock
    from games.service import turn_timeout

    table = create_table(alice, seats=2, turn_seconds=30, turn_action="discard")
    seat_all(table["id"], bob)
    start(alice, table["id"])
    version = bob.state(table["id"])["version"]
    clock = GameClock.objects.get(game_id=table["id"])
    outcome = turn_timeout(
        game_id=uuid.UUID(table["id"]),
        key=clock.turn_key,
        deadline=clock.turn_deadline_ms,
        now=clock.turn_deadline_ms,
    )
    assert outcome is not None
    for player in (alice, bob):  # the turn clock is public: so is its timeout
        events = player.get(f"/games/{table['id']}/events", after=version).json()["events"]
        played = events[0]
        assert played["data"]["type"] == "CardPlayed" and played["data"]["discard"] is True
        assert (played["actor"], played["origin"]) == ("system", "timeout")
        assert events[1]["origin"] == "timeout"  # every event of that command
    record = CommandRecord.objects.get(stream_id=table["id"], metadata__timeout=True)
    assert record.metadata["origin"] == "timeout"


def test_changes_count_against_the_command_rate_reads_do_not(settings, bob, game) -> None:
    settings.FB_COMMAND_RATE = "2/min"
    for _ in range(3):
        assert bob.get(f"/games/{game}/standing").status_code == 200
    assert [change(bob, game, {"auto_pass": True}).status_code for _ in range(3)] == [
        200,
        200,
        429,
    ]
    assert StandingPreference.objects.filter(game_id=game).count() == 2
