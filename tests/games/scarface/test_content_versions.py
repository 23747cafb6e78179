"""Content versions (issue 33): the specification's stand-in data (``scarface/standin-0``)
and the data tuned for balance (``scarface/standin-1``), both kept, chosen by the content
version a game's ``GameStarted`` recorded; new tables get standin-1."""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from pathlib import Path

import pytest

from games.core import RuleViolation
from games.scarface.content import (
    CONTENT_VERSION,
    CONTENT_VERSIONS,
    CONTENTS,
    STANDIN,
    STANDIN_0,
    STANDIN_1,
    TUNED,
    TUNED_SLOT_CRIME,
    TUNED_TILES,
)
from games.scarface.evolve import content_of
from games.scarface.game import GAME
from games.scarface.setup import setup_events, validate_options
from games.scarface.view import view
from games.verify import verify_record

from .builders import at_actions, dealt, send, with_changes

RECORDS = Path(__file__).resolve().parents[1] / "records"
# sha256 of repr(STANDIN) as standin-0 was first played (2a1c0d8): any change to its
# tables changes this, and standin-0's records would re-decide differently
STANDIN_0_DIGEST = "c989e92b92f68a20cdc1a8ceeed48a47bf84666be2ba8195c4440657fbbc6c1d"


def test_both_versions_are_kept_and_new_tables_get_standin_1() -> None:
    assert CONTENT_VERSIONS == (STANDIN_0, STANDIN_1) == tuple(CONTENTS)
    assert CONTENT_VERSION == STANDIN_1 == GAME.content_version
    assert GAME.content_versions == CONTENT_VERSIONS
    assert validate_options({}, 3, sandbox=False)["content_version"] == STANDIN_1
    events = setup_events(["A", "B"], {}, "new-table")
    assert events[0].content_version == STANDIN_1
    state = dealt(2, content_version=STANDIN_1)
    assert state.content_version == STANDIN_1 and content_of(state) is TUNED


def test_standin_0_is_unchanged() -> None:
    assert hashlib.sha256(repr(STANDIN).encode()).hexdigest() == STANDIN_0_DIGEST
    assert STANDIN.id == STANDIN_0 and CONTENTS[STANDIN_0] is STANDIN
    # spot checks against shared/rules/scarface.md SSD-2, SSD-4, SSD-6
    assert STANDIN.boss_skills["outfit"] == ("money2", "add_business", "muscle1", "crime_down1")
    assert (STANDIN.tiles["n09"].district, STANDIN.tiles["n16"].district) == ("D3", "D6")
    assert STANDIN.tiles["n06"].defence == 4 and STANDIN.tiles["n18"].money == 10
    assert [s.crime for s in STANDIN.slots["lawyer"]] == [1, 1, 1]


def test_standin_1_differs_from_standin_0_only_where_documented() -> None:
    differing = {
        f.name for f in fields(TUNED) if getattr(TUNED, f.name) != getattr(STANDIN, f.name)
    }
    assert differing == {"id", "tiles", "boss_skills", "slots"}
    changed = {t for t in STANDIN.tiles if TUNED.tiles[t] != STANDIN.tiles[t]}
    assert changed == set(TUNED_TILES)
    for t, change in TUNED_TILES.items():
        for key, value in change.items():
            assert getattr(TUNED.tiles[t], key) == value != getattr(STANDIN.tiles[t], key)
        assert TUNED.tiles[t].name == STANDIN.tiles[t].name  # names and ids are shared
    assert {g for g in STANDIN.boss_skills if TUNED.boss_skills[g] != STANDIN.boss_skills[g]} == {
        "outfit"
    }
    assert TUNED.boss_skills["outfit"] == ("influence1", "add_business", "muscle1", "crime_down1")
    for column, row in TUNED.slots.items():
        assert [s.crime for s in row] == list(TUNED_SLOT_CRIME[column])
        assert [(s.muscle, s.influence, s.money) for s in row] == [
            (s.muscle, s.influence, s.money) for s in STANDIN.slots[column]
        ]
    # every home district holds at least three tiles; D2 and D5 four
    homes = {TUNED.tiles[t].district for t in TUNED.homes.values()}
    per_district = {d: sum(c.district == d for c in TUNED.tiles.values()) for d in homes}
    assert per_district == {"D2": 4, "D4": 2, "D5": 4, "D7": 2}


@pytest.mark.parametrize(("content", "money"), [(STANDIN_0, 10), (STANDIN_1, 9)])
def test_the_rules_read_the_games_own_tables(content: str, money: int) -> None:
    """The Levee sells for $10 in standin-0, $9 in standin-1 (the sale of test_rules)."""
    state = at_actions(dealt(2, gangs=["outfit", "gems"], content_version=content), 0,
                       influence=2)  # fmt: skip
    state = with_changes(state, police=("D1", "D7"))
    state, _ = send(state, 0, {"type": "order", "order": "sell",
                               "sales": [{"tile": "n18", "pay": [{"from": "n18", "good": "alcohol", "n": 1}]}]})  # fmt: skip
    assert state.players[0].money == 10 + money - 2
    assert state.content_version == content  # a game keeps its content version
    lakeview = next(t for t in view(state, "spectator")["tiles"] if t["id"] == "n09")
    assert lakeview["district"] == ("D3" if content == STANDIN_0 else "D2")


def test_content_is_a_table_option() -> None:
    assert (
        validate_options({"content_version": STANDIN_0}, 3, sandbox=False)["content_version"]
        == STANDIN_0
    )
    with pytest.raises(RuleViolation) as info:
        validate_options({"content_version": "scarface/standin-9"}, 3, sandbox=False)
    assert info.value.code == "bad_options" and info.value.data["field"] == "content_version"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("scarface-rules1-standin-0-position.json", STANDIN_0),
        ("scarface-rules2-standin-0-bots.json", STANDIN_0),
        ("scarface-rules2-standin-1-bots.json", STANDIN_1),
    ],
)
def test_records_reverify_with_their_own_content(name: str, content: str) -> None:
    record = json.loads((RECORDS / name).read_text())
    report = verify_record(record)
    assert report.ok, report.problems
    assert report.content_version == content
