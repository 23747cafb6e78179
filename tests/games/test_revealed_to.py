"""``revealed_to`` (which seats an event shows hidden cards to, the undo check's question)
agrees with ``redact_event`` (what each viewer is shown) on every event of whole games."""

from __future__ import annotations

import pytest

from games.family_business.bots import HeuristicBot, RandomBot
from games.family_business.codec import encode_event
from games.family_business.simulate import play_game
from games.family_business.view import redact_event, revealed_to


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (4, False), (3, True)])
def test_revealed_to_names_the_seats_shown_more_than_a_spectator(players, advanced) -> None:
    bots = [RandomBot() if seat % 2 else HeuristicBot() for seat in range(players)]
    record = play_game(players, bots, f"reveal-{players}", advanced=advanced)
    shown_any = 0
    for event in record.events:
        data = encode_event(event)
        kind = data.pop("type")
        spectator = redact_event(event, "spectator")
        shown = {s for s in range(players) if redact_event(event, s) != spectator}
        assert revealed_to(kind, data) == shown, kind
        shown_any += bool(shown)
    assert shown_any > players  # the deal and the draws
