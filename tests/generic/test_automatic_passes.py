"""Windows that end when people have answered (issue 29; docs/rules.md, "Hand passes are
public, automatic passes are sealed"), for every registered game with reaction windows
(``Game.reaction_windows``; parametrized, no game named): at a table of three people,
passes the server makes on the seats' behalf append nothing and change nothing anyone
else sees (the version, who the window waits on), so the window would run to its
deadline; the same seats passing by hand close it at once, each pass an event."""

from __future__ import annotations

import pytest

from events.models import CommandRecord
from games.clock import clock_ms
from games.registry import STANDING, get_game
from games.standing import standing_react, standing_set
from tests.generic.helpers import GAMES, a_move, loaded, play, started

pytestmark = pytest.mark.django_db

WINDOWED = [g for g in GAMES if get_game(g).reaction_windows]
HOUR = 3600 * 1000


def _pass_command(game, seat):
    """The seat's pass on the open window, as its own command (what "pass on everything"
    would answer), or None where the seat may not pass (not a reaction window)."""
    rules = STANDING[game.table.game]
    everything = rules.Standing(
        auto_pass=False, pass_until=clock_ms() + HOUR, pass_turn=None, counters=()
    )
    seat_state = game.state
    reaction = rules.standing_reaction(seat_state, seat, everything, now=clock_ms())
    return None if reaction is None else game.definition.encode_command(reaction.command)


def _a_window_two_seats_answer(game_name):
    """A table of three people at a reaction window that two seats may answer."""
    for attempt in range(20):
        table = started(game_name, humans=3, seed=f"auto-pass:{attempt}")
        for move in range(300):
            game = loaded(table)
            status = game.definition.status(game.state)
            if status.over:
                break
            waiting = status.awaiting
            if (
                status.window is not None
                and len(waiting) >= 2
                and all(_pass_command(game, s) is not None for s in waiting)
            ):
                return table, status.window, waiting
            seat = waiting[0]
            play(table, seat, a_move(table, seat, seed=f"{attempt}:{move}"))
    raise AssertionError("no window that two seats answer in 20 games")


@pytest.mark.parametrize("game", WINDOWED)
def test_automatic_passes_change_nothing_others_see_and_hand_passes_close_the_window(
    game,
) -> None:
    table, window, waiting = _a_window_two_seats_answer(game)
    version = loaded(table).version
    for seat in waiting:
        standing_set(
            table=table, seat=seat, actor=f"user:{seat}", changes={"pass_all": {"seconds": 600}}
        )
    done = standing_react(game_id=table.id)
    assert done == dict.fromkeys(waiting, "pass_all")
    after = loaded(table)
    status = after.definition.status(after.state)
    assert after.version == version  # nothing appended: no event, no version, no NOTIFY
    assert status.window == window and status.awaiting == waiting  # still waits on all
    sealed = CommandRecord.objects.filter(stream_id=table.id, metadata__sealed=window.id)
    assert sorted(r.seat for r in sealed) == sorted(waiting)
    assert all(r.first_seq is None for r in sealed)

    # the same seats pass by hand: each pass is an event; the last one closes the window
    for n, seat in enumerate(waiting, start=1):
        command = _pass_command(loaded(table), seat)
        assert command is not None
        outcome = play(table, seat, command)
        assert outcome.first_seq == version + 1 if n == 1 else outcome.first_seq > version
        now = loaded(table)
        still = now.definition.status(now.state).window
        if n < len(waiting):
            assert still == window
        else:
            assert still is None or still != window  # closed long before its deadline
