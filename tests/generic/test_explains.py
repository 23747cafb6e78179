"""Every registered game explains itself (games.core): a goal and a rules document; a
label on every legal option (and on each variant, where it gives them) in random games;
and, once a game is over, an ``Outcome`` that agrees with ``Status``'s winners and names
each winner. Pure: the games' own bots play; no database."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.registry import game_names, get_game
from tests.generic.random_play import play
from tests.generic.reachable import reachable, seats_for

ROOT = Path(__file__).resolve().parents[2]
GAMES = list(game_names())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_states_its_goal_and_names_a_rules_document_that_exists(game: str) -> None:
    definition = get_game(game)
    assert len(definition.goal) > 40 and definition.goal.endswith(".")
    document = ROOT / definition.rules_document
    assert document.is_file() and document.suffix == ".md"
    assert document.read_text().startswith("# ")


@pytest.mark.parametrize("seed", ("label-1", "label-2"))
@pytest.mark.parametrize("game", GAMES)
def test_every_legal_option_says_what_it_gives(game: str, seed: str) -> None:
    definition = get_game(game)
    labelled = 0
    for reached in reachable(game, seed, steps=1500):
        for seat in range(seats_for(game)):
            for option in definition.view(reached.state, seat, now=reached.now).get("legal", []):
                assert isinstance(option.get("label"), str) and option["label"].strip(), option
                if "variant_labels" in option:
                    labels = option["variant_labels"]
                    assert len(labels) == len(option["variants"]), option
                    assert all(isinstance(x, str) and x.strip() for x in labels), option
                labelled += 1
    assert labelled > 20


@pytest.mark.parametrize("seed", ("outcome-1", "outcome-2", "outcome-3"))
@pytest.mark.parametrize("game", GAMES)
def test_a_finished_games_outcome_is_the_engines_result_with_its_reasons(
    game: str, seed: str
) -> None:
    definition = get_game(game)
    seats = seats_for(game)
    played = play(definition, seats, seed, ["heuristic"] * seats)
    state = played.state_after(len(played.events))
    status = definition.status(state)
    assert status.over, f"{game}: the random game did not end"
    outcome = definition.outcome(state)
    assert outcome is not None
    assert outcome.winners == status.winners
    assert outcome.reason and outcome.summary.endswith(".")
    for seat in outcome.winners:
        assert f"seat{seat}" in outcome.summary  # who won, by name
    assert outcome.tie_breaks, "the comparison that decided it"
    last = outcome.tie_breaks[-1]
    assert last.kept == outcome.winners  # the last comparison kept exactly the winners
    for tie_break in outcome.tie_breaks:
        assert set(tie_break.kept) <= {seat for seat, _ in tie_break.values}
    json = outcome.as_json()
    assert json["winners"] == list(status.winners)
    assert [t["criterion"] for t in json["tie_breaks"]] == [t.criterion for t in outcome.tie_breaks]


@pytest.mark.parametrize("game", GAMES)
def test_a_running_game_has_no_outcome(game: str) -> None:
    definition = get_game(game)
    first = next(iter(reachable(game, "running", steps=1)))
    assert definition.outcome(first.state) is None
