"""Scarface 1920's start positions on the engine alone (games/scarface/position.py): a
dealt state's document is a fixed point that starts a game in that state; bad documents
are ``bad_position`` naming the path; the recorded position is redacted per viewer as the
view is (money, hands, jobs, deck orders, offers, the deal's recorded orders). The generic
round trip and hiding checks over random games are tests/positions/."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.core import RuleViolation
from games.scarface.evolve import evolve, replay
from games.scarface.game import GAME
from games.scarface.position import position_of, seen_by, validate_position
from games.twins import strings_in
from tests.games.scarface.builders import dealt, send

NAMES = ["seat0", "seat1", "seat2"]


def source() -> Any:
    """A dealt game of three, its first seat's plan laid out (a running state)."""
    state = dealt(3, seed="positions")
    seat = state.seat
    state, _ = send(state, seat, {"type": "plan", "cards": [state.players[seat].hand[0]]})
    return state


def started(doc: dict[str, Any]) -> tuple[Any, ...]:
    options = GAME.validate_options({"position": doc}, 3, sandbox=True)
    return tuple(GAME.start(NAMES, options, "seed", "salt"))


def test_a_position_starts_a_game_in_that_state() -> None:
    state = source()
    doc = position_of(state)
    assert validate_position(doc, 3) == doc
    again = replay(started(doc))
    assert position_of(again) == doc
    assert again.names == tuple(NAMES) and again.seats_at_start == 3
    assert (again.step, again.seat, again.muscle) == (state.step, state.seat, state.muscle)


def _spoil(doc: dict[str, Any], seat: int | None = None, **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    if seat is None:
        out.update(changes)
    else:
        out["players"][seat].update(changes)
    return out


CASES = [
    (lambda d: _spoil(d, turn=0), "turn"),
    (lambda d: _spoil(d, kind="reorganization"), "step"),
    (lambda d: _spoil(d, step="choose"), "offered"),
    (lambda d: _spoil(d, 2, gang=d["players"][0]["gang"]), "players.2.gang"),
    (lambda d: _spoil(d, 1, hand=[d["players"][0]["hand"][0]]), "players.1.hand.0"),
    (lambda d: _spoil(d, 1, money=-1), "players.1.money"),
    (lambda d: _spoil(d, 0, thugs=[["moon", 12]]), "players.0.thugs.0.0"),
    (lambda d: _spoil(d, market_low=d["market_high"] + d["market_low"][3:]), "market_low.0"),
    (lambda d: _spoil(d, job_deck=[*d["job_deck"], d["job_deck"][0]]), "job_deck.<last>"),
    (lambda d: _spoil(d, news_deck=list(reversed(d["news_deck"]))), "news_deck"),
    (lambda d: _spoil(d, tiles=d["tiles"][1:]), "tiles"),
    (lambda d: _spoil(d, tiles=[{"owner": None}, *d["tiles"][1:]]), "tiles.0.id"),
    (lambda d: _spoil(d, stacked=["j01"]), "stacked"),
    (lambda d: _spoil(d, in_raid=True), "in_raid"),
    (lambda d: _spoil(d, content_version="scarface/standin-9"), "content_version"),
    (lambda d: {k: v for k, v in d.items() if k != "seat"}, "seat"),
    (lambda d: _spoil(d, 0, thugs=[["hq", 11]]), "position"),  # an invariant: 12 thugs
]


@pytest.mark.parametrize(("spoil", "field"), CASES)
def test_a_bad_position_is_refused_naming_the_field(spoil: Any, field: str) -> None:
    doc = spoil(position_of(source()))
    if field == "job_deck.<last>":  # the duplicate, at the bottom
        field = f"job_deck.{len(doc['job_deck']) - 1}"
    with pytest.raises(RuleViolation) as refused:
        GAME.validate_options({"position": doc}, 3, sandbox=True)
    assert (refused.value.code, refused.value.data["field"]) == ("bad_position", field)
    assert refused.value.message


def test_only_a_sandbox_takes_a_position_and_only_alone() -> None:
    doc = position_of(source())
    for options, sandbox in (({"position": doc}, False), ({"position": doc, "players": []}, True)):
        with pytest.raises(RuleViolation) as refused:
            GAME.validate_options(options, 3, sandbox=sandbox)
        assert refused.value.code == "bad_options"


def test_a_finished_game_has_no_position() -> None:
    state = source()
    for seat in range(3):
        if state.players[seat].in_game and not state.over:
            state, _ = send(state, seat, {"type": "resign"})
    assert state.over
    with pytest.raises(RuleViolation) as refused:
        position_of(state)
    assert refused.value.code == "bad_position"


def test_the_recorded_position_shows_each_viewer_only_what_it_may_see() -> None:
    doc = position_of(source())
    first = started(doc)[0]
    for viewer in (0, 1, "spectator"):
        shown = GAME.redact_event(first, viewer)["position"]
        assert shown == seen_by(doc, viewer)
        assert shown["stacked"] is None
        for seat, p in enumerate(shown["players"]):
            real = doc["players"][seat]
            assert p["deck"] is None and p["deck_count"] == len(real["deck"])
            if seat == viewer:
                assert (p["money"], p["hand"], p["jobs"]) == (
                    real["money"], real["hand"], real["jobs"]
                )  # fmt: skip
            else:
                assert p["money"] is None and p["hand"] is None and p["jobs"] is None
                assert (p["hand_count"], p["jobs_count"]) == (len(real["hand"]), len(real["jobs"]))
                hidden = {*real["hand"], *real["jobs"]}
                assert not strings_in(shown, hidden), (viewer, seat)
        for deck in ("low_deck", "high_deck", "job_deck", "dealer_deck", "raid_deck"):
            assert shown[deck] is None and shown[f"{deck}_count"] == len(doc[deck])
            assert not strings_in(shown, set(doc[deck])), deck
    staff = GAME.redact_event(first, "staff")["position"]
    assert staff == {**doc, "stacked": None}
    assert GAME.redact_event(first, "staff", revealed=True)["position"] == doc


def test_the_position_event_folds_from_its_encoded_form() -> None:
    """The stored event (JSON) folds to the same state: what a replay of the store does."""
    doc = position_of(source())
    first = started(doc)[0]
    decoded = GAME.decode_event(GAME.encode_event(first))
    assert evolve(GAME.empty_state(), decoded) == evolve(GAME.empty_state(), first)
