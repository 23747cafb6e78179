"""The lobby over HTTP."""

from __future__ import annotations

import pytest

from games.models import Table
from tests.api.helpers import create_table, seat_all, start

pytestmark = pytest.mark.django_db


def test_a_new_table_seats_its_creator_and_is_listed_as_open(alice, bob) -> None:
    table = create_table(
        alice, seats=3, reaction_seconds=20, spectator_delay=2, turn_seconds=60, turn_action="bot"
    )
    assert (table["turn_seconds"], table["turn_action"]) == (60, "bot")
    assert table["status"] == "open" and table["mode"] == "casual" and table["size"] == 3
    assert table["undo"] == "own_last" and table["options"]["reaction_seconds"] == 20
    assert "reaction_seconds" not in table and "advanced" not in table  # options only
    assert table["spectator_delay"] == 2 and table["created_by"] == alice.user.pk
    assert table["seats"] == [{"position": 0, "name": "alice", "bot": None, "user": alice.user.pk}]
    assert table["your_seat"] == 0
    assert "seed" not in table and "stacked_deck" not in table
    listed = bob.get("/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]] and listed[0]["your_seat"] is None
    assert bob.get("/tables", mine="true").json()["tables"] == []
    assert [t["id"] for t in alice.get("/tables", mine="true").json()["tables"]] == [table["id"]]
    assert bob.get(f"/tables/{table['id']}").json()["id"] == table["id"]


def test_join_leave_and_seat_conflicts(alice, bob, carol) -> None:
    table = create_table(alice, seats=3)
    url = f"/tables/{table['id']}"
    joined = bob.post(f"{url}/join", {"position": 2, "name": "Bobby"})
    assert joined.status_code == 201
    assert joined.json()["seats"][1] == {
        "position": 2,
        "name": "Bobby",
        "bot": None,
        "user": bob.user.pk,
    }
    assert joined.json()["your_seat"] == 2
    taken = carol.post(f"{url}/join", {"position": 2})
    assert (taken.status_code, taken.json()["code"]) == (409, "seat_taken")
    twice = bob.post(f"{url}/join")
    assert (twice.status_code, twice.json()["code"]) == (409, "already_seated")
    nowhere = carol.post(f"{url}/join", {"position": 5})
    assert (nowhere.status_code, nowhere.json()["code"]) == (400, "bad_options")
    assert bob.post(f"{url}/leave").status_code == 200
    not_seated = bob.post(f"{url}/leave")
    assert (not_seated.status_code, not_seated.json()["code"]) == (409, "not_seated")


def test_bots_are_seated_by_the_creator_only(alice, bob) -> None:
    table = create_table(alice, seats=3)
    url = f"/tables/{table['id']}"
    refused = bob.post(f"{url}/bots", {"kind": "random"})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    added = alice.post(f"{url}/bots", {"kind": "random", "position": 2})
    assert added.status_code == 201
    assert added.json()["seats"][1]["bot"] == "random"
    unknown = alice.post(f"{url}/bots", {"kind": "genius"})
    assert (unknown.status_code, unknown.json()["code"]) == (400, "invalid")
    assert "kind" in unknown.json()["extra"]["fields"]


def test_start_needs_every_seat_and_a_participant(alice, bob, mallory) -> None:
    table = create_table(alice, seats=3)
    url = f"/tables/{table['id']}"
    seat_all(table["id"], bob)
    short = alice.post(f"{url}/start")
    assert (short.status_code, short.json()["code"]) == (409, "not_enough_players")
    assert short.json()["extra"] == {"seats": 3, "filled": 2}
    alice.post(f"{url}/bots", {"kind": "heuristic"})
    stranger = mallory.post(f"{url}/start")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "forbidden")
    game = start(bob, table["id"])  # any seated player may start
    assert game["seat"] == 1 and game["table"]["status"] == "started"
    assert game["version"] >= 7 and game["server_time"] > 0
    again = alice.post(f"{url}/start")
    assert (again.status_code, again.json()["code"]) == (409, "table_not_open")
    late = mallory.post(f"{url}/join")
    assert (late.status_code, late.json()["code"]) == (409, "table_not_open")
    leave = bob.post(f"{url}/leave")
    assert (leave.status_code, leave.json()["code"]) == (409, "table_not_open")


def test_sandbox_tables_are_for_staff(alice, bob, staff) -> None:
    refused = alice.post("/tables", {"mode": "sandbox", "seed": "s"})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert not Table.objects.filter(created_by=alice.user).exists()
    seeded = alice.post("/tables", {"mode": "casual", "seed": "s"})
    assert (seeded.status_code, seeded.json()["code"]) == (400, "bad_options")
    table = create_table(
        staff, mode="sandbox", seats=2, join=False, seed="fixed", stacked_deck=["c07", "c51"]
    )
    assert table["seats"] == [] and table["undo"] == "off"
    seat_all(table["id"], alice, bob)
    game = start(staff, table["id"])
    assert game["viewer"] == "staff"
    hand = [c["id"] for c in alice.state(table["id"])["state"]["players"][0]["hand"]]
    assert hand[:2] == ["c07", "c51"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seats": 7}, "seats"),
        ({"seats": 1}, "seats"),
        ({"seats": "4"}, "seats"),
        ({"seats": 4.5}, "seats"),
        ({"mode": "tournament"}, "mode"),
        ({"options": {"reaction_seconds": 0}}, "reaction_seconds"),
        ({"spectator_delay": -1}, "spectator_delay"),
        ({"turn_seconds": 601}, "turn_seconds"),
        ({"turn_action": "sleep"}, "turn_action"),
        ({"undo": "always"}, "undo"),
        ({"join": "yes"}, "join"),
        ({"seats": 2, "position": 3}, "position"),
        ({"options": {"stacked_deck": ["c99"]}}, "stacked_deck"),
        ({"options": {"stacked_deck": ["c01", "c01"]}}, "stacked_deck"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_table_options_are_400_with_the_field(staff, body, field) -> None:
    response = staff.post(
        "/tables", {"mode": "sandbox", **body} if "stacked" in str(body) else body
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid"), response.json()
    assert field in response.json()["extra"]["fields"]
    assert not Table.objects.filter(created_by=staff.user).exists()


def test_the_table_list_query_is_checked(alice) -> None:
    assert alice.get("/tables", limit=0).status_code == 400
    bad = alice.get("/tables", status="finished")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    assert alice.get("/tables", mine="true", status="finished").status_code == 200


def test_a_finished_table_says_who_won(alice, bob) -> None:
    table = create_table(alice, seats=2)
    open_one = create_table(alice, seats=3)
    url = f"/tables/{table['id']}"
    alice.post(f"{url}/bots", {"kind": "heuristic"})
    game = start(alice, table["id"])
    assert game["table"]["winners"] is None
    resigned = alice.post(
        f"/games/{table['id']}/resign", key="00000000-0000-4000-8000-000000000001"
    )
    assert resigned.status_code == 201 and resigned.json()["table"]["winners"] == [1]
    assert alice.get(url).json()["winners"] == [1]
    assert bob.get(url).json()["winners"] == [1]  # public once the game is over
    assert alice.state(table["id"])["table"]["winners"] == [1]
    mine = {t["id"]: t for t in alice.get("/tables", mine="true").json()["tables"]}
    assert mine[table["id"]]["winners"] == [1] and mine[open_one["id"]]["winners"] is None
    assert mine[table["id"]]["seats"][1]["name"] == "Clever bot 2"
