"""Records verify forever: every format ever exported is kept here as a fixture, exported by
the code of its time, and still verifies (offline, no database).

- ``records/family_business-format1.json``: ``fbservice.game-record/1``, exported before
  rulings were chained (a note during play, then an award and a note after the end, and a
  staff annotation). Its events are proven as ever; its rulings never were, and the
  verifier says so rather than vouching for them.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from games.verify import FORMATS, RECORD_FORMAT, main, summary, verify_record

RECORDS = Path(__file__).resolve().parent / "records"
FORMAT_1 = RECORDS / "family_business-format1.json"


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_every_format_ever_exported_is_known_and_has_a_fixture() -> None:
    assert set(FORMATS) == {"fbservice.game-record/1", "fbservice.game-record/2"}
    assert RECORD_FORMAT == "fbservice.game-record/2"  # its fixtures: tests/service (DB)
    assert load(FORMAT_1)["format"] == "fbservice.game-record/1"


def test_a_format_1_record_still_verifies_as_before() -> None:
    record = load(FORMAT_1)
    assert "covers" not in record and "hash" not in record["rulings"][0]
    report = verify_record(record)
    assert report.ok, report.problems
    assert (report.events_checked, report.commands_checked) == (33, 3)
    assert report.covers == ("events",) and report.rulings_checked == 0
    assert summary(report) == (
        "OK: 33 events, 3 commands re-derived from the seed (rules version 1); "
        "hash chain intact; "
        "rulings not covered (an older record format: export it again)"
    )
    assert main([str(FORMAT_1)]) == 0

    # its events are proven as they always were
    tampered = copy.deepcopy(record)
    tampered["events"][5]["payload"]["seat"] = 2
    assert not verify_record(tampered).ok


def test_a_format_1_records_rulings_are_outside_its_proof_and_it_says_so() -> None:
    record = load(FORMAT_1)
    forged = copy.deepcopy(record)
    forged["rulings"].append({**forged["rulings"][1], "id": 9, "winners": [0]})
    assert verify_record(forged).ok  # nothing in format 1 could tell...
    assert "rulings not covered" in summary(verify_record(forged))  # ...and it says so
    # it cannot be checked against a published head, nor passed off as format 2
    assert not verify_record(record, rulings_head="0" * 64).ok
    upgraded = {**copy.deepcopy(record), "format": RECORD_FORMAT}
    assert not verify_record(upgraded).ok
    upgraded["covers"] = ["events", "rulings"]
    report = verify_record(upgraded)
    assert not report.ok and report.problems[0].startswith("malformed record")
