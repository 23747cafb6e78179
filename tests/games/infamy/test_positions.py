"""Infamy's start positions where they are most delicate: a position in the sealed sector
step with choices committed hides each choice from everyone but its seat, staff included,
as a dealt game's SectorChosen events do; and refusals name the field."""

from __future__ import annotations

import pytest

from games.core import RuleViolation
from games.infamy.game import GAME
from tests.generic.hiding import assert_hides
from tests.generic.random_play import play


def sealed_position(seats: int) -> dict:
    """The position of a bot game just after a seat committed its sector card."""
    played = play(GAME, seats, "sealed-position", ["heuristic"] * seats, commands=400)
    for move in played.moves:
        state = played.state_after(move.last)
        if state.step == "sector" and any(c is not None for c in state.choices):
            return GAME.position_of(state)
    raise AssertionError("no sealed sector step in the game")


@pytest.mark.parametrize("seats", [3, 4])
def test_a_positions_sealed_choices_are_hidden_from_all_but_their_seat(seats) -> None:
    doc = sealed_position(seats)
    chooser = next(s for s, c in enumerate(doc["choices"]) if c is not None)
    played = play(GAME, seats, "from-sealed", ["heuristic"] * seats, options={"position": doc})
    shown = {v: GAME.redact_event(played.events[0], v)["position"]["choices"] for v in
             [*range(seats), "staff", "spectator"]}  # fmt: skip
    assert shown[chooser][chooser] == doc["choices"][chooser]
    assert all(shown[v][chooser] is None for v in shown if v != chooser)
    assert GAME.status(played.state_after(1)).sealed  # the service refuses audit and export
    # and the twins draw it again (for staff too), so the check below tests something
    twins = [GAME.hidden_twin(played.events[:1], "staff", f"t{n}")[0] for n in range(12)]
    assert any(t.position["choices"][chooser] != doc["choices"][chooser] for t in twins)
    for viewer in [*range(seats), "staff", "spectator"]:
        for commands in (1, 2):
            assert_hides(played, commands, viewer, f"twin:{viewer}")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"step": "nap"}, "step"),
        ({"round": 0}, "round"),
        ({"actor": 7}, "actor"),
        ({"watchdogs": [9]}, "watchdogs.0"),
        ({"hazards": ["1/job"]}, "hazards.0"),
        ({"content_version": "infamy/standin-9"}, "content_version"),
        ({"jobs": ["nope"]}, "jobs.0"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_infamy_position_names_the_field(change, field) -> None:
    doc = {**sealed_position(3), **change}
    with pytest.raises(RuleViolation) as refused:
        GAME.validate_position(doc, 3)
    assert (refused.value.code, refused.value.data["field"]) == ("bad_position", field)


def test_a_scheme_in_two_places_or_another_factions_pile_is_refused() -> None:
    doc = sealed_position(3)
    decks = [list(d) for d in doc["scheme_decks"]]
    hand = doc["players"][0]["hand"]
    players = [dict(p) for p in doc["players"]]
    players[1]["hand"] = [*players[1]["hand"], decks[0][0]]
    with pytest.raises(RuleViolation) as refused:
        GAME.validate_position({**doc, "players": players}, 3)
    assert refused.value.data["field"] == "scheme_decks.0.0"
    decks[1].append(decks[0].pop())
    with pytest.raises(RuleViolation) as refused:
        GAME.validate_position({**doc, "scheme_decks": decks}, 3)
    assert refused.value.data["field"] == f"scheme_decks.1.{len(decks[1]) - 1}"
    del hand
