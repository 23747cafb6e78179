"""Infamy's golden records (tests/games/records/infamy-*.json), each exported by the code of
its time (tests/games/records/make_infamy_records.py says how), verify offline with
today's code: re-decided by the rules version and content each recorded at its start."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.verify import verify_record

RECORDS = Path(__file__).resolve().parents[1] / "records"
INFAMY = sorted(RECORDS.glob("infamy-*.json"))


def load(name: str) -> dict[str, Any]:
    return json.loads((RECORDS / name).read_text())


def kinds(record: dict[str, Any]) -> list[str]:
    return [e["type"].split(".", 1)[1] for e in record["events"]]


def test_there_are_infamy_records_of_rules_1() -> None:
    names = {p.name for p in INFAMY}
    assert "infamy-rules1-standin-0-resign-high-bidder.json" in names
    assert "infamy-rules1-standin-0-bots.json" in names


@pytest.mark.parametrize("path", INFAMY, ids=lambda p: p.name)
def test_every_infamy_record_verifies_offline(path: Path) -> None:
    record = json.loads(path.read_text())
    started = record["events"][0]["payload"]
    rules, content = path.name.split("-")[1], "-".join(path.name.split("-")[2:4])
    assert f"rules{started['rules_version']}" == rules
    assert started["content_version"] == f"infamy/{content}"
    report = verify_record(record)
    assert report.ok, report.problems
    assert report.events_checked == len(record["events"])


def test_the_rules_1_resign_record_holds_the_case_rules_2_changes() -> None:
    """3.8.3: the high bidder (seat 3) resigns while seat 0, whose lower bid everyone else
    has passed since, is asked. Rules 1 kept the auction open and asked seat 0 again."""
    record = load("infamy-rules1-standin-0-resign-high-bidder.json")
    events = [(e["type"].split(".", 1)[1], e["payload"]) for e in record["events"]]
    at = next(i for i, (k, p) in enumerate(events) if k == "PlayerResigned" and p["seat"] == 3)
    before = [(k, p.get("seat"), p.get("total")) for k, p in events[:at] if k.startswith("Bid")]
    assert before == [("BidPlaced", 0, 1), ("BidPassed", 1, None), ("BidPassed", 2, None),
                      ("BidPlaced", 3, 2)]  # fmt: skip
    kind, payload = events[at + 1]
    assert kind != "ContactWon"  # rules 1: no settlement at the resignation...
    later = [k for k, _ in events[at + 1 :]]
    assert "ContactWon" not in later[: later.index("PlayerResigned")]  # ...seat 0 is asked


def test_the_rules_1_bot_record_holds_old_shapes_and_steps() -> None:
    """Event fields of schema 1 (``from_sector``, ``infamy``, ``from_seat``) and the step
    names of rules 1 (``discard``, ``scheme_discard``)."""
    record = load("infamy-rules1-standin-0-bots.json")
    seen = {(e["type"].split(".", 1)[1], e["schema_version"]) for e in record["events"]}
    assert {("WatchdogMoved", 1), ("HenchmenScored", 1), ("ResourceStolen", 1)} <= seen
    moved = next(e for e in record["events"] if e["type"].endswith(".WatchdogMoved"))
    assert "from_sector" in moved["payload"]
    steps = {e["payload"]["step"] for e in record["events"] if e["type"].endswith("StepStarted")}
    assert {"discard", "scheme_discard"} <= steps


def test_there_are_infamy_records_of_rules_2_in_each_content() -> None:
    names = {p.name for p in INFAMY}
    assert {"infamy-rules2-standin-1-resign-high-bidder.json", "infamy-rules2-standin-1-bots.json",
            "infamy-rules2-standin-0-bots.json"} <= names  # fmt: skip


def test_the_rules_2_resign_record_ends_the_auction_at_once() -> None:
    record = load("infamy-rules2-standin-1-resign-high-bidder.json")
    events = [(e["type"].split(".", 1)[1], e["payload"]) for e in record["events"]]
    at = next(i for i, (k, p) in enumerate(events) if k == "PlayerResigned" and p["seat"] == 3)
    kind, payload = events[at + 1]
    assert (kind, payload["seat"], payload["contact"]) == ("ContactWon", 0, "c02")  # 3.8.3
    assert {e["schema_version"] for e in record["events"]} == {2}


def test_the_rules_2_records_hold_resolved_schemes_and_3_3s_steps() -> None:
    for name in ("infamy-rules2-standin-1-bots.json", "infamy-rules2-standin-0-bots.json"):
        record = load(name)
        causes = {e["payload"]["cause"] for e in record["events"]
                  if e["type"].endswith(".SchemeDiscarded")}  # fmt: skip
        assert "resolved" in causes  # I-8.1: discarded once resolved
        steps = {e["payload"]["step"] for e in record["events"]
                 if e["type"].endswith(".StepStarted")}  # fmt: skip
        assert not steps & {"discard", "scheme_discard"}
