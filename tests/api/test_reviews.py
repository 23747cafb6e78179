"""Reviews over HTTP: annotations on positions and tournament directors' rulings. Who may
write and read them, bad input refused with a code (and nothing recorded), append-only
records (no route edits one, the database refuses UPDATE and DELETE), the export carries
them, and a decided result is the game's result in the API."""

from __future__ import annotations

import uuid

import pytest
from django.db import DatabaseError, connection, transaction

from events.store import ConcurrencyConflict, NewEvent, append
from games import cache, selectors, service
from games.models import Annotation, GameClock, Ruling, Table
from games.tasks import sweep_once
from games.verify import verify_record
from tests.api.helpers import (
    create_table,
    event_count,
    play_contract,
    started_game,
    undoable_game,
)

FI = "FAMILY_INFLUENCE"

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, carol) -> str:
    """A three-seat game, running: alice discarded a card."""
    return started_game(alice, bob, carol, discard=True)


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


def test_only_staff_rule_and_read_rulings_during_play_everyone_once_it_is_over(
    alice, bob, carol, mallory, staff, game
) -> None:
    for player in (alice, mallory):
        response = rule(player, game, kind="note", reason="I rule!")
        assert (response.status_code, code(response)) == (403, "ruling_not_allowed")
    response = rule(staff, game, kind="note", reason="alice holds a HIT; warned.", seq=2)
    assert response.status_code == 201, response.content
    ruling = response.json()
    assert ruling["kind"] == "note" and ruling["winners"] == [] and ruling["seq"] == 2
    assert ruling["author"]["name"] == "staff" and ruling["version"] >= 7
    # during play a note may discuss hidden cards: staff only
    assert staff.get(f"/games/{game}/rulings").json()["rulings"] == [ruling]
    for player in (alice, bob, mallory):
        response = player.get(f"/games/{game}/rulings")
        assert (response.status_code, code(response)) == (403, "ruling_not_allowed")
    assert staff.get(f"/games/{game}/export").json()["rulings"] == [ruling]
    # a note decides nothing
    table = alice.state(game)["table"]
    assert table["status"] == "started" and table["result"] is None

    finish(game, alice, carol)  # once it is over everyone who sees the game reads them
    for player in (alice, bob, mallory):
        assert player.get(f"/games/{game}/rulings").json()["rulings"] == [ruling]
    assert bob.get(f"/games/{game}/export").json()["rulings"] == [ruling]


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


def refused_as_ruled(response, ruling: int) -> None:
    assert (response.status_code, code(response)) == (409, "game_over"), response.content
    body = response.json()
    assert "ruling" in body["message"] and body["extra"]["ruling"] == ruling
    assert body["extra"]["decided_by"] == "ruling"


def test_an_award_ends_a_running_game_and_nothing_is_played_after_it(
    alice, bob, carol, mallory, staff, game
) -> None:
    before = staff.get(f"/games/{game}/audit").json()
    assert bob.state(game)["table"]["status"] == "started"  # bob's turn

    award = rule(staff, game, kind="award", winners=[2], reason="bob left; carol led.")
    assert award.status_code == 201, award.content
    ruling = award.json()
    assert ruling["version"] == before["version"]

    # the projections that follow: the table finished, the clock waits for nothing
    table = Table.objects.get(id=game)
    assert table.status == Table.Status.FINISHED
    clock = GameClock.objects.get(game_id=game)
    assert (clock.window_id, clock.window_deadline_ms, clock.turn_key) == ("", None, "")
    assert (clock.turn_deadline_ms, clock.bot_due_ms, clock.claimed_until_ms) == (None,) * 3

    # every later command, undo and standing change: 409, nothing appended
    state = bob.state(game)["state"]
    card = state["players"][1]["hand"][0]["id"]
    refused_as_ruled(
        bob.command(game, {"type": "play", "card": card, "discard": True}), ruling["id"]
    )
    refused_as_ruled(bob.post(f"/games/{game}/resign", key=str(uuid.uuid4())), ruling["id"])
    refused_as_ruled(alice.post(f"/games/{game}/undo", key=str(uuid.uuid4())), ruling["id"])
    changed = alice.client.patch(
        f"/api/v1/games/{game}/standing", data={"auto_pass": False}, format="json"
    )
    refused_as_ruled(changed, ruling["id"])
    after = staff.get(f"/games/{game}/audit").json()
    hashes = [(e["seq"], e["hash"]) for e in before["events"]]
    assert [(e["seq"], e["hash"]) for e in after["events"]] == hashes  # (now revealed)
    assert after["version"] == before["version"] == event_count(game)
    assert [c["outcome"] for c in after["commands"][len(before["commands"]) :]] == [
        "refused"
    ] * 3  # the two commands and the undo, each logged as refused

    # players and spectators see the decided result, every hand, nothing to play
    for viewer in (alice, bob, mallory):
        doc = viewer.state(game)
        assert doc["table"]["status"] == "finished" and doc["table"]["winners"] == [2]
        assert doc["table"]["result"] == {
            "decided_by": "ruling",
            "ruling": ruling["id"],
            "kind": "award",
        }
        assert doc["state"]["over"] is True and doc["state"]["revealed"] is True
        assert doc["state"]["winners"] == [2] and doc["state"]["legal"] == []
        assert all(p["hand"] is not None for p in doc["state"]["players"])  # revealed
        assert doc["undo_available"] is False and doc["turn_deadline"] is None
        assert doc["window_remaining_ms"] is None
        assert viewer.get(f"/tables/{game}").json()["result"]["ruling"] == ruling["id"]
        assert viewer.get(f"/games/{game}/rulings").json()["rulings"] == [ruling]
    listed = bob.get("/tables", mine="true").json()["tables"]
    assert next(t for t in listed if t["id"] == game)["winners"] == [2]
    assert bob.get(f"/games/{game}/export").json()["rulings"] == [ruling]
    # the long-poll says the game is over, without events
    page = bob.get(f"/games/{game}/events", after=before["version"]).json()
    assert (page["events"], page["finished"], page["revealed"]) == ([], True, True)


def test_a_void_ends_a_running_game_in_a_reaction_window(alice, bob, carol, staff) -> None:
    game = undoable_game(staff, [alice, bob, carol], [["CONTRACT"], [FI], []])
    assert play_contract(alice, game, 0).status_code == 201
    doc = bob.state(game)
    assert doc["state"]["window"] is not None and doc["window_remaining_ms"] > 0
    version = doc["version"]

    void = rule(staff, game, kind="void", reason="Dispute over the deal; replayed.", seq=2)
    assert void.status_code == 201, void.content
    ruling = void.json()["id"]

    passed = bob.command(game, {"type": "pass", "window": doc["state"]["window"]["id"]})
    refused_as_ruled(passed, ruling)
    refused_as_ruled(alice.post(f"/games/{game}/undo", key=str(uuid.uuid4())), ruling)
    assert event_count(game) == version
    assert GameClock.objects.get(game_id=game).window_deadline_ms is None
    doc = carol.state(game)
    assert doc["table"]["winners"] == [] and doc["table"]["result"]["kind"] == "void"
    assert doc["state"]["over"] is True and doc["state"]["window"] is None
    assert doc["window_remaining_ms"] is None and doc["state"]["winners"] == []
    # the timers find nothing to do past the window's deadline: its close, a reader, the
    # sweeper (tests/timers/test_ruled.py: with a real worker)
    loaded = service.game_load(game_id=uuid.UUID(game))
    window = loaded.definition.status(loaded.state).window
    assert window is not None  # the engine's state still has it: play just stopped there
    late = window.deadline + 60_000
    closed = service.close_window(
        game_id=uuid.UUID(game), window_id=window.id, deadline=window.deadline, now=late
    )
    assert closed is None
    assert service.game_read(game_id=uuid.UUID(game), now=late).version == version
    assert sweep_once(now=late) == {
        "windows": 0,
        "turns": 0,
        "standing": 0,
        "bots": 0,
        "takebacks": 0,
    }
    assert event_count(game) == version


def test_a_process_that_cached_the_table_running_is_refused_by_the_database(
    alice, bob, carol, staff, game
) -> None:
    """Another web process still holds the table as started (its cache): its command is
    decided, the append refused by the database (the ruling is there), and the retry
    finds the table finished and answers game_over. Nothing is appended."""
    stale = selectors.table_detail(uuid.UUID(game))
    version = event_count(game)
    ruling = rule(staff, game, kind="void", reason="x").json()["id"]
    cache.tables.put(stale.id, stale)  # as another process still has it
    card = bob.state(game)["state"]["players"][1]["hand"][0]["id"]
    cache.tables.put(stale.id, stale)  # (the read above re-checked it)
    refused_as_ruled(bob.command(game, {"type": "play", "card": card, "discard": True}), ruling)
    assert event_count(game) == version
    # and the store itself refuses an append behind the service's back
    with pytest.raises(ConcurrencyConflict):
        append(
            stream_id=uuid.UUID(game),
            expected_version=version,
            events=[NewEvent("family_business.Nothing", {})],
            actor="system",
        )
    assert event_count(game) == version


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
