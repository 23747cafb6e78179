"""What a view offers is what the rules accept, for every registered game: in random
reachable states, every ``legal`` option of every seat carries a command to send, and its
``send`` (when ``ready``) and each of its ``variants``, sent as given (through JSON) by the
seat it was offered to, is decided without a refusal (docs/api.md, "legal options").

Pure: the games' own bots reach the states; no database."""

from __future__ import annotations

import pytest

from games.core import RuleViolation
from games.registry import game_names, get_game
from tests.generic.reachable import as_sent, offered, reachable, seats_for

SEEDS = ("legal-1", "legal-2", "legal-3")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", list(game_names()))
def test_every_offered_command_is_accepted_as_it_is(game: str, seed: str) -> None:
    definition = get_game(game)
    checked = 0
    for reached in reachable(game, seed, steps=3000):
        for seat in range(seats_for(game)):
            view = definition.view(reached.state, seat, now=reached.now)
            for option in view.get("legal", []):
                assert isinstance(option.get("send"), dict), option
                assert isinstance(option.get("ready"), bool), option
                for command in offered(option):
                    sent = as_sent(command)
                    try:
                        definition.decide(
                            reached.state, seat, definition.decode_command(sent), now=reached.now
                        )
                    except RuleViolation as refused:
                        pytest.fail(
                            f"step {reached.step}: seat {seat} was offered {sent} and it was "
                            f"refused: {refused.code} ({refused.message})"
                        )
                    checked += 1
    assert checked > 20
