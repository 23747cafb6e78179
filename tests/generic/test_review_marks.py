"""Replay marks for every registered game (parametrized), on the engine alone: on random
games of bots, cut at any point and seen by any viewer, ``Game.review_marks`` answers (it is
total on every prefix), its turns count up from 1 at increasing events, its moments are in
order, of the kinds the game declares, labelled, and at events of the prefix."""

from __future__ import annotations

import pytest

from games.core import Seen
from games.registry import game_names, get_game
from tests.generic.hiding import viewers
from tests.generic.random_play import play

GAMES = list(game_names())


@pytest.mark.parametrize("game", GAMES)
def test_marks_are_ordered_labelled_and_declared_on_every_prefix(game) -> None:
    definition = get_game(game)
    assert definition.turn_name.strip() and definition.moment_kinds
    assert all(name.strip() for name in definition.moment_kinds.values())
    seats = definition.min_players
    for seed in ("marks-1", "marks-2"):
        played = play(definition, seats, seed, [definition.bot_kinds[0]] * seats)
        events = played.events
        cuts = sorted({1, len(events) // 7, len(events) // 3, len(events) - 1, len(events)})
        for viewer in viewers(seats):
            for cut in cuts:
                over = cut == len(events) and definition.status(played.state_after(cut)).over
                seen = [
                    Seen(i + 1, definition.redact_event(e, viewer, revealed=over))
                    for i, e in enumerate(events[:cut])
                ]
                marks = definition.review_marks(seen)
                numbers = [t.number for t in marks.turns]
                assert numbers == sorted(set(numbers)), (game, viewer, cut)
                assert not numbers or numbers[0] == 1
                seqs = [t.seq for t in marks.turns]
                assert seqs == sorted(set(seqs)) and all(1 <= s <= cut for s in seqs)
                at = [m.seq for m in marks.moments]
                assert at == sorted(at) and all(1 <= s <= cut for s in at)
                assert {m.kind for m in marks.moments} <= set(definition.moment_kinds)
                assert all(m.label.strip() for m in (*marks.turns, *marks.moments))
        assert marks.turns and marks.moments, "a whole game has turns and moments"
        if "end" in definition.moment_kinds and definition.status(played.state_after(cut)).over:
            assert marks.moments[-1].kind == "end"
