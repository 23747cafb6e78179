"""Out-of-turn play keeps the interface's promise, for every registered game
(``games.core.Status.out_of_turn``, docs/architecture.md "Out-of-turn play"): in random
reachable states, a seat listed out of turn is never one the game awaits, and every command
its view offers it is accepted and leaves ``awaiting`` and ``step_key`` as they were (the
awaited seat's turn clock runs on), unless the game ends. A game without such play lists
nobody and offers a seat it does not await nothing but what needs no turn (a resign).

Pure: the games' own bots reach the states; no database."""

from __future__ import annotations

import pytest

from games.registry import game_names, get_game
from tests.generic.reachable import as_sent, offered, reachable, seats_for

SEEDS = ("oot-1", "oot-2")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", list(game_names()))
def test_a_seat_acting_out_of_turn_leaves_the_step_as_it_was(game: str, seed: str) -> None:
    definition = get_game(game)
    for reached in reachable(game, seed, steps=1500):
        before = definition.status(reached.state)
        assert not set(before.out_of_turn) & set(before.awaiting), before
        for seat in range(seats_for(game)):
            if not before.acting_out_of_turn(seat):
                continue
            assert before.may_act(seat)
            view = definition.view(reached.state, seat, now=reached.now)
            for option in view.get("legal", []):
                for command in offered(option):
                    events = definition.decide(
                        reached.state,
                        seat,
                        definition.decode_command(as_sent(command)),
                        now=reached.now,
                    )
                    state = reached.state
                    for event in events:
                        state = definition.evolve(state, event)
                    after = definition.status(state)
                    if after.over:
                        continue
                    assert (after.awaiting, after.step_key) == (
                        before.awaiting,
                        before.step_key,
                    ), f"step {reached.step}: seat {seat} out of turn sent {command}"


def test_some_game_is_played_out_of_turn_in_these_states() -> None:
    """The test above is not empty: a game with out-of-turn play offers some in them."""
    checked = 0
    for game in game_names():
        definition = get_game(game)
        for reached in reachable(game, SEEDS[0], steps=1500):
            status = definition.status(reached.state)
            for seat in status.out_of_turn:
                view = definition.view(reached.state, seat, now=reached.now)
                checked += sum(len(offered(o)) for o in view.get("legal", []))
    assert checked > 0
