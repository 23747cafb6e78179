"""The typed contract: operation ids and descriptions, per-operation error codes, bounds,
the auth schemes, and the engine's commands, events and options checked against the
schema components that ``api.contract`` derives from them."""

from __future__ import annotations

import inspect
import uuid
from random import Random

import jsonschema
import pytest
import yaml
from django.urls import get_resolver
from rest_framework.test import APIClient

from api.errors import ALL_CODES, status_of
from api.schema import OPERATIONS
from games.family_business.bots import BOTS
from games.family_business.codec import COMMAND_TYPES, decode_command
from games.family_business.commands import CloseWindow
from games.family_business.errors import RuleViolation
from games.family_business.events import EVENT_TYPES
from games.family_business.evolve import evolve, replay
from games.family_business.rules import SYSTEM, decide
from games.family_business.setup import Options, setup_events
from games.family_business.view import redact_event, view
from games.registry import CONTRACTS, GAMES
from tests.api.helpers import API, create_table, play_contract, seat_all, start, undoable_game

contract = CONTRACTS["family_business"]  # Family Business's typed commands and events

pytestmark = pytest.mark.django_db

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = APIClient().get(f"{API}/schema")
    assert response.status_code == 200
    return yaml.safe_load(response.content)


def validator(schema: dict, component: str) -> jsonschema.Draft202012Validator:
    document = {"$ref": f"#/components/schemas/{component}", "components": schema["components"]}
    return jsonschema.Draft202012Validator(document)


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method in METHODS:
                yield method, path, operation


def test_every_operation_has_its_stable_id_and_a_description_for_clients(schema) -> None:
    seen = {(m, p): op["operationId"] for m, p, op in operations(schema)}
    assert seen == {key: op.id for key, op in OPERATIONS.items()}
    docstrings = set()
    for pattern in get_resolver().url_patterns:
        for sub in getattr(pattern, "url_patterns", [pattern]):
            view = getattr(sub.callback, "view_class", None)
            if view is not None and view.__doc__:
                docstrings.add(inspect.cleandoc(view.__doc__))
    for method, path, operation in operations(schema):
        description = operation.get("description", "").strip()
        assert description, (method, path)
        assert inspect.cleandoc(description) not in docstrings, (method, path)


def test_each_error_status_lists_the_codes_of_that_operation(schema) -> None:
    command = schema["paths"]["/api/v1/games/{game_id}/commands"]["post"]["responses"]
    for status in ("400", "401", "403", "404", "405", "406", "409", "415", "422", "429", "503"):
        assert status in command, status
    assert "`stale_version`" in command["409"]["description"]
    assert "`not_your_turn`" in command["422"]["description"]
    assert "`table_full`" not in command["409"]["description"]
    join = schema["paths"]["/api/v1/tables/{table_id}/join"]["post"]["responses"]
    assert "`table_full`" in join["409"]["description"]
    assert "422" not in join
    for method, path, operation in operations(schema):
        for status, response in operation["responses"].items():
            if status.startswith(("4", "5")) and path != "/healthz":
                codes = response["description"].split("Codes: ")[1]
                for code in codes.rstrip(".").split(", "):
                    assert status_of(code.strip("`")) == int(status), (method, path, code)


def test_every_code_is_declared_by_some_operation() -> None:
    """A new code must be given to the operations that answer with it (api.schema)."""
    declared = {c for op in OPERATIONS.values() for c in (*op.codes, *op.common)}
    undeclared = set(ALL_CODES) - declared
    # not_found: routes that do not exist; server_error: a bug; bad_request: DRF's fallback
    assert undeclared == {"not_found", "server_error", "bad_request"}


def test_bounds_formats_and_strict_bodies_are_declared(schema) -> None:
    command = schema["paths"]["/api/v1/games/{game_id}/commands"]["post"]
    key = next(p for p in command["parameters"] if p["name"] == "Idempotency-Key")
    assert key["schema"] == {"type": "string", "format": "uuid"}
    game_id = next(p for p in command["parameters"] if p["name"] == "game_id")
    assert game_id["schema"]["format"] == "uuid"
    components = schema["components"]["schemas"]
    body = components["GameCommandRequest"]
    assert body["additionalProperties"] is False
    assert body["properties"]["expected_version"]["minimum"] == 0
    assert body["properties"]["expected_version"]["maximum"] == 2**31 - 1
    assert body["properties"]["command"]["allOf"] == [{"$ref": "#/components/schemas/AnyCommand"}]
    feed = schema["paths"]["/api/v1/games/{game_id}/events"]["get"]["parameters"]
    wait = next(p for p in feed if p["name"] == "wait")
    assert wait["schema"]["maximum"] == 25
    for name in ("TableCreateRequest", "JoinRequest", "AddBotRequest", "RegisterRequest"):
        assert components[name]["additionalProperties"] is False, name
    assert schema["openapi"].startswith("3.1")
    # nullable as 3.1 has it: no "nullable" keyword anywhere
    assert "nullable" not in yaml.safe_dump(schema)


def test_every_game_has_its_state_events_and_commands_in_the_schema(schema) -> None:
    """The typed game keeps its components; another game's answers get an open shape,
    chosen by the game: a state by its `game`, an event by its type's prefix."""
    components = schema["components"]["schemas"]
    mapping = components["GameState"]["discriminator"]["mapping"]
    assert set(mapping) == set(GAMES)
    for name in CONTRACTS:
        assert mapping[name] == "#/components/schemas/GameView"
    state = validator(schema, "GameState")
    open_state = {"viewer": 0, "players": [{}], "awaiting": [0], "over": False, "winners": []}
    open_state |= {"revealed": False, "round": 1, "outcome": None}
    open_state["legal"] = [{"send": {"type": "x"}, "ready": True, "label": "X: gives y"}]
    for name in set(GAMES) - set(CONTRACTS):
        state.validate({**open_state, "game": name})
        for typed in CONTRACTS:  # a typed game's state is its contract's, not open
            with pytest.raises(jsonschema.ValidationError):
                state.validate({**open_state, "game": typed})
        with pytest.raises(jsonschema.ValidationError):
            state.validate({**open_state, "game": name, "legal": [{"ready": True}]})
        with pytest.raises(jsonschema.ValidationError):  # every option says what it gives
            state.validate({**open_state, "game": name, "legal": [{"send": {}, "ready": True}]})
        over = {"winners": [0], "reason": "shared", "summary": "A wins.", "tie_breaks": []}
        state.validate({**open_state, "game": name, "outcome": over})
    feed = validator(schema, "Feed")
    event = {"seq": 1, "actor": "system", "origin": None, "recorded_at": "2025-01-01T00:00:00Z"}
    event |= {"schema_version": 1, "data": {"type": "Anything", "n": 1}}
    page = {"version": 1, "has_more": False, "revealed": False, "finished": False}
    page |= {"server_time": 0}
    for name in set(GAMES) - set(CONTRACTS):
        feed.validate({**page, "events": [{**event, "type": f"{name}.Anything"}]})
    for name in CONTRACTS:  # a typed game's events are typed
        with pytest.raises(jsonschema.ValidationError):
            feed.validate({**page, "events": [{**event, "type": f"{name}.Anything"}]})
    command = validator(schema, "AnyCommand")
    command.validate({"type": "bid", "round": 1, "card": 3})
    with pytest.raises(jsonschema.ValidationError):
        command.validate({"round": 1})


def test_the_command_union_has_every_client_command_with_a_discriminator(schema) -> None:
    union = schema["components"]["schemas"]["Command"]
    assert set(union["discriminator"]["mapping"]) == set(COMMAND_TYPES) - {"close_window"}
    check = validator(schema, "Command")
    check.validate({"type": "play", "card": "c07", "targets": ["bugs-moran"]})
    check.validate({"type": "counter", "window": "w3", "card": "c40", "mobster": None})
    for bad in (
        {"type": "play"},
        {"type": "play", "card": "c07", "surprise": 1},
        {"type": "close_window", "window": "w1"},
        {"type": "draw", "source": "sky"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            check.validate(bad)


def bot_game(seed: str, players: int, advanced: bool):
    """A whole heuristic-bot game in the pure engine: yields (state, now, new events)."""
    rng = Random(seed)
    events = list(setup_events(players, Options(advanced=True) if advanced else None, seed=seed))
    state = replay(events)
    yield state, 0, events
    bot, now = BOTS["heuristic"](), 0
    while not state.over:
        now += 1000
        if state.window is not None:
            seat, command = SYSTEM, CloseWindow(state.window.id)
            for waiting in state.window.waiting_on:
                chosen = bot.choose(state, waiting, rng)
                if chosen is not None:
                    seat, command = waiting, chosen
                    break
            if seat == SYSTEM:
                now = max(now, state.window.deadline)
        else:
            seat = state.turn_seat
            command = bot.choose(state, seat, rng)
        new = decide(state, seat, command, now=now)
        for event in new:
            state = evolve(state, event)
        yield state, now, new


@pytest.mark.parametrize(("seed", "players", "advanced"), [("c1", 3, False), ("c2", 4, True)])
def test_engine_options_and_events_conform_to_the_components(schema, seed, players, advanced):
    """Every option of every seat is a valid Option whose `send` is a valid Command, and a
    `ready` one is accepted by the rules as it is; every event, as each viewer sees it, is
    valid EventData, and the schema's redaction notes match ``redact_event``."""
    option_ok, command_ok, event_ok = (
        validator(schema, name) for name in ("Option", "Command", "EventData")
    )
    seen_events, seen_options, ready_accepted = set(), set(), 0
    for state, now, new in bot_game(seed, players, advanced):
        for event in new:
            seen_events.add(type(event).__name__)
            assert contract.redaction_is_described(event), event
            for viewer in (0, "spectator", "staff"):
                event_ok.validate(redact_event(event, viewer))
            event_ok.validate(redact_event(event, "spectator", revealed=True))
        for seat in range(players):
            for option in view(state, seat, now=now).get("legal", []):
                option_ok.validate(option)
                command_ok.validate(option["send"])
                seen_options.add(option["command"])
                if option["ready"] and option["command"] != "resign":
                    try:
                        decide(state, seat, decode_command(option["send"]), now=now)
                    except RuleViolation as refused:
                        pytest.fail(f"ready option {option} refused: {refused!r}")
                    ready_accepted += 1
    assert ready_accepted > 20
    assert {"play", "discard", "pass", "resign"} <= seen_options
    assert len(seen_events) >= 10, seen_events
    assert set(EVENT_TYPES) >= seen_events


def test_undo_markers_and_api_events_conform(schema, alice, bob, staff) -> None:
    """The feed's events (the envelope with schema_version) and an undo's marker (of a
    contract: a move that shows nobody a card, so it may be taken back)."""
    game = undoable_game(staff, [alice, bob], [["CONTRACT"], []])
    legal = alice.state(game)["state"]["legal"]
    discard = next(o for o in legal if o["command"] == "discard")
    assert discard["ready"] and discard["send"] == {
        "type": "play",
        "card": discard["card"],
        "discard": True,
    }
    assert play_contract(alice, game, 0).status_code == 201
    undone = alice.post(f"/games/{game}/undo", key=str(uuid.uuid4()))
    assert undone.status_code == 201, undone.json()
    assert undone.json()["events"][0]["data"]["type"] == "Undone"
    check = validator(schema, "Event")
    for reader in (alice, bob):
        feed = reader.get(f"/games/{game}/events").json()
        for event in feed["events"]:
            check.validate(event)
            assert event["schema_version"] == 1
        assert feed["events"][-1]["type"] == "stream.Undone"


@pytest.mark.parametrize("keyword", ["Token", "Bearer", "bearer"])
def test_the_token_is_accepted_as_token_or_bearer(alice, keyword) -> None:
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=alice.user).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{keyword} {token}")
    response = client.get(f"{API}/auth/me")
    assert response.status_code == 200, response.json()
    assert response.json()["username"] == "alice"
    client.credentials(HTTP_AUTHORIZATION=f"{keyword} {uuid.uuid4().hex}")
    assert client.get(f"{API}/auth/me").json()["code"] == "authentication_failed"


def test_the_auth_schemes_say_token_and_bearer(schema) -> None:
    schemes = schema["components"]["securitySchemes"]
    assert schemes["tokenAuth"]["name"] == "Authorization"
    assert "Token <token>" in schemes["tokenAuth"]["description"]
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    me = schema["paths"]["/api/v1/auth/me"]["get"]
    assert {"bearerAuth": []} in me["security"] and {"tokenAuth": []} in me["security"]
    assert schema["paths"]["/api/v1/auth/register"]["post"].get("security") in (None, [{}], [])


def test_request_examples_are_valid_requests(schema) -> None:
    """What "Try it out" sends in /api/v1/docs is valid against the schema."""
    found = 0
    for _method, _path, operation in operations(schema):
        content = (operation.get("requestBody") or {}).get("content", {})
        media = content.get("application/json")
        if not media:
            continue
        body = jsonschema.Draft202012Validator(
            {**media["schema"], "components": schema["components"]}
        )
        for example in (media.get("examples") or {}).values():
            body.validate(example["value"])
            found += 1
    assert found >= 8


@pytest.mark.parametrize("kind", [{}, [], None, 1])
def test_a_command_type_that_is_not_a_string_is_a_bad_command(alice, bob, kind) -> None:
    """Found by schemathesis: an unhashable `type` was a 500."""
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    game = start(alice, table["id"])["game_id"]
    response = alice.command(game, {"type": kind})
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "bad_command"


def _examples(schema: dict, path: str) -> list:
    media = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return [e["value"] for e in media["examples"].values()]


def test_try_it_out_sign_up_and_in_examples_succeed(schema) -> None:
    (register,) = _examples(schema, "/api/v1/auth/register")
    assert APIClient().post(f"{API}/auth/register", register, format="json").status_code == 201
    (credentials,) = _examples(schema, "/api/v1/auth/token")
    assert APIClient().post(f"{API}/auth/token", credentials, format="json").status_code == 200


def test_try_it_out_table_examples_succeed(schema, alice, bob) -> None:
    """The docs page's examples, sent as they are, are accepted."""
    for body in _examples(schema, "/api/v1/tables"):
        table = alice.post("/tables", body)
        assert table.status_code == 201, table.json()
    (join,) = _examples(schema, "/api/v1/tables/{table_id}/join")
    assert bob.post(f"/tables/{table.json()['id']}/join", join).status_code == 201
    (bot,) = _examples(schema, "/api/v1/tables/{table_id}/bots")
    assert alice.post(f"/tables/{table.json()['id']}/bots", bot).status_code == 201


@pytest.mark.parametrize("path", ["events", "events/stream"])
def test_the_feed_refuses_other_methods_and_unknown_formats(alice, path) -> None:
    """Found by schemathesis: the async feed answered TRACE, and ignored ?format=."""
    url = f"{API}/games/{uuid.uuid4()}/{path}"
    response = alice.client.generic("TRACE", url)
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
    assert response["Allow"] == "GET, HEAD"
    response = alice.client.get(url, {"format": "AAA"})
    assert response.status_code == 404 and response.json()["code"] == "not_found"
