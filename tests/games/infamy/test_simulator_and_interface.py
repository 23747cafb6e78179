"""The simulator, the minimal defaults under timeouts, the codec's refusals and the pure
functions the service will call (games/infamy/definition.py)."""

from __future__ import annotations

import json
from random import Random

import pytest

from games.infamy import (
    CODES,
    RuleViolation,
    awaiting,
    candidates,
    decide,
    evolve,
    initial_state,
)
from games.infamy.bots import HeuristicBot, RandomBot
from games.infamy.codec import decode_command, encode_command
from games.infamy.commands import ChooseSector, MoveWatchdog, Place, PlayScheme
from games.infamy.definition import (
    http_status,
    setup_from_started,
    start,
    status,
    timeout_command,
)
from games.infamy.legal import between_steps
from games.infamy.simulate import main, play_game
from games.infamy.state import GameState
from games.infamy.view import catalogue, view


@pytest.mark.parametrize("seed", ["t1", "t2", "t3"])
def test_games_with_timeouts_and_resignations_keep_the_invariants(seed: str) -> None:
    bots = [RandomBot(resign=0.003), HeuristicBot(), RandomBot(), HeuristicBot()]
    record = play_game(4, bots, seed, timeouts=0.3)
    assert not record.violations and record.state.over


def test_heuristic_games_end_with_a_winner() -> None:
    for i in range(4):
        record = play_game(3 + i % 2, [HeuristicBot()] * 4, f"h{i}")
        assert not record.violations and record.state.over and record.state.winners
        assert set(record.routes) <= {"infamy", "reputation"}


def test_the_simulator_command_runs() -> None:
    assert main(["--games", "2", "--players", "3"]) == 0


def test_commands_round_trip_and_malformed_ones_are_refused() -> None:
    for command in (MoveWatchdog(1, 2), ChooseSector(3, 4),
                    Place("own", "job", "j12", "pkd", {"sabotage": None})):  # fmt: skip
        assert decode_command(encode_command(command)) == command
    assert encode_command(MoveWatchdog(1, 2)) == {"type": "move_watchdog", "from": 1, "to": 2}
    for bad in (None, {"type": "fly"}, {"type": "bid"}, {"type": "bid", "total": "3"},
                {"type": "bid", "total": True}, {"type": "pass", "extra": 1}):  # fmt: skip
        with pytest.raises(RuleViolation) as info:
            decode_command(bad)
        assert info.value.code == "bad_command"


@pytest.mark.parametrize(
    "bad",
    [
        {"type": []},  # unhashable: was a TypeError (a 500 over the API)
        {"type": {}},
        {"type": 1.5},
        {"type": "play_scheme", "card": "h14", "choices": {"give": 1, "take": []}},
        {"type": "play_scheme", "card": "h14", "choices": {"give": "ab", "take": "cd"}},
        {"type": "play_scheme", "card": "h14", "choices": {"give": [[]], "take": [{}]}},
        {"type": "play_scheme", "card": "m17", "choices": {"from": 4, "to": []}},
        {"type": "play_scheme", "card": "m17", "choices": {"from": 4.0, "to": 1}},
        {"type": "play_scheme", "card": "t15", "choices": {"rival": False}},  # not seat 0
        {"type": "play_scheme", "card": "m14", "choices": {"jobs": 0}},
        {"type": "play_scheme", "card": "m14", "choices": {"no_such_choice": 1}},
        {"type": "place", "figure": "own", "space": "job", "choices": {"sabotage": ["j1"]}},
        {"type": "place", "figure": "own", "space": "job", "choices": []},
        {"type": "choose_sector", "sector": float("nan")},
        {"type": "choose_sector", "sector": 2, "accomplice": True},
    ],
)
def test_wrongly_typed_values_anywhere_in_a_command_are_bad_commands(bad) -> None:
    with pytest.raises(RuleViolation) as info:
        decode_command(bad)
    assert info.value.code == "bad_command"


def test_choices_keep_what_the_rules_read() -> None:
    command = decode_command(
        {"type": "play_scheme", "card": "h14", "choices": {"give": ["data"], "take": ["weapon"]}}
    )
    assert command == PlayScheme("h14", {"give": ["data"], "take": ["weapon"]})
    place = {"type": "place", "figure": "own", "space": "job", "job": "j12", "faction": "pkd",
             "choices": {"sabotage": None, "deck": "pkd"}}  # fmt: skip
    assert decode_command(place) == Place("own", "job", "j12", "pkd", place["choices"])


@pytest.mark.parametrize("seed", ["v1"])
def test_every_legal_variant_decodes_to_the_command_it_lists(seed: str) -> None:
    """A client sends a listed variant as it is (JSON, ``null`` fields included): it must
    decode to the very command ``candidates`` listed (a Reward's unused ``sector: null``
    was once refused as a wrong type)."""
    bots = [HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()]
    rng = Random(seed)
    state = initial_state(4, {}, seed)
    seen: set[str] = set()
    for _ in range(400):  # a few rounds: every kind of step comes up
        if state.over:
            break
        waiting = awaiting(state)
        for seat in waiting:
            for command in candidates(state, seat):
                seen.add(type(command).__name__)
                data = json.loads(json.dumps(encode_command(command)))
                assert decode_command(data) == command, data
        seat = rng.choice(waiting)
        for event in decide(state, seat, bots[seat].choose(state, seat, rng)):
            state = evolve(state, event)
    assert {"Bid", "Pass", "ChooseSector", "Place", "Reward"} <= seen


def test_status_timeout_command_and_codes() -> None:
    s = initial_state(3, {"turn_seconds": 20, "stacked": {"first_seat": 1}}, "st")
    st = status(s)
    assert st["awaiting"] == [1] and st["over"] is False and st["step"] == "auction"
    assert st["step_key"].startswith("r1:auction:")
    assert timeout_command(s, 1) == {"type": "pass"}
    assert timeout_command(s, 0) is None
    bot = timeout_command(s, 1, "bot")
    assert bot is not None and bot["type"] in ("bid", "pass", "favor")
    with pytest.raises(ValueError):
        timeout_command(s, 1, "discard")
    assert http_status("bid_too_low") == 422 and http_status("game_over") == 409
    assert http_status("bad_command") == 400 and set(CODES) >= {"bad_options", "space_taken"}


def test_start_validates_options_and_verify_rederives_setup() -> None:
    with pytest.raises(RuleViolation) as info:
        start(["a", "b"], {}, "x")
    assert info.value.code == "bad_options"
    events = start(["a", "b", "c"], {"colours": ["yellow"]}, "seed-1")
    from games.infamy.codec import encode_event

    payload = encode_event(events[0])
    assert setup_from_started(payload, "seed-1") == events


def test_the_catalogue_marks_stand_in_content() -> None:
    c = catalogue()
    assert len(c["contacts"]) == 13 and len(c["jobs"]) == 30 and len(c["schemes"]) == 60
    assert c["content_version"] == "infamy/standin-1"
    assert all(j["reconstructed"] for j in c["jobs"])
    assert not c["perks"]["trust"][0]["reconstructed"]  # Stringer is the seed's


def test_every_viewer_sees_every_point_of_a_game_even_between_two_events_of_a_command() -> None:
    """A replay may stop between two events of one command (the auction won, the next step
    not yet started): the seat's view there lists nothing to do instead of failing."""
    record = play_game(3, [RandomBot(), HeuristicBot(), RandomBot()], "between", check=False)
    state = GameState()
    between = 0
    for event in record.events:
        state = evolve(state, event)
        for viewer in (0, 1, 2, "spectator", "staff"):
            shown = view(state, viewer)
            if between_steps(state) and isinstance(viewer, int):
                assert [o for o in shown["legal"] if o["command"] != "resign"] == []
        between += between_steps(state)
    assert between > 0
