"""Records of games started from a position verify forever: one full export per game
(``manage.py export_game``, exported by the code of its time, bots playing from a
position to the end) is kept in tests/games/records/ as ``<game>-rules<N>[-<content>]-
position.json`` and verifies offline (no database): its first event records the position
and the seed hash, and the rest re-derives from there."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from games.registry import game_names, get_game
from games.verify import verify_record

RECORDS = Path(__file__).resolve().parents[1] / "games" / "records"
POSITIONED = sorted(RECORDS.glob("*-position.json"))


def test_every_game_has_a_positioned_record() -> None:
    games = {json.loads(path.read_text())["game"] for path in POSITIONED}
    assert games == set(game_names())


def holds(document: Any, recorded: Any) -> bool:
    """Whether ``document`` says all that ``recorded`` says (objects may have more keys)."""
    if isinstance(recorded, dict):
        return isinstance(document, dict) and all(
            k in document and holds(document[k], v) for k, v in recorded.items()
        )
    return bool(document == recorded)


@pytest.mark.parametrize("path", POSITIONED, ids=lambda p: p.stem)
def test_a_positioned_record_verifies_offline(path: Path) -> None:
    record = json.loads(path.read_text())
    report = verify_record(record)
    assert report.ok, report.problems
    started = record["events"][0]["payload"]
    definition = get_game(record["game"])
    seats = len(started["names"])
    # validated today, the recorded position keeps every field it said; fields the state
    # gained since (a later rules version's) come at their defaults, and it is a fixed point
    validated = definition.validate_position(started["position"], seats)
    assert holds(validated, started["position"])
    assert definition.validate_position(validated, seats) == validated
    assert report.commands_checked > 0 and record["table"]["status"] == "finished"


@pytest.mark.parametrize("path", POSITIONED, ids=lambda p: p.stem)
def test_a_positioned_record_whose_position_was_changed_fails(path: Path) -> None:
    """The position is in the hashed payload: change a card of it and the chain breaks;
    recompute nothing and the verifier names the first event."""
    record = copy.deepcopy(json.loads(path.read_text()))
    position = record["events"][0]["payload"]["position"]
    keys = ("deck", "discard", "job_deck", "prizes_left")
    key = next(k for k in keys if len(position.get(k) or ()) >= 2)
    position[key] = list(reversed(position[key]))
    report = verify_record(record)
    assert not report.ok and report.problems[0].startswith("seq 1:"), report.problems
