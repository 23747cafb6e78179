"""Junk in any field of any command of any registered game is refused with a code, never a
crash: hypothesis puts JSON values of every kind (unhashable lists and objects, nesting,
huge integers, floats, NaN, strings where lists belong, a game's own ids where they do not
belong) at every field position of the commands a game offers in reachable states.

The engine answers each with a ``RuleViolation`` whose code the game declares with a 4xx
status (or accepts it: a junk value can happen to be legal); over the API every such
command is a 4xx in the envelope with a registered code, never a 500, and appends nothing.
The command shapes come from the games themselves (their ``legal`` options and bots), so
a new game is covered as soon as it is registered."""

from __future__ import annotations

import copy
import json
import math
import uuid
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from api.errors import STATUS
from events.models import CommandRecord, StoredEvent
from games.core import RuleViolation
from games.registry import game_names, get_game
from games.service import clock_ms, game_load
from tests.generic.helpers import play, started
from tests.generic.reachable import as_sent, offered, reachable, seats_for
from tests.windows import bot_move

GAMES = list(game_names())
NEW_FIELD = ("<a field the command does not have>",)
# Whole numbers at the edges of the integer types a server might use on the way.
EDGES = (2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**40)


def templates(definition: Any, state: Any, seat: int, now: int) -> list[dict[str, Any]]:
    """The commands the game itself would take from ``seat`` now, as JSON: what its view
    offers and what its bots would send."""
    found = [as_sent(c) for o in definition.view(state, seat, now=now).get("legal", [])
             for c in offered(o)]  # fmt: skip
    if seat in definition.status(state).awaiting:
        for kind in definition.bot_kinds:
            command = definition.bot_command(state, seat, kind, "junk")
            if command is not None:
                found.append(as_sent(command))
    return list({json.dumps(c, sort_keys=True): c for c in found}.values())


def positions(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every field position of a command: each key at any depth and each list item."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*path, key)
            yield from positions(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield (*path, index)
            yield from positions(inner, (*path, index))


def scalars(value: Any) -> Iterator[Any]:
    """The game's own values in a command (ids, seats, sectors), to put where they do not
    belong."""
    if isinstance(value, dict):
        for inner in value.values():
            yield from scalars(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from scalars(inner)
    else:
        yield value


def put(command: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(command)
    if path == NEW_FIELD:
        changed["x_" + uuid.uuid4().hex[:6]] = value
        return changed
    at: Any = changed
    for step in path[:-1]:
        at = at[step]
    at[path[-1]] = value
    return changed


def junk(own: list[Any]) -> st.SearchStrategy[Any]:
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(10**6), max_value=10**6)
        | st.sampled_from(EDGES)
        | st.floats()  # NaN and infinities too
        | st.text(max_size=12)
        | st.sampled_from(own or [0])
    )
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.text(max_size=6) | st.sampled_from(own_keys(own)), inner, max_size=3
            )
        ),
        max_leaves=6,
    )


def own_keys(own: list[Any]) -> list[str]:
    return [v for v in own if isinstance(v, str)] or ["type"]


def mutated(data: Any, commands: list[dict[str, Any]]) -> dict[str, Any]:
    """One of ``commands`` with junk at one of its field positions (or in a new field)."""
    command = data.draw(st.sampled_from(commands), label="command")
    path = data.draw(st.sampled_from([*positions(command), NEW_FIELD]), label="position")
    own = sorted({json.dumps(v) for c in commands for v in scalars(c)})
    value = data.draw(junk([json.loads(v) for v in own]), label="junk")
    return put(command, path, value)


def accepted(definition: Any, state: Any, seat: int, command: Any, now: int) -> bool:
    """Whether the rules would take ``command`` as it is (a junk value that happens to be
    legal); anything the engine raises counts as not."""
    try:
        definition.decide(state, seat, definition.decode_command(command), now=now)
    except Exception:  # (the request below shows what it was)
        return False
    return True


# --- the engine ------------------------------------------------------------------------------


@cache
def points(game: str) -> list[tuple[Any, int, int, list[dict[str, Any]]]]:
    """(state, now, seat, the seat's commands) along a few random games, for awaited seats."""
    definition = get_game(game)
    found = []
    for seed in ("junk-1", "junk-2"):
        for reached in reachable(game, seed, steps=300):
            if reached.step % 2:
                continue  # (the steps repeat)
            for seat in definition.status(reached.state).awaiting:
                commands = templates(definition, reached.state, seat, reached.now)
                if commands:
                    found.append((reached.state, reached.now, seat, commands))
    return found


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_the_engine_refuses_junk_with_a_code_it_declares(game: str, data: Any) -> None:
    definition = get_game(game)
    state, now, seat, commands = data.draw(st.sampled_from(points(game)), label="state")
    command = mutated(data, commands)
    try:
        definition.decide(state, seat, definition.decode_command(command), now=now)
    except RuleViolation as refused:
        assert refused.code in definition.error_codes, (refused.code, command)
        assert 400 <= definition.http_status(refused.code) < 500, (refused.code, command)


# --- over the API ----------------------------------------------------------------------------


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("moves", [0, 9])
@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    # no shrinking: the system may close a window meanwhile, so an example need not replay
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_junk_commands_are_4xx_with_a_code_and_append_nothing(
    game: str, moves: int, data: Any, table_of: Any
) -> None:
    table, clients = table_of(game, moves)
    loaded = game_load(game_id=table.id)
    definition, state = loaded.definition, loaded.state
    now = clock_ms()
    status = definition.status(state)
    seat = data.draw(st.sampled_from(sorted(status.awaiting or clients)), label="seat")
    commands = templates(definition, state, seat, now) or [{"type": "resign"}]
    command = mutated(data, commands)
    assume(not accepted(definition, state, seat, command, now))
    key = uuid.uuid4()
    before = StoredEvent.objects.filter(stream_id=table.id).count()
    response = clients[seat].post(
        f"/api/v1/games/{table.id}/commands",
        data=json.dumps({"command": command}),  # NaN goes as the bare token: bad JSON
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=str(key),
    )
    body = response.json()
    assert 400 <= response.status_code < 500, (command, response.status_code, body)
    assert set(body) == {"code", "message", "extra"}, body
    assert STATUS.get(body["code"]) == response.status_code, (command, body)
    assert not StoredEvent.objects.filter(stream_id=table.id, command_id=key).exists()
    # only the system may have moved meanwhile (a reaction window it closed when overdue)
    appended = StoredEvent.objects.filter(stream_id=table.id).order_by("seq")[before:]
    assert all(e.actor == "system" for e in appended), command
    if all(math.isfinite(v) for v in scalars(command) if isinstance(v, float)):
        # (what JSON cannot carry is refused by the parser, before any record)
        assert CommandRecord.objects.get(command_id=key).outcome == CommandRecord.REFUSED


@pytest.fixture
def table_of(db: Any, settings: Any) -> Any:
    """A started table of people only (made once per test), after ``moves`` moves of the
    game's own bots, and an API client for each seat."""
    settings.FB_COMMAND_RATE = "100000/min"  # every example is a command
    made: dict[tuple[str, int], Any] = {}

    def make(game: str, moves: int) -> Any:
        if (game, moves) not in made:
            table = started(game, humans=seats_for(game))
            for n in range(moves):
                loaded = game_load(game_id=table.id)
                if loaded.definition.status(loaded.state).over:
                    break
                move = bot_move(table.id, loaded.state, game, lambda seat, n=n: f"junk:{n}:{seat}")
                if move is not None:  # (None: the window ran out instead)
                    play(table, *move)
            clients = {s.position: _client(s.user) for s in table.seat_set.all()}
            made[(game, moves)] = (table, clients)
        return made[(game, moves)]

    return make
