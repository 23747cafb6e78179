"""A rules-1 Infamy record (schema-1 event shapes, exported by the code of its time) put
back in the event store as it was stored: the service folds it by its own rules version,
and every read (feed, export) shows its events in today's shape while the stored payload,
which the hash covers, stays as written."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from events.models import StoredEvent
from games.infamy.game import GAME
from games.restore import restore_record
from games.service import game_load
from games.verify import verify_record
from tests.api.helpers import Player

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "records"


def restore(name: str) -> tuple[uuid.UUID, dict[str, Any]]:
    """The record's table, seats and events in the store, byte for byte as exported
    (``games.restore``, as ``manage.py import_game`` does)."""
    record = json.loads((GOLDEN / name).read_text())
    return restore_record(record).id, record


def test_a_rules_1_record_replays_through_the_service_in_todays_shape(staff: Player) -> None:
    game_id, record = restore("infamy-rules1-standin-0-bots.json")
    loaded = game_load(game_id=game_id, use_snapshots=False)
    assert loaded.state.over and loaded.state.rules_version == 1
    assert list(loaded.state.winners) == record["events"][-1]["payload"]["winners"]

    feed = staff.get(f"/games/{game_id}/events", after=0, limit=1000).json()
    moved = [e for e in feed["events"] if e["type"] == "infamy.WatchdogMoved"]
    assert moved and moved[0]["schema_version"] == 1
    assert {"from", "to"} <= set(moved[0]["data"]) and "from_sector" not in moved[0]["data"]

    # a replay folds the stored events by their own rules version, upcast
    moved_at = moved[0]["seq"]
    replay = staff.get(f"/games/{game_id}/replay", at=moved_at).json()
    assert replay["at"] == moved_at and replay["state"]["rules_version"] == 1
    assert moved[0]["data"]["to"] in replay["state"]["watchdogs"]
    assert replay["state"]["content_version"] == "infamy/standin-0"
    assert replay["state"]["board"][5]["supply"] == "weapon"  # the erratum: tuned tables

    export = staff.get(f"/games/{game_id}/export").json()
    assert verify_record(export).ok
    event = next(e for e in export["events"] if e["type"] == "infamy.HenchmenScored")
    assert "infamy" in event["payload"] and "i" in event["data"]  # stored as written, shown upcast
    stored = StoredEvent.objects.get(stream_id=game_id, seq=event["seq"])
    assert stored.payload == event["payload"] and stored.schema_version == 1
    assert GAME.upcast_event("HenchmenScored", stored.payload, 1)["i"] == event["data"]["i"]
