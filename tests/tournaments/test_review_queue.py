"""The review desk's queue (docs/tournaments.md, "The review desk"): a player flags a
game of theirs with a reason (refusals with codes, nothing appended); the directors'
queue lists it beside what the records say (moves the turn clock played, a seat it put
out, a ruling not yet in the standings); a director closes a flag with a note, a deciding
ruling closes its game's flags; every step is in the log and the bundle still verifies."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games import reviews
from games.models import Table
from tests.api.test_absence import time_out
from tests.tournaments.test_api import create, log_length
from tournaments import services
from tournaments.verify import verify_bundle

pytestmark = pytest.mark.django_db


def kinds(item: dict[str, Any]) -> list[str]:
    return [w["kind"] for w in item["why"]]


def test_flags_and_the_clocks_marks_fill_the_queue_until_a_director_or_a_ruling_answers(
    staff, alice, bob, carol
) -> None:
    tid = create(
        staff,
        game="family_business",
        rounds=1,
        table_min=2,
        table_max=2,
        turn_seconds=30,
        abandon_after=3,
        auto=False,
    )["id"]
    for p in (alice, bob):
        assert p.post(f"/tournaments/{tid}/entries").status_code == 201
    assert staff.post(f"/tournaments/{tid}/rounds").status_code == 201
    seating = staff.get(f"/tournaments/{tid}").json()["rounds"][0]["tables"][0]
    table, first = seating["table"], seating["seats"][0]["name"]  # seat 0 times out first
    assert staff.get(f"/tournaments/{tid}/queue").json()["items"] == []

    # both away: the clock plays for them until it puts the first absent seat out
    while Table.objects.get(id=table).status == Table.Status.STARTED:
        time_out(table)

    before = log_length(tid)
    refusals = [
        (carol, {"table": table, "reason": "looked odd"}, 403, "flag_not_allowed"),
        (alice, {"table": str(uuid.uuid4()), "reason": "x"}, 404, "table_not_in_tournament"),
        (alice, {"table": table, "reason": ""}, 400, "invalid"),
        (alice, {"table": table, "reason": "x" * 501}, 400, "invalid"),
        (alice, {"table": table}, 400, "invalid"),
    ]
    for who, body, code_status, code in refusals:
        r = who.post(f"/tournaments/{tid}/flags", body)
        assert (r.status_code, r.json()["code"]) == (code_status, code), body
    assert log_length(tid) == before

    r = alice.post(f"/tournaments/{tid}/flags", {"table": table, "reason": "  my Wi-Fi died  "})
    assert r.status_code == 201, r.content
    flag = r.json()
    assert flag["status"] == "open" and flag["reason"] == "my Wi-Fi died"
    again = alice.post(f"/tournaments/{tid}/flags", {"table": table, "reason": "again"})
    assert (again.status_code, again.json()["code"]) == (409, "already_flagged")
    assert [f["flag"] for f in alice.get(f"/tournaments/{tid}/pairings").json()["flags"]] == [1]

    denied = alice.get(f"/tournaments/{tid}/queue")
    assert (denied.status_code, denied.json()["code"]) == (403, "not_director")
    (item,) = staff.get(f"/tournaments/{tid}/queue").json()["items"]
    assert (item["table"], item["round"], item["number"]) == (table, 1, 1)
    assert kinds(item) == ["flagged", "abandoned", "timeouts"]
    why = {w["kind"]: w for w in item["why"]}
    assert why["flagged"]["by"] == "alice" and why["flagged"]["reason"] == "my Wi-Fi died"
    assert why["abandoned"]["seats"] == [0] and why["abandoned"]["names"] == [first]
    assert why["timeouts"]["moves"] >= 5  # seat 0's three, two or more of seat 1's

    # a director reviews it: the flag closes with the note, and leaves the queue
    denied = bob.post(f"/tournaments/{tid}/flags/1/close", {"note": "fine"})
    assert (denied.status_code, denied.json()["code"]) == (403, "not_director")
    closed = staff.post(f"/tournaments/{tid}/flags/1/close", {"note": "No fault found."})
    assert closed.status_code == 200, closed.content
    assert (closed.json()["status"], closed.json()["closed_by"]) == ("closed", "director")
    for number, code_status, code in ((1, 409, "flag_closed"), (9, 404, "flag_not_found")):
        r = staff.post(f"/tournaments/{tid}/flags/{number}/close", {"note": "again"})
        assert (r.status_code, r.json()["code"]) == (code_status, code)
    (item,) = staff.get(f"/tournaments/{tid}/queue").json()["items"]
    assert kinds(item) == ["abandoned", "timeouts"]

    # bob flags it; a director voids the game: pending until the tournament takes the
    # ruling in, which closes bob's flag
    r = bob.post(f"/tournaments/{tid}/flags", {"table": table, "reason": "I was away"})
    assert r.status_code == 201, r.content
    reviews.ruling_record(
        table=Table.objects.get(id=table), user=staff.user, kind="void", reason="server trouble"
    )
    (item,) = staff.get(f"/tournaments/{tid}/queue").json()["items"]
    assert kinds(item)[:2] == ["flagged", "ruling_pending"]
    services.advance(tournament_id=tid)
    queue = staff.get(f"/tournaments/{tid}/queue").json()
    assert kinds(queue["items"][0]) == ["abandoned", "timeouts"]
    by = {f["flag"]: (f["closed_by"], f["ruling"]) for f in queue["flags"]}
    assert by[1] == ("director", None) and by[2][0] == "ruling" and by[2][1]

    doc = staff.get(f"/tournaments/{tid}").json()
    assert [e["kind"] for e in doc["log"]].count("flag_closed") == 2
    report = verify_bundle(staff.get(f"/tournaments/{tid}/export").json())
    assert report.ok, report.problems
