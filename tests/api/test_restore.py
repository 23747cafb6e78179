"""Restoring records (``games.restore``, ``manage.py import_game``) on real PostgreSQL.

Every golden record in tests/games/records/ (each exported by the code of its time, any
game, any rules or content version) is imported, exported again through the API's export
endpoint as staff, and the export verifies (``games.verify``) with the same events and
commands as the original: the hash chain recomputed identically. A format-1 record comes
out as format 2, its rulings chained. A record that does not verify, or whose game is
already here, is refused with nothing written.
"""

from __future__ import annotations

import copy
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction
from rest_framework.test import APIClient

from events.chain import GENESIS, chain_hash
from events.models import CommandRecord, StoredEvent
from games.models import Annotation, Ruling, Table
from games.registry import get_game
from games.restore import RestoreRefused, recorded_options, restore_record
from games.verify import RECORD_FORMAT, record_event_body, verify_record
from tests.api.helpers import Player, started_game
from webhooks import relay

pytestmark = pytest.mark.django_db

RECORDS = Path(__file__).resolve().parents[1] / "games" / "records"
ALL_RECORDS = sorted(RECORDS.glob("*.json"))
DIRECTOR_ID = 90_001  # far from any id a record names

# what an event and a command are, in any record format
EVENT_KEYS: tuple[str, ...] = ("seq", "type", "schema_version", "payload", "actor")
EVENT_KEYS += ("command_id", "metadata", "recorded_at", "prev_hash", "hash")
COMMAND_KEYS: tuple[str, ...] = ("command_id", "actor", "seat", "command", "expected_version")
COMMAND_KEYS += ("now_ms", "outcome", "error_code", "first_seq", "last_seq", "recorded_at")


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def users_of(record: dict[str, Any]) -> None:
    """The record's people, as users of this server (same ids, same usernames)."""
    people = {s["user"]: s["name"] for s in record["seats"] if s["user"] is not None}
    for row in (record.get("rulings") or []) + (record.get("annotations") or []):
        people[row["author"]["id"]] = row["author"]["name"]
    users = get_user_model()
    for pk, name in people.items():
        users.objects.create(id=pk, username=name, is_staff=name == "staff")


def director() -> Player:
    user = get_user_model().objects.create(id=DIRECTOR_ID, username="director", is_staff=True)
    client = APIClient()
    client.force_authenticate(user=user)
    return Player(name="director", user=user, client=client)


def nothing_written(stream_id: str) -> bool:
    return not (
        Table.objects.filter(id=stream_id).exists()
        or StoredEvent.objects.filter(stream_id=stream_id).exists()
        or CommandRecord.objects.filter(stream_id=stream_id).exists()
    )


def shown(game: str, event: dict[str, Any]) -> dict[str, Any]:
    """An event's ``data`` as today's export shows it (a stream marker's is its payload)."""
    kind = event["type"].split(".", 1)[1]
    if event["type"].startswith("stream."):
        return {"type": kind, **event["payload"]}
    payload = get_game(game).upcast_event(kind, event["payload"], event["schema_version"])
    return {"type": kind, **payload}


@pytest.mark.parametrize("path", ALL_RECORDS, ids=[p.stem for p in ALL_RECORDS])
def test_every_golden_record_restores_and_exports_again_through_the_api(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = load(path)
    users_of(original)
    staff = director()

    call_command("import_game", str(path))
    assert f"imported game {original['stream_id']}" in capsys.readouterr().out

    response = staff.get(f"/games/{original['stream_id']}/export")
    assert response.status_code == 200, response.content
    export = response.json()
    report = verify_record(export)
    assert report.ok, report.problems
    assert export["format"] == RECORD_FORMAT  # a format-1 record comes out as format 2
    assert (export["game"], export["stream_id"], export["seed"]) == (
        original["game"],
        original["stream_id"],
        original["seed"],
    )
    assert export["reseeds"] == (original.get("reseeds") or [])  # an undo's fresh seeds
    # the same events, byte for byte where the proof looks, and the same command log
    # (an older record may lack a key a later export adds, such as an event's ``data``)
    assert len(export["events"]) == len(original["events"])
    for got, recorded in zip(export["events"], original["events"], strict=True):
        assert {k: got[k] for k in EVENT_KEYS if k in recorded} == {
            k: recorded[k] for k in EVENT_KEYS if k in recorded
        }
        assert {"seq", "payload", "recorded_at", "hash"} <= recorded.keys()
        # ``data`` (unhashed) is the API's shape, today's: the payload upcast from its schema
        assert got["data"] == shown(original["game"], recorded)
    assert len(export["commands"]) == len(original["commands"])
    for got, recorded in zip(export["commands"], original["commands"], strict=True):
        assert {k: got[k] for k in COMMAND_KEYS if k in recorded} == {
            k: recorded[k] for k in COMMAND_KEYS if k in recorded
        }
    # the table and seats as recorded
    for key in ("mode", "seats", "undo", "status", "created_at", "started_at"):
        assert export["table"][key] == original["table"][key], key
    assert export["table"]["options"] == recorded_options(original["table"])
    assert export["seats"] == original["seats"]
    # the reviews: the rulings now in their chain, the annotations as written
    ruled = ("id", "kind", "winners", "reason", "seq", "version", "author", "created_at")
    assert [{k: r[k] for k in ruled} for r in export["rulings"]] == [
        {k: r[k] for k in ruled} for r in original.get("rulings") or []
    ]
    for r in original.get("rulings") or []:
        if "hash" in r:  # format 2: the very links it recorded
            assert r in export["rulings"]
    written = ("seq", "text", "author", "role", "created_at")
    assert [{k: a[k] for k in written} for a in export["annotations"]] == [
        {k: a[k] for k in written} for a in original.get("annotations") or []
    ]


def test_the_format_1_record_s_rulings_are_chained_on_import() -> None:
    original = load(RECORDS / "family_business-format1.json")
    users_of(original)
    table = restore_record(original)
    assert Ruling.objects.filter(table=table).count() == len(original["rulings"]) == 3
    assert Annotation.objects.filter(table=table).count() == 1
    # a ruling recorded here afterwards draws a fresh id (the sequence moved past theirs)
    after = Ruling.objects.create(
        table=table,
        kind="note",
        reason="imported",
        version=1,
        author_id=original["rulings"][0]["author"]["id"],
    )
    assert after.id > max(r["id"] for r in original["rulings"])


def test_a_record_already_here_is_refused_and_nothing_more_is_written() -> None:
    path = RECORDS / "family_business-rules2-unforgiving-in-hit.json"
    restore_record(load(path))
    before = StoredEvent.objects.count(), CommandRecord.objects.count(), Table.objects.count()
    with pytest.raises(RestoreRefused) as refused:
        restore_record(load(path))
    assert refused.value.code == "stream_exists"
    assert (
        StoredEvent.objects.count(),
        CommandRecord.objects.count(),
        Table.objects.count(),
    ) == before
    with pytest.raises(CommandError, match="stream_exists"):
        call_command("import_game", str(path))


def test_a_record_that_does_not_verify_is_refused_with_nothing_written() -> None:
    record = load(RECORDS / "family_business-rules2-unforgiving-in-hit.json")
    tampered = copy.deepcopy(record)
    tampered["events"][40]["payload"]["seat"] = 1 - tampered["events"][40]["payload"].get("seat", 0)
    with pytest.raises(RestoreRefused) as refused:
        restore_record(tampered)
    assert refused.value.code == "record_does_not_verify"
    assert refused.value.message.startswith("event 41") or "41" in refused.value.message
    assert nothing_written(record["stream_id"])


def test_a_forged_record_whose_chain_was_recomputed_is_refused_by_the_engine() -> None:
    # another card in a play, every hash after it recomputed: the chain holds, but the
    # engine re-deciding the commands derives the recorded event, not the forged one
    record = load(RECORDS / "family_business-rules2-unforgiving-in-hit.json")
    forged = copy.deepcopy(record)
    at = next(i for i, e in enumerate(forged["events"]) if e["type"].endswith(".MobsterListed"))
    forged["events"][at]["payload"]["position"] += 1
    forged["events"][at]["data"]["position"] += 1
    prev = GENESIS
    for e in forged["events"]:
        e["prev_hash"], e["hash"] = (
            prev,
            chain_hash(prev, record_event_body(record["stream_id"], e)),
        )
        prev = e["hash"]
    with pytest.raises(RestoreRefused) as refused:
        restore_record(forged)
    assert refused.value.code == "record_does_not_verify"
    assert refused.value.message.startswith(f"seq {at + 1}: recorded ")
    assert nothing_written(record["stream_id"])


def test_a_record_naming_a_user_not_here_is_refused_with_nothing_written() -> None:
    record = load(RECORDS / "family_business-format1.json")  # people, not bots
    with pytest.raises(RestoreRefused) as refused:
        restore_record(record)
    assert refused.value.code == "unknown_user" and "alice" in refused.value.message
    assert nothing_written(record["stream_id"])
    # the rulings' author matched by id and username: another name at that id is not them
    users_of({**record, "rulings": [], "annotations": []})
    get_user_model().objects.create(id=4, username="somebody-else")
    with pytest.raises(RestoreRefused) as refused:
        restore_record(record)
    assert refused.value.code == "unknown_user" and "'staff'" in refused.value.message
    assert nothing_written(record["stream_id"])


def test_an_unfinished_or_malformed_record_is_refused() -> None:
    record = load(RECORDS / "family_business-rules2-unforgiving-in-hit.json")
    with pytest.raises(RestoreRefused) as refused:
        restore_record({**record, "table": {**record["table"], "status": "started"}})
    assert refused.value.code == "record_unfinished"
    for bad in ({}, {**record, "format": "x"}, {**record, "game": "chess"}, {**record, "seats": 3}):
        with pytest.raises(RestoreRefused) as refused:
            restore_record(bad)
        assert refused.value.code in {"bad_record", "record_does_not_verify"}
    assert nothing_written(record["stream_id"])


def test_import_game_says_what_is_wrong_with_a_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    with pytest.raises(CommandError, match="bad_record"):
        call_command("import_game", str(junk))


def test_the_documents_show_the_versions_a_game_is_played_under(alice, bob, carol) -> None:
    record = load(RECORDS / "family_business-rules1-war-at-game-end.json")
    restore_record(record)
    staff = director()
    game = record["stream_id"]
    old = {"rules_version": 1, "content_version": None}  # its first event's, not the newest
    assert staff.get(f"/games/{game}").json()["played_under"] == old
    assert staff.get(f"/games/{game}/replay", at=5).json()["played_under"] == old
    assert staff.get(f"/games/{game}/export").json()["table"]["played_under"] == old
    new = started_game(alice, bob, carol)
    assert alice.get(f"/games/{new}").json()["played_under"] == {
        "rules_version": 2,
        "content_version": None,
    }


def test_an_imported_game_sends_no_webhook_notices() -> None:
    # restored alone, the relay would take its whole history for news...
    path = RECORDS / "family_business-rules2-unforgiving-in-hit.json"
    record = load(path)
    with transaction.atomic():
        restore_record(record)
        assert uuid.UUID(record["stream_id"]) in relay.behind()
        transaction.set_rollback(True)
    # ...imported, it is history: nothing of it is behind the relay
    call_command("import_game", str(path))
    assert uuid.UUID(record["stream_id"]) not in relay.behind()
    assert relay.lag() == (0, None)
