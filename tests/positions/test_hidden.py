"""Hidden information in games started from a position, for every game with them: no
viewer can tell such a game from its twin (``Game.hidden_twin``), so the position's hidden
parts (other seats' hands, deck orders, sealed choices) are hidden from the first event on
exactly as a dealt game's are (tests/generic/hiding.py's checks, on positioned games)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.registry import game_names, get_game
from tests.generic.hiding import assert_hides, twin_differs
from tests.generic.random_play import play

GAMES = list(game_names())


def positioned_game(game: str, seats: int, n: int, cut: float):  # type: ignore[no-untyped-def]
    """A random game of ``game`` cut at a running point, then a game started from that
    point's position and played on by bots."""
    definition = get_game(game)
    kinds = [definition.bot_kinds[(n + s) % len(definition.bot_kinds)] for s in range(seats)]
    played = play(definition, seats, f"source:{n}", kinds, commands=300)
    running = [m for m in played.moves if not definition.status(played.state_after(m.last)).over]
    move = running[int(cut * (len(running) - 1))]
    doc = definition.position_of(played.state_after(move.last))
    return play(definition, seats, f"from:{n}", kinds, options={"position": doc}, commands=300)


@pytest.mark.parametrize("game", GAMES)
def test_no_viewer_tells_a_positioned_game_from_its_twin(game: str) -> None:
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
        cut = data.draw(st.floats(0, 1), label="cut")
        played = positioned_game(game, seats, n, cut)
        commands = data.draw(st.integers(1, len(played.moves)), label="commands")
        viewer = data.draw(
            st.one_of(st.integers(0, seats - 1), st.sampled_from(["spectator", "staff"])),
            label="viewer",
        )
        assert_hides(played, commands, viewer, f"twin:{n}")

    run()


@pytest.mark.parametrize("game", GAMES)
def test_a_positioned_games_twin_differs_at_its_start(game: str) -> None:
    """The first event itself has a twin that differs: the position's hidden parts are
    drawn again (a twin that kept them would pass the check above without testing it)."""
    definition = get_game(game)
    for n in range(8):
        played = positioned_game(game, definition.min_players, n, 0.5)
        if twin_differs(definition, played.events[:1], 0, f"d:{n}"):
            return
    raise AssertionError(f"{game}: no positioned game's first event has a differing twin")
