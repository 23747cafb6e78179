"""Event shapes are upcast, never rewritten: schema 2 (issue 28) names 3.3's fields
(``from``/``to``, ``i``); a stored schema-1 payload keeps its names and its hash, and every
read turns it into today's shape through Infamy's own pure upcaster."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from games.infamy import codec
from games.infamy.events import HenchmenScored, ResourceStolen, SchemeStolen, WatchdogMoved
from games.infamy.game import GAME
from games.verify import verify_record

GOLDEN = Path(__file__).resolve().parents[1] / "records" / "infamy-rules1-standin-0-bots.json"


def test_new_events_are_written_in_3_3s_names_as_schema_2() -> None:
    assert GAME.event_schema_version == codec.SCHEMA_VERSION == 2
    assert codec.encode_event(WatchdogMoved(3, 5, "I-4.4")) == {
        "type": "WatchdogMoved", "from": 3, "to": 5, "cause": "I-4.4"}  # fmt: skip
    assert codec.encode_event(ResourceStolen(1, 0, "data", "c13"))["from"] == 1
    assert codec.encode_event(SchemeStolen(2, 0, "h01"))["to"] == 0
    assert codec.encode_event(HenchmenScored(1, 2)) == {"type": "HenchmenScored", "seat": 1, "i": 2}
    for event in (WatchdogMoved(3, 5, "x"), SchemeStolen(2, 0, "h01"), HenchmenScored(1, 2)):
        assert codec.decode_event(codec.encode_event(event)) == event


@pytest.mark.parametrize(
    ("kind", "old", "new"),
    [
        ("WatchdogMoved", {"from_sector": 3, "to_sector": 5, "cause": "x"},
         {"from": 3, "to": 5, "cause": "x"}),
        ("ResourceStolen", {"from_seat": 1, "to_seat": 0, "what": "data", "cause": "c13"},
         {"from": 1, "to": 0, "what": "data", "cause": "c13"}),
        ("SchemeStolen", {"from_seat": 1, "to_seat": 0, "card": "h01"},
         {"from": 1, "to": 0, "card": "h01"}),
        ("HenchmenScored", {"seat": 1, "infamy": 2}, {"seat": 1, "i": 2}),
    ],
)  # fmt: skip
def test_schema_1_payloads_are_upcast(kind: str, old: dict, new: dict) -> None:
    stored = copy.deepcopy(old)
    assert GAME.upcast_event(kind, stored, 1) == new
    assert stored == old  # the stored payload is never touched
    assert GAME.upcast_event(kind, new, 2) == new  # today's shape: the identity


def test_unchanged_kinds_and_unknown_versions() -> None:
    payload = {"seat": 0, "contact": "c02", "total": 2, "expense": 1}
    assert GAME.upcast_event("BidPlaced", payload, 1) == payload
    with pytest.raises(ValueError, match="schema version 3"):
        GAME.upcast_event("BidPlaced", payload, 3)


def test_a_schema_1_record_verifies_by_its_hashed_payload_as_stored() -> None:
    record = json.loads(GOLDEN.read_text())
    old = [e for e in record["events"] if e["type"] == "infamy.WatchdogMoved"]
    assert old and all(e["schema_version"] == 1 and "from_sector" in e["payload"] for e in old)
    assert verify_record(record).ok
    # rewriting a stored payload into today's shape breaks its hash: shapes are upcast
    rewritten = copy.deepcopy(record)
    event = next(e for e in rewritten["events"] if e["type"] == "infamy.WatchdogMoved")
    event["payload"] = GAME.upcast_event("WatchdogMoved", event["payload"], 1)
    event["schema_version"] = 2
    event["data"] = {"type": "WatchdogMoved", **event["payload"]}
    assert "hash does not match" in verify_record(rewritten).problems[0]
    # and the comparison with re-derived events reads the upcast shape: a wrong sector fails
    wrong = copy.deepcopy(record)
    event = next(e for e in wrong["events"] if e["type"] == "infamy.WatchdogMoved")
    event["data"]["to_sector"] = 7
    assert "data does not match" in verify_record(wrong).problems[0]


def test_an_export_may_show_data_as_stored_or_upcast() -> None:
    record = json.loads(GOLDEN.read_text())
    for e in record["events"]:
        if e["type"].startswith("infamy."):
            kind = e["type"].split(".", 1)[1]
            e["data"] = {"type": kind, **GAME.upcast_event(kind, e["payload"], 1)}
    assert verify_record(record).ok


def test_replay_marks_count_henchmen_infamy_by_its_3_3_name() -> None:
    from games.core import Seen

    events = [
        Seen(1, {"type": "GameStarted", "names": ["A", "B", "C"]}),
        Seen(2, {"type": "RoundStarted", "round": 2, "turn": 1, "day": False}),
        Seen(3, {"type": "HenchmenScored", "seat": 1, "i": 2}),
        Seen(4, {"type": "DayNightFlipped", "day": True}),
    ]
    marks = GAME.review_marks(events)
    assert marks.moments[-1].label.endswith("Infamy A 0, B 2, C 0")
