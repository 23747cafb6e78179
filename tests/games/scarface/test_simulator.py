"""The simulator's checks on a few games per seat count (the 1,000-game figures are in
docs/rules-scarface.md): heuristic and random bots play to "Prohibition Ends at Last"
with no invariant broken after any event, no bot command refused, and the game replayed
from its events to the same state (T1, T2); lengths within T3 and T4."""

from __future__ import annotations

import pytest

from games.scarface.simulate import MAX_COMMANDS, play


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_heuristic_games_end_within_the_targets(seats: int) -> None:
    for k in range(3):
        result = play(seats, f"test-{seats}-{k}")
        assert not result.violations, result.violations[:3]
        assert result.ended_by_news and result.commands < MAX_COMMANDS
        assert result.rounds <= 40 and all(4 <= n <= 6 for n in result.reorgs)
        assert result.winners


@pytest.mark.parametrize("seats", [2, 4])
def test_random_bots_play_to_the_end(seats: int) -> None:
    result = play(seats, f"random-{seats}", ("random",) * seats)
    assert not result.violations, result.violations[:3]
    assert result.ended_by_news
