"""Each Infamy option says what it gives (``label``, and ``variant_labels`` for the forms
of a command), from the rules the engine applies: an HQ gives Reputation with its faction
only while the seat has none there, else a named draw; a supply space its resource."""

from __future__ import annotations

from games.infamy.view import view
from tests.games.infamy.builders import give
from tests.games.infamy.test_sector_and_schemes import placed, to_sector


def place_labels(state, seat: int) -> dict[str, str]:  # type: ignore[no-untyped-def]
    (option,) = [o for o in view(state, seat)["legal"] if o["command"] == "place"]
    return {
        v["space"]: label
        for v, label in zip(option["variants"], option["variant_labels"], strict=True)
        if v["space"] != "job"
    }


def test_an_hq_gives_reputation_until_the_seat_has_some_then_a_scheme() -> None:
    s = placed(to_sector(), {0: 1, 1: 3, 2: 5})  # sector 1: PKD Militia's HQ, weapons
    assert s.step == "place" and s.actor == 0
    labels = place_labels(s, 0)
    assert labels["hq"] == "On the HQ (your figure): +1 Reputation with PKD Militia"
    assert labels["supply"] == "On the supply space (your figure): +1 weapon"
    s = give(s, 0, rep={"pkd": 1})
    assert place_labels(s, 0)["hq"] == "On the HQ (your figure): draw 1 PKD Militia scheme"


def test_every_option_of_a_seat_is_labelled_and_resign_says_what_it_does() -> None:
    s = to_sector()
    options = view(s, 0)["legal"]
    (choose,) = [o for o in options if o["command"] == "choose_sector"]
    assert choose["label"].startswith("Choose your sector")
    assert choose["variant_labels"][0] == "sector 1 (Landing Docks)"
    assert options[-1] == {**options[-1], "command": "resign", "label": "Resign: leave the game"}
