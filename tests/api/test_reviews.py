"""Reviews over HTTP: annotations on positions and tournament directors' rulings. Who may
write and read them, bad input refused with a code (and nothing recorded), append-only
records (no route edits one, the database refuses UPDATE and DELETE), the export carries
them, and a decided result is the game's result in the API."""

from __future__ import annotations

import uuid

import pytest
from django.db import DatabaseError, connection, transaction

from games.models import Annotation, Ruling
from games.verify import verify_record
from tests.api.helpers import create_table, seat_all, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, carol) -> str:
    """A three-seat game, running: alice discarded a card."""
    table = create_table(alice, seats=3)
    seat_all(table["id"], bob, carol)
    start(alice, table["id"])
    card = alice.state(table["id"])["state"]["players"][0]["hand"][0]["id"]
    alice.command(table["id"], {"type": "play", "card": card, "discard": True})
    return table["id"]


def finish(game: str, *players) -> None:
    for player in players:
        response = player.post(f"/games/{game}/resign", key=str(uuid.uuid4()))
        assert response.status_code == 201, response.content


def annotate(player, game: str, **body):
    return player.post(f"/games/{game}/annotations", body)


def rule(player, game: str, **body):
    return player.post(f"/games/{game}/rulings", body)


def code(response) -> str:
    return response.json()["code"]


# --- annotations ------------------------------------------------------------------------------


def test_staff_annotate_at_any_time_players_after_the_end_and_nobody_else(
    alice, bob, carol, mallory, staff, game
) -> None:
    # while the game runs: staff only, and only staff read them
    created = annotate(staff, game, seq=3, text="  The deal.  ")
    assert created.status_code == 201, created.content
    note = created.json()
    assert note["seq"] == 3 and note["text"] == "The deal."  # trimmed
    assert note["author"] == {"id": staff.user.pk, "name": "staff"} and note["role"] == "staff"
    assert note["created_at"]
    for player in (alice, mallory):
        response = annotate(player, game, seq=3, text="mine")
        assert (response.status_code, code(response)) == (403, "annotation_not_allowed")
        response = player.get(f"/games/{game}/annotations")
        assert (response.status_code, code(response)) == (403, "annotation_not_allowed")
    assert staff.get(f"/games/{game}/annotations").json()["annotations"] == [note]

    # once it is over: the players annotate; everyone reads; a spectator still may not write
    finish(game, alice, carol)
    response = annotate(bob, game, seq=1, text="Good opening.")
    assert response.status_code == 201 and response.json()["role"] == "player"
    response = annotate(mallory, game, seq=1, text="a spectator")
    assert (response.status_code, code(response)) == (403, "annotation_not_allowed")
    listed = mallory.get(f"/games/{game}/annotations").json()
    assert listed["game_id"] == game
    assert [(a["seq"], a["text"]) for a in listed["annotations"]] == [
        (1, "Good opening."),
        (3, "The deal."),
    ]  # in position order
    assert Annotation.objects.count() == 2


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"seq": 2}, 400, "invalid"),  # no text
        ({"text": "x"}, 400, "invalid"),  # no position
        ({"seq": 2, "text": ""}, 400, "invalid"),
        ({"seq": 2, "text": "   "}, 400, "invalid"),
        ({"seq": 2, "text": "x" * 2001}, 400, "invalid"),
        ({"seq": 2, "text": 7}, 400, "invalid"),
        ({"seq": "2", "text": "x"}, 400, "invalid"),
        ({"seq": 0, "text": "x"}, 400, "invalid"),
        ({"seq": 2, "text": "x", "author": 1}, 400, "invalid"),  # unknown field
        ({"seq": 2, "text": "nul \x00 inside"}, 400, "invalid"),
        ({"seq": 10_000, "text": "x"}, 422, "position_out_of_range"),
        ({"seq": 2**40, "text": "x"}, 400, "invalid"),
    ],
)
def test_bad_annotations_are_refused_with_a_code_and_nothing_recorded(
    staff, game, body, status, error
) -> None:
    response = annotate(staff, game, **body)
    assert (response.status_code, code(response)) == (status, error), response.content
    assert Annotation.objects.count() == 0


def test_a_table_not_started_or_unknown_has_no_reviews(alice, staff) -> None:
    table = create_table(alice, seats=2)["id"]
    bodies = {"annotations": {"seq": 1, "text": "x"}, "rulings": {"kind": "note", "reason": "x"}}
    for path, body in bodies.items():
        response = staff.post(f"/games/{table}/{path}", body)
        assert (response.status_code, code(response)) == (409, "not_started")
        response = staff.get(f"/games/{table}/{path}")
        assert (response.status_code, code(response)) == (409, "not_started")
        response = staff.get(f"/games/{uuid.uuid4()}/{path}")
        assert (response.status_code, code(response)) == (404, "game_not_found")


def test_reviews_are_append_only(staff, game) -> None:
    annotate(staff, game, seq=2, text="first")
    rule(staff, game, kind="note", reason="Slow play warning for alice.")
    # no route edits or deletes one
    for path in ("annotations", "rulings"):
        for method in (staff.client.put, staff.client.patch, staff.client.delete):
            response = method(f"/api/v1/games/{game}/{path}", {}, format="json")
            assert (response.status_code, code(response)) == (405, "method_not_allowed")
    # and the database refuses to change one behind the API's back
    for table in ("games_annotation", "games_ruling"):
        for sql in (f"UPDATE {table} SET seq = 1", f"DELETE FROM {table}"):  # noqa: S608
            with (
                pytest.raises(DatabaseError, match="append-only"),
                transaction.atomic(),
                connection.cursor() as cursor,
            ):
                cursor.execute(sql)
    assert Annotation.objects.get().text == "first"
    assert Ruling.objects.get().reason == "Slow play warning for alice."


# --- rulings ----------------------------------------------------------------------------------


def test_only_staff_rule_and_everyone_who_sees_the_game_reads_rulings(
    alice, mallory, staff, game
) -> None:
    for player in (alice, mallory):
        response = rule(player, game, kind="note", reason="I rule!")
        assert (response.status_code, code(response)) == (403, "ruling_not_allowed")
    response = rule(staff, game, kind="note", reason="Slow play warning for alice.", seq=2)
    assert response.status_code == 201, response.content
    ruling = response.json()
    assert ruling["kind"] == "note" and ruling["winners"] == [] and ruling["seq"] == 2
    assert ruling["author"]["name"] == "staff" and ruling["version"] >= 7
    for player in (alice, mallory):
        assert player.get(f"/games/{game}/rulings").json()["rulings"] == [ruling]
    # a note decides nothing
    table = alice.state(game)["table"]
    assert table["status"] == "started" and table["result"] is None


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"kind": "award", "reason": "x"}, 422, "bad_winners"),  # nobody named
        ({"kind": "award", "reason": "x", "winners": [3]}, 422, "bad_winners"),  # 3 seats
        ({"kind": "award", "reason": "x", "winners": [1, 1]}, 422, "bad_winners"),
        ({"kind": "void", "reason": "x", "winners": [1]}, 422, "bad_winners"),
        ({"kind": "note", "reason": "x", "winners": [0]}, 422, "bad_winners"),
        ({"kind": "award", "reason": "x", "winners": [9]}, 400, "invalid"),
        ({"kind": "award", "reason": "x", "winners": "1"}, 400, "invalid"),
        ({"kind": "forfeit", "reason": "x"}, 400, "invalid"),
        ({"kind": "void"}, 400, "invalid"),  # no reason
        ({"kind": "void", "reason": ""}, 400, "invalid"),
        ({"kind": "void", "reason": "x" * 2001}, 400, "invalid"),
        ({"kind": "note", "reason": "x", "seq": 10_000}, 422, "position_out_of_range"),
    ],
)
def test_bad_rulings_are_refused_with_a_code_and_nothing_recorded(
    alice, carol, staff, game, body, status, error
) -> None:
    finish(game, alice, carol)
    response = rule(staff, game, **body)
    assert (response.status_code, code(response)) == (status, error), response.content
    assert Ruling.objects.count() == 0


def test_a_result_is_decided_only_for_a_game_that_is_over(alice, staff, game) -> None:
    for body in ({"kind": "void", "reason": "x"}, {"kind": "award", "reason": "x", "winners": [1]}):
        response = rule(staff, game, **body)
        assert (response.status_code, code(response)) == (409, "game_not_over")
    assert Ruling.objects.count() == 0


def test_a_decided_result_is_the_games_result_and_the_log_is_untouched(
    alice, bob, carol, staff, game
) -> None:
    finish(game, alice, carol)  # bob wins by play
    before = staff.get(f"/games/{game}/audit").json()["events"]
    table = bob.state(game)["table"]
    assert table["winners"] == [1]
    assert table["result"] == {"decided_by": "play", "ruling": None, "kind": "play"}

    # the director awards the win to carol (say, alice's resignation was a misclick)...
    award = rule(staff, game, kind="award", winners=[2], reason="Misclick; replayed offline.")
    assert award.status_code == 201, award.content
    for document in (
        bob.state(game)["table"],
        bob.get(f"/tables/{game}").json(),
        next(t for t in bob.get("/tables", mine="true").json()["tables"] if t["id"] == game),
    ):
        assert document["status"] == "finished" and document["winners"] == [2]
        assert document["result"] == {
            "decided_by": "ruling",
            "ruling": award.json()["id"],
            "kind": "award",
        }
    # ... then voids the game: the latest deciding ruling counts
    void = rule(staff, game, kind="void", reason="Both results disputed; void.")
    assert bob.get(f"/tables/{game}").json()["winners"] == []
    assert bob.get(f"/tables/{game}").json()["result"]["kind"] == "void"
    # a later note changes nothing
    rule(staff, game, kind="note", reason="Players informed.")
    assert bob.get(f"/tables/{game}").json()["result"]["ruling"] == void.json()["id"]

    # the game's own record is untouched: same events, the engine's winner still in it
    assert staff.get(f"/games/{game}/audit").json()["events"] == before
    assert bob.state(game)["state"]["winners"] == [1]
    assert [r["kind"] for r in bob.get(f"/games/{game}/rulings").json()["rulings"]] == [
        "award",
        "void",
        "note",
    ]


def test_the_export_carries_annotations_and_rulings_and_still_verifies(
    alice, bob, carol, staff, game
) -> None:
    finish(game, alice, carol)
    annotate(bob, game, seq=2, text="Here it went wrong.")
    rule(staff, game, kind="void", reason="Collusion between alice and carol.")
    record = bob.get(f"/games/{game}/export").json()
    assert [(a["seq"], a["text"], a["author"]["name"]) for a in record["annotations"]] == [
        (2, "Here it went wrong.", "bob")
    ]
    assert [(r["kind"], r["reason"]) for r in record["rulings"]] == [
        ("void", "Collusion between alice and carol.")
    ]
    assert verify_record(record).ok


def test_appending_reviews_is_rate_limited_like_commands_but_reading_is_not(
    settings, staff, game
) -> None:
    settings.FB_COMMAND_RATE = "2/min"
    for _ in range(2):
        assert annotate(staff, game, seq=1, text="again").status_code == 201
    limited = rule(staff, game, kind="note", reason="one more")
    assert (limited.status_code, code(limited)) == (429, "rate_limited")
    assert Ruling.objects.count() == 0 and Annotation.objects.count() == 2
    for _ in range(3):
        assert staff.get(f"/games/{game}/annotations").status_code == 200
