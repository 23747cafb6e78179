"""Start positions, for every game with them, asked only through ``games.core.Game``:
the document of any state of a random game validates as it is and starts a game whose
state is that state (the position round-trips), and the record of such a game re-derives
from its first event (``setup_from_started``), as ``games.verify`` re-derives it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.core import Game, RuleViolation
from games.registry import game_names, get_game
from tests.generic.random_play import fold, play

GAMES = list(game_names())


def positioned(game: Game, names: list[str], doc: dict[str, Any], seed: str) -> tuple[Any, ...]:
    options = game.validate_options({"position": doc}, len(names), sandbox=True)
    return tuple(game.start(names, options, seed, f"salt:{seed}"))


@pytest.mark.parametrize("game", GAMES)
def test_a_position_of_any_state_starts_a_game_in_that_state(game: str) -> None:
    definition = get_game(game)

    @settings(
        max_examples=15,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        seats = data.draw(
            st.integers(definition.min_players, definition.max_players), label="seats"
        )
        n = data.draw(st.integers(0, 2**32), label="seed")
        seed = f"positions:{n}"
        kinds = [definition.bot_kinds[(n + s) % len(definition.bot_kinds)] for s in range(seats)]
        played = play(definition, seats, seed, kinds, commands=400)
        running = [
            m for m in played.moves if not definition.status(played.state_after(m.last)).over
        ]
        move = running[data.draw(st.integers(0, len(running) - 1), label="cut")]
        state = played.state_after(move.last)
        doc = definition.position_of(state)
        assert definition.validate_position(doc, seats) == doc  # the stored form is a fixpoint
        names = [f"seat{s}" for s in range(seats)]
        events = positioned(definition, names, doc, seed)
        assert fold(definition, events) == state
        encoded = definition.encode_event(events[0])
        started = {k: v for k, v in encoded.items() if k != "type"}
        assert definition.seed_matches(started, seed)
        again = definition.setup_from_started(started, seed)
        assert [definition.encode_event(e) for e in again] == [
            definition.encode_event(e) for e in events
        ]

    run()


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_has_no_position(game: str) -> None:
    definition = get_game(game)
    seats = definition.min_players
    played = play(definition, seats, "over", [definition.bot_kinds[0]] * seats)
    state = played.state_after(len(played.events))
    assert definition.status(state).over
    with pytest.raises(RuleViolation) as refused:
        definition.position_of(state)
    assert refused.value.code == "bad_position"
