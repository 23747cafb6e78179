"""What a game explains, over the API, for every registered game: each `legal` option of
the game document carries its `label`; the state's `outcome` is null while the game runs
and, once it is over, the engine's own account of who won and why (games.core.Outcome)."""

from __future__ import annotations

import pytest

from games.registry import game_names, get_game
from tests.api.helpers import create_table, seat_all, start
from tests.api.test_any_game import seats_of
from tests.generic.helpers import loaded, started

GAMES = list(game_names())


@pytest.mark.parametrize("game", GAMES)
def test_a_running_games_options_are_labelled_and_it_has_no_outcome(alice, bob, carol, game):
    seats = seats_of(game)
    players = (alice, bob, carol)[:seats]
    table = create_table(alice, game=game, seats=seats)
    seat_all(table["id"], *players[1:])
    state = start(alice, table["id"])["state"]
    assert state["outcome"] is None
    seat = state["awaiting"][0]
    mine = players[seat].get(f"/games/{table['id']}").json()["state"]
    assert mine["legal"] and all(o["label"].strip() for o in mine["legal"])


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_games_state_carries_the_engines_outcome(alice, game):
    table = started(game, humans=0, bots=2, seed=f"explain-{game}")  # bots play to the end
    expected = get_game(game).outcome(loaded(table).state)
    assert expected is not None
    state = alice.get(f"/games/{table.id}").json()["state"]  # a spectator's view
    assert state["over"] and state["outcome"] == expected.as_json()
    assert state["outcome"]["winners"] == state["winners"] and state["outcome"]["summary"]
