"""Every registered game ranks a finished game's seats (``Game.placements``, what ratings
read): every seat in exactly one group, the winners alone in the first, None while the
game runs. Pure: the games' own bots play; no database."""

from __future__ import annotations

import pytest

from games.core import placed_by
from games.registry import game_names, get_game
from tests.generic.random_play import play
from tests.generic.reachable import reachable, seats_for

GAMES = list(game_names())


@pytest.mark.parametrize("kinds", ("heuristic", "random"))
@pytest.mark.parametrize("seed", ("place-1", "place-2", "place-3"))
@pytest.mark.parametrize("game", GAMES)
def test_a_finished_games_placements_put_its_winners_first_and_every_seat_once(
    game: str, seed: str, kinds: str
) -> None:
    definition = get_game(game)
    seats = seats_for(game)
    played = play(definition, seats, seed, [kinds] * seats)
    state = played.state_after(len(played.events))
    status = definition.status(state)
    assert status.over, f"{game}: the random game did not end"
    placements = definition.placements(state)
    assert placements is not None
    flat = [seat for group in placements for seat in group]
    assert sorted(flat) == list(range(seats))  # every seat, once
    assert all(group for group in placements)  # no empty place
    if status.winners:
        assert placements[0] == tuple(sorted(status.winners))


@pytest.mark.parametrize("game", GAMES)
def test_a_running_game_has_no_placements(game: str) -> None:
    first = next(iter(reachable(game, "running", steps=1)))
    assert get_game(game).placements(first.state) is None


def test_placed_by_ranks_higher_values_first_and_equal_values_together() -> None:
    assert placed_by({0: 3, 1: 7, 2: 3, 3: 1}) == ((1,), (0, 2), (3,))
    # the winners first, whatever their values; the rest by value
    assert placed_by({0: 3, 1: 7, 2: 3}, first=(2,)) == ((2,), (1,), (0,))
    assert placed_by({0: 5, 1: 5}, first=(1, 0)) == ((0, 1),)
