"""Hidden information, for every registered game (parametrized): no viewer can tell a game
from its twin, the same game with what that viewer may not know drawn again
(``Game.hidden_twin``, tests/generic/hiding.py). A game that does not say what it hides,
whose twins change nothing, or that shows a viewer something it may not know fails here
(tests/games/test_leaky_games.py registers such games to show each check can fail)."""

from __future__ import annotations

import pytest

from games.registry import game_names, get_game
from tests.generic.hiding import check_game_hides, check_twins_differ

GAMES = list(game_names())
EXAMPLES = 20  # random games per registered game, each cut at a random point


@pytest.mark.parametrize("game", GAMES)
def test_every_game_says_what_a_viewer_may_not_know_and_its_twins_differ(game) -> None:
    check_twins_differ(get_game(game))


@pytest.mark.parametrize("game", GAMES)
def test_no_viewer_tells_a_game_from_its_twin(game) -> None:
    check_game_hides(get_game(game), examples=EXAMPLES)
