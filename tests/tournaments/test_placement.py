"""A finished game's places, as placement points read them (``Game.placements`` turned
into a place per seat), for every registered game: the winners first, every seat placed."""

from __future__ import annotations

import pytest

from games.registry import get_game
from tests.generic.helpers import GAMES, loaded, started
from tournaments.standings import places_of

pytestmark = pytest.mark.django_db


def test_places_from_groups() -> None:
    assert places_of(((2,), (0, 3), (1,)), 4) == (2, 4, 1, 2)


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_games_places_put_its_winners_first(game: str) -> None:
    seats = get_game(game).min_players + 1
    table = started(game, humans=0, bots=seats, seed=f"placement-{game}")  # bots: to the end
    done = loaded(table)
    status = done.definition.status(done.state)
    assert status.over
    groups = done.definition.placements(done.state)
    assert groups is not None
    places = places_of(groups, seats)
    assert sorted(s for g in groups for s in g) == list(range(seats))
    assert {s for s in range(seats) if places[s] == 1} == set(status.winners)
