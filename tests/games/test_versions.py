"""Versioned rules: every game declares the versions it still decides, Family Business's
rules decide by the version a game recorded at its start, and every golden export in
tests/games/records/ (each exported by the code of its time) still verifies offline.

The records of a rules version that hit a case the next version changed prove the gating
is not vacuous: re-decided with the other version's rules, they diverge exactly there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.family_business import (
    Counter,
    Kind,
    Options,
    PlayCard,
    RuleViolation,
    initial_state,
    setup_events,
)
from games.family_business import revisions as fb_revisions
from games.family_business.commands import Unforgiving
from games.family_business.events import CounterPlayed, MobWarEnded
from games.family_business.revisions import REVISIONS, RULES_VERSION, RULES_VERSIONS, revision
from games.family_business.state import GameState
from games.registry import GAMES
from games.verify import summary, verify_record
from tests.games.builders import MOB, card_of, make_state, of_type, play, play_kind, refused, types

RECORDS = Path(__file__).parent / "records"
ALL_RECORDS = sorted(RECORDS.glob("*.json"))
ROOT = Path(__file__).resolve().parents[2]

A, B, C = MOB[0], MOB[1], MOB[2]
LAM = "TAKE_IT_ON_THE_LAM"


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def v(state: GameState, version: int) -> GameState:
    """The same position in a game recorded under rules ``version``."""
    return replace(state, rules_version=version)


# --- every game declares its versions ----------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_declares_the_versions_it_decides_newest_last(name: str) -> None:
    game = GAMES[name]
    assert game.rules_versions, "a game decides at least its newest version"
    assert list(game.rules_versions) == sorted(set(game.rules_versions))  # oldest first
    assert game.rules_version == game.rules_versions[-1]
    if game.content_versions:
        assert len(set(game.content_versions)) == len(game.content_versions)
        assert game.content_version == game.content_versions[-1]
    else:
        assert game.content_version is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_new_game_is_played_under_the_newest_versions(name: str) -> None:
    game = GAMES[name]
    seats = ["Ann", "Bob", "Cy", "Di"][: max(game.min_players, 2)]
    options = game.validate_options({}, len(seats), sandbox=True)
    state = game.empty_state()
    for event in game.start(seats, options, "seed", "salt"):
        state = game.evolve(state, event)
    played = game.played_under(state)
    assert (played.rules, played.content) == (game.rules_version, game.content_version)


def test_family_business_is_at_rules_version_2_and_decides_1_too() -> None:
    assert RULES_VERSION == 2 and RULES_VERSIONS == (1, 2)
    assert GAMES["family_business"].rules_versions == (1, 2)
    # each version's flags name its own rules; version 2 turns on every autumn change
    assert all(r.version == n for n, r in REVISIONS.items())
    assert REVISIONS[2] == replace(
        REVISIONS[1],
        version=2,
        unforgiving_at_once=True,
        mob_power_names_only_choices=True,
        war_ends_before_game=True,
        turn_checked_before_window=True,
    )


def test_a_state_of_an_unknown_rules_version_is_not_decided() -> None:
    with pytest.raises(ValueError, match="rules version 9"):
        revision(v(make_state(2), 9))


# --- each change is decided by the state's version ----------------------------------------


@pytest.mark.parametrize(("version", "last"), [(1, "GameEnded"), (2, "GameEnded")])
def test_a_game_ending_with_a_war_on_an_empty_list_ends_it_first_only_from_version_2(
    version: int, last: str
) -> None:
    state = v(
        make_state(2, hands={0: ["TRUCE"]}, crews={1: 0}, hit_list=[B[0]], mob_war=1), version
    )
    state, events = play_kind(state, 0, "TRUCE", discard=True)
    assert types(events)[-1] == last and state.over
    if version == 1:
        assert not of_type(events, MobWarEnded) and state.mob_war == 1
        assert types(events)[-2:] == ["PlayerOut", "GameEnded"]
    else:
        assert types(events)[-3:] == ["PlayerOut", "MobWarEnded", "GameEnded"]
        assert state.mob_war == 0


def _no_choice_mob_power_window(version: int) -> GameState:
    hands = {0: ["CONTRACT", "CONTRACT"], 1: ["FAMILY_INFLUENCE", "MOB_POWER"], 2: [LAM]}
    state = v(make_state(3, hands=hands, crews={0: 0}, hit_list=[A[0], A[1]]), version)
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    assert state.window is not None
    return state


def test_mob_power_naming_a_mobster_when_the_attacker_has_none_in_front() -> None:
    # version 2: refused, the name is never silently dropped
    state = _no_choice_mob_power_window(2)
    named = Counter(state.window.id, card_of(state, 1, Kind.MOB_POWER), A[0])  # type: ignore[union-attr]
    err = refused(state, 1, named)
    assert err.code == "illegal_target" and err.data["choices"] == []
    # version 1: accepted as it was, naming nobody (like FAMILY INFLUENCE)
    state = _no_choice_mob_power_window(1)
    named = Counter(state.window.id, card_of(state, 1, Kind.MOB_POWER), A[0])  # type: ignore[union-attr]
    state, events = play(state, 1, named)
    assert [e.mobster for e in of_type(events, CounterPlayed)] == [None]
    assert A[0] in state.hit_list and B[0] not in state.hit_list


@pytest.mark.parametrize(("version", "code"), [(1, "window_open"), (2, "not_your_turn")])
def test_another_seat_playing_while_a_window_is_open(version: int, code: str) -> None:
    # Only the refusal's code differs (a refusal appends no event: not in a record's proof).
    hands = {0: ["CONTRACT", "CONTRACT"], 1: ["FAMILY_INFLUENCE", "MOB_POWER"], 2: [LAM]}
    state = v(make_state(3, hands=hands), version)
    state, _ = play_kind(state, 0, "CONTRACT", B[0])
    fi = card_of(state, 1, Kind.FAMILY_INFLUENCE)
    assert refused(state, 1, PlayCard(fi, discard=True)).code == code


def test_unforgiving_inside_a_hit_acts_at_once_only_from_version_2() -> None:
    def hit(version: int) -> tuple[GameState, tuple[Any, ...]]:
        state = make_state(
            3,
            hands={0: ["HIT", LAM], 1: [LAM], 2: [LAM]},
            hit_list=[C[1]],
            abilities={B[0]: "UNFORGIVING"},
        )
        return play_kind(v(state, version), 0, "HIT", B[0], own=A[0])

    state, events = hit(2)  # the decision interrupts the card
    assert types(events)[-2:] == ["MobsterEliminated", "DecisionOpened"]
    assert state.hit_list == (C[1],)
    state, events = hit(1)  # the card resolves whole: the HIT player's own is listed first
    assert "MobsterListed" in types(events)
    assert types(events).index("MobsterListed") < types(events).index("DecisionOpened")
    assert state.hit_list == (C[1], A[0])
    assert state.window is not None and state.window.then != f"hit:0:{A[0]}"
    state, _ = play(state, 1, Unforgiving(state.window.id, C[2]))
    assert state.hit_list == (C[1], A[0], C[2])


# --- golden exports: each verifies, and a changed case is in them --------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_records_hold_every_rules_and_content_version_of_each_game(name: str) -> None:
    game = GAMES[name]
    played = set()
    for path in ALL_RECORDS:
        record = load(path)
        if record["game"] == name:
            report = verify_record(record)
            played.add((report.rules_version, report.content_version))
    assert {rules for rules, _ in played} == set(game.rules_versions)
    if game.content_versions:
        assert {content for _, content in played} == set(game.content_versions)


@pytest.mark.parametrize("path", ALL_RECORDS, ids=[p.stem for p in ALL_RECORDS])
def test_every_golden_record_verifies_offline(path: Path) -> None:
    record = load(path)
    report = verify_record(record)
    assert report.ok, report.problems
    game = GAMES[record["game"]]
    assert report.rules_version in game.rules_versions
    if "-rules" in path.stem:  # <game>-rules<N>[-<content>]-<what>.json
        version = int(path.stem.split("-rules", 1)[1].split("-", 1)[0])
        assert report.rules_version == version
    assert f"(rules version {report.rules_version}" in summary(report)


@pytest.mark.parametrize("path", ALL_RECORDS, ids=[p.stem for p in ALL_RECORDS])
def test_every_golden_record_verifies_with_the_command_line_verifier(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: ")


# Where each Family Business record hits a case its version decides differently from the
# other: (the seq of the first divergence, the event the other version derives there).
CHANGED_CASES: dict[str, tuple[int, str, str]] = {
    # rules 1 record -> re-decided with version 2's rules
    "family_business-rules1-unforgiving-in-hit": (318, "DecisionOpened", "hit:"),
    "family_business-rules1-unforgiving-in-turncoat": (175, "DecisionOpened", "turncoat:"),
    "family_business-rules1-war-at-game-end": (181, "MobWarEnded", "hit_list_empty"),
    # rules 2 record -> re-decided with version 1's rules
    "family_business-rules2-unforgiving-in-hit": (81, "MobsterListed", "al-capone"),  # own first
}


@pytest.mark.parametrize("stem", sorted(CHANGED_CASES))
def test_a_record_re_decided_by_the_other_versions_rules_diverges_at_its_changed_case(
    stem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = load(RECORDS / f"{stem}.json")
    own = verify_record(record)
    assert own.ok, own.problems
    other = 2 if own.rules_version == 1 else 1
    # the record's own version decided by the other version's rules
    monkeypatch.setitem(fb_revisions.REVISIONS, own.rules_version, REVISIONS[other])
    report = verify_record(record)
    seq, derived, detail = CHANGED_CASES[stem]
    assert not report.ok
    assert report.problems[0].startswith(f"seq {seq}: recorded ")
    derives = report.problems[0].split("the engine derives ", 1)[1]
    assert f"'type': '{derived}'" in derives and detail in derives


def test_the_rules_1_records_were_exported_by_the_code_of_their_time() -> None:
    # format 1: the export of the code before the rulings chain (and before rules 2)
    for path in RECORDS.glob("family_business-rules1-*.json"):
        record = load(path)
        assert record["format"] == "fbservice.game-record/1", path.name
        assert record["events"][0]["payload"]["rules_version"] == 1


def test_a_game_starts_under_the_version_asked_for_and_no_unknown_one() -> None:
    assert initial_state(2, Options(rules_version=1), "s").rules_version == 1
    assert initial_state(2, Options(), "s").rules_version == RULES_VERSION
    with pytest.raises(RuleViolation) as refused:
        setup_events(2, Options(rules_version=9), "s")
    assert refused.value.code == "bad_command" and "rules version 9" in refused.value.message


def test_a_verifier_that_retired_a_version_refuses_its_records_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = load(RECORDS / "family_business-rules1-war-at-game-end.json")
    monkeypatch.setattr(type(GAMES["family_business"]), "rules_versions", (2,))
    report = verify_record(record)
    assert report.problems == [
        "rules version 1 of family_business is not one this verifier decides (2)"
    ]
