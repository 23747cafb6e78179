"""The typed contract: operation ids and descriptions, per-operation error codes, bounds,
the auth schemes, and the engine's commands, events and options checked against the
schema components that ``api.contract`` derives from them."""

from __future__ import annotations

import ast
import inspect
import uuid
from pathlib import Path
from random import Random

import jsonschema
import pytest
import yaml
from django.urls import get_resolver
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from api.errors import ALL_CODES, status_of
from api.explain_schema import SHARED_COMPONENTS
from api.schema import ERROR_EXTRA as SERVICE_EXTRA
from api.schema import OPERATIONS
from games.contract_schema import prefix_of, redaction_is_described
from games.core import RuleViolation as CoreRuleViolation
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
from tests.generic import random_play

contract = CONTRACTS["family_business"]  # Family Business's typed commands and events

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]

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
    """Each registered game's state, by its `game`; its events, by their type's prefix;
    and its commands, in the body's `AnyCommand`."""
    components = schema["components"]["schemas"]
    mapping = components["GameState"]["discriminator"]["mapping"]
    assert mapping == {g: f"#/components/schemas/{prefix_of(g)}State" for g in GAMES}
    assert {c["$ref"] for c in components["AnyCommand"]["anyOf"]} == {
        f"#/components/schemas/{prefix_of(g)}Command" for g in GAMES
    }
    state = validator(schema, "GameState")
    for game in GAMES:  # no game's state is open: a made-up field is refused
        with pytest.raises(jsonschema.ValidationError):
            state.validate({"game": game, "viewer": 0, "revealed": False, "surprise": 1})
        # what every game explains (api.explain_schema): a state's outcome, an option's label
        own = components[f"{prefix_of(game)}State"]
        assert "outcome" in own["required"]
        assert own["properties"]["outcome"]["oneOf"][0] == {"$ref": "#/components/schemas/Outcome"}
        option = components[f"{prefix_of(game)}Option"]
        assert "label" in option["required"] and "variant_labels" in option["properties"]
    feed = validator(schema, "Feed")
    event = {"seq": 1, "actor": "system", "origin": None, "recorded_at": "2025-01-01T00:00:00Z"}
    event |= {"schema_version": 1}
    page = {"version": 1, "has_more": False, "revealed": False, "finished": False}
    page |= {"server_time": 0}
    goofspiel_shown = {"type": "PrizeShown", "round": 1, "prize": 3}
    feed.validate({**page, "events": [{**event, "type": "goofspiel.PrizeShown",
                                       "data": goofspiel_shown}]})  # fmt: skip
    for game in set(GAMES) - {"goofspiel"}:  # another game's event under its type: refused
        with pytest.raises(jsonschema.ValidationError):
            feed.validate({**page, "events": [{**event, "type": f"{game}.PrizeShown",
                                               "data": goofspiel_shown}]})  # fmt: skip
    command = validator(schema, "AnyCommand")
    command.validate({"type": "bid", "round": 1, "card": 3})
    for bad in ({"round": 1}, {"type": "bid", "round": 1, "card": 3, "surprise": True}):
        with pytest.raises(jsonschema.ValidationError):
            command.validate(bad)


def _refs(node) -> set[str]:
    found = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                found.add(value.rsplit("/", 1)[-1])
            else:
                found |= _refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value)
    return found


def _reached(components: dict, roots: list[str]) -> set[str]:
    reached, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(_refs(components[name]))
    return reached


def _open_spots(node, path: str = "") -> list[str]:
    """Where a schema allows anything: an empty schema, or an object of any properties
    (a field typed `dict[str, Any]` says why in its description)."""
    found = []
    if isinstance(node, dict):
        if node == {} or (node.get("additionalProperties") is True and "description" not in node):
            found.append(path)
        for key, value in node.items():
            if key not in ("examples", "default", "enum", "discriminator"):
                found += _open_spots(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _open_spots(value, f"{path}/{i}")
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_is_typed_under_names_of_its_own(schema, game) -> None:
    """The bar: every registered game has a contract, and its state, commands, events and
    options are typed (closed objects, nothing left open unexplained) under component names
    that carry its prefix, so a generated client never merges two games' types (the
    platform's shared shapes aside, ``api.explain_schema.SHARED_COMPONENTS``)."""
    assert game in CONTRACTS, f"{game} has no contract in games.registry.CONTRACTS"
    components = schema["components"]["schemas"]
    prefix = prefix_of(game)
    roots = [f"{prefix}{n}" for n in ("State", "Command", "EventData", "Option")]
    reached = _reached(components, roots)
    # beside its own, only what every game shares the same shape of (a finished game's
    # outcome, games.core.Outcome): one type for every game, never one game's
    own = {name for name in reached if name.startswith(prefix)}
    assert reached - own <= set(SHARED_COMPONENTS), reached - own
    for other in set(GAMES) - {game}:  # no prefix is another's beginning
        assert not prefix_of(other).startswith(prefix), (game, other)
    for name in reached:
        assert _open_spots(components[name]) == [], name
        if components[name].get("type") == "object":
            assert components[name]["additionalProperties"] is False, name
    events = components[f"{prefix}EventData"]["discriminator"]["mapping"]
    commands = components[f"{prefix}Command"]["discriminator"]["mapping"]
    assert len(events) > 2 and commands, (events, commands)
    for kind, target in {**events, **commands}.items():
        schema_ = components[target.rsplit("/", 1)[-1]]
        assert schema_["properties"]["type"]["enum"] == [kind]


def test_one_games_schema_holds_that_game_alone(django_db_blocker) -> None:
    """`?game=<name>`: the game's own components, none of another game's, and the answers
    point straight at them; an unknown game is refused."""
    with django_db_blocker.unblock():
        client = APIClient()
        for game in GAMES:
            response = client.get(f"{API}/schema", {"game": game})
            assert response.status_code == 200
            document = yaml.safe_load(response.content)
            validate_schema(document)  # a valid OpenAPI 3.1 document of its own
            names = set(document["components"]["schemas"])
            prefix = prefix_of(game)
            for other in set(GAMES) - {game}:
                assert not {n for n in names if n.startswith(prefix_of(other))}, other
            assert {"GameState", "AnyCommand", "Event", f"{prefix}State"} - names == {
                "GameState", "AnyCommand", "Event"
            }  # fmt: skip
            state = document["components"]["schemas"]["Game"]["properties"]["state"]
            assert state["allOf"] == [{"$ref": f"#/components/schemas/{prefix}State"}]
            body = document["components"]["schemas"]["GameCommandRequest"]
            assert body["properties"]["command"]["allOf"] == [
                {"$ref": f"#/components/schemas/{prefix}Command"}
            ]
            feed = document["components"]["schemas"]["Feed"]["properties"]["events"]
            assert feed["items"] == {"$ref": f"#/components/schemas/{prefix}Event"}
        refused = client.get(f"{API}/schema", {"game": "chess", "format": "json"})
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert "chess" in refused.json()["message"]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_games_engine_answers_conform_to_its_components(schema, game) -> None:
    """A whole bot game of each registered game on its engine: every event as each viewer
    sees it (and revealed) is valid `<Game>EventData` and hidden as the schema says; every
    view of every viewer, as the service sends it, is a valid `<Game>State`; every option
    a valid `<Game>Option`, whose `send` (and each variant) is a valid `<Game>Command`."""
    definition = GAMES[game]
    prefix = prefix_of(game)
    state_ok, option_ok, command_ok, event_ok = (
        validator(schema, f"{prefix}{name}") for name in ("State", "Option", "Command", "EventData")
    )
    seats = definition.min_players + 1
    played = random_play.play(definition, seats, f"contract-{game}", ["heuristic"] * seats)
    viewers: list = [*range(seats), "spectator", "staff"]
    redaction = CONTRACTS[game].REDACTION
    extra = schema["components"]["schemas"]["ErrorExtra"]["properties"]
    own_keys = {*SERVICE_EXTRA["properties"], *CONTRACTS[game].REFUSAL_DATA}
    closed_extra = jsonschema.Draft202012Validator(
        {
            "type": "object",
            "properties": {k: v for k, v in extra.items() if k in own_keys},
            "additionalProperties": False,
            "components": schema["components"],
        }
    )
    seen_events, seen_options, refused = set(), set(), 0
    for event in played.events:
        seen_events.add(type(event).__name__)
        shown = definition.redact_event(event, "spectator")
        assert redaction_is_described(redaction, event, shown), shown
        for viewer in viewers:
            event_ok.validate(definition.redact_event(event, viewer))
        event_ok.validate(definition.redact_event(event, "spectator", revealed=True))
    moves = played.moves
    for move in moves[:: max(1, len(moves) // 150)] + moves[-1:]:
        state = played.state_after(move.last)
        over = definition.status(state).over
        for viewer in viewers:
            view = definition.view(state, viewer, now=move.now)
            # what games.reads.state_view adds to every game's view
            outcome = definition.outcome(state)
            service = {"game": game, "viewer": viewer, "revealed": over}
            service["outcome"] = outcome.as_json() if outcome is not None else None
            state_ok.validate({**view, **service})
            for n, option in enumerate(view.get("legal", [])):
                option_ok.validate(option)
                for command in [option["send"], *option.get("variants", [])]:
                    command_ok.validate(command)
                    seen_options.add(command["type"])
                if n < 2 and not over:  # its refusals' data: typed, and no key undeclared
                    for refusal in refusals(definition, state, viewer, option["send"], move.now):
                        closed_extra.validate(refusal.data)
                        refused += 1
    assert definition.status(played.state_after(len(played.events))).over, "not over"
    assert len(seen_events) >= 5 and seen_options, (seen_events, seen_options)
    assert refused > 20, refused


JUNK = (None, -1, 99, "zz", [], {}, True)


def refusals(definition, state, seat: int, command: dict, now: int):
    """The refusals of ``command`` spoiled field by field (and of an unknown type)."""
    spoiled = [{"type": "zz"}]
    for key in set(command) - {"type"}:
        spoiled += [{**command, key: junk} for junk in JUNK]
    for body in spoiled:
        try:
            definition.decide(state, seat, definition.decode_command(body), now=now)
        except CoreRuleViolation as refused:
            yield refused


def _raised_keys(package: Path) -> set[str]:
    """Every key a rules package's refusals may carry, read from its code: the keywords of
    its ``RuleViolation(...)`` calls and of its helpers that pass ``**data`` on to one, and
    the keys put in a dict it passes as ``**data``."""
    trees = [ast.parse(p.read_text()) for p in sorted(package.glob("*.py"))]

    def raises(call: ast.AST, names: set[str]) -> bool:
        return isinstance(call, ast.Call) and (
            getattr(call.func, "id", getattr(call.func, "attr", None)) in names
        )

    forwarding = {"RuleViolation"}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.args.kwarg is not None:
                for call in ast.walk(node):
                    if raises(call, {"RuleViolation"}) and any(
                        k.arg is None for k in call.keywords
                    ):
                        forwarding.add(node.name)
    keys: set[str] = set()
    for tree in trees:
        for function in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            passed = set()
            for call in ast.walk(function):
                if raises(call, forwarding):
                    keys |= {k.arg for k in call.keywords if k.arg}
                    passed |= {
                        k.value.id for k in call.keywords if k.arg is None
                        and isinstance(k.value, ast.Name)
                    }  # fmt: skip
            for node in ast.walk(function):  # data = {"key": ...}; data.update(key=...)
                if isinstance(node, ast.Dict) and passed:
                    keys |= {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "attr", None) == "update"
                    and getattr(node.func.value, "id", None) in passed
                ):
                    keys |= {k.arg for k in node.keywords if k.arg}
    return keys


@pytest.mark.parametrize("game", list(GAMES))
def test_every_key_of_a_games_refusals_is_typed(schema, game) -> None:
    """Every key the game's code puts in a refusal's `data` is in its contract's
    `REFUSAL_DATA`, hence typed in the error's `extra`."""
    raised = _raised_keys(REPO / "games" / game)
    assert raised, game
    assert raised <= set(CONTRACTS[game].REFUSAL_DATA), raised - set(CONTRACTS[game].REFUSAL_DATA)
    extra = schema["components"]["schemas"]["ErrorExtra"]["properties"]
    assert set(CONTRACTS[game].REFUSAL_DATA) <= set(extra)


def test_the_command_union_has_every_client_command_with_a_discriminator(schema) -> None:
    union = schema["components"]["schemas"]["FamilyBusinessCommand"]
    assert set(union["discriminator"]["mapping"]) == set(COMMAND_TYPES) - {"close_window"}
    check = validator(schema, "FamilyBusinessCommand")
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
        validator(schema, f"FamilyBusiness{name}") for name in ("Option", "Command", "EventData")
    )
    seen_events, seen_options, ready_accepted = set(), set(), 0
    for state, now, new in bot_game(seed, players, advanced):
        for event in new:
            seen_events.add(type(event).__name__)
            shown = redact_event(event, "spectator")
            assert redaction_is_described(contract.REDACTION, event, shown), event
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
    check = validator(schema, "FamilyBusinessEvent")
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


def test_request_examples_are_valid_requests(schema, django_db_blocker) -> None:
    """What "Try it out" sends in /api/v1/docs is valid against the schema: in the every-game
    document and in each game's own (whose command examples are that game's alone)."""
    documents = {"every game": schema}
    with django_db_blocker.unblock():
        for game in GAMES:
            response = APIClient().get(f"{API}/schema", {"game": game})
            documents[game] = yaml.safe_load(response.content)
    for name, document in documents.items():
        found = 0
        for _method, _path, operation in operations(document):
            content = (operation.get("requestBody") or {}).get("content", {})
            media = content.get("application/json")
            if not media:
                continue
            body = jsonschema.Draft202012Validator(
                {**media["schema"], "components": document["components"]}
            )
            for example in (media.get("examples") or {}).values():
                body.validate(example["value"])
                found += 1
        assert found >= 5, name
        command = document["paths"]["/api/v1/games/{game_id}/commands"]["post"]
        examples = command["requestBody"]["content"]["application/json"]["examples"]
        games = list(GAMES) if name == "every game" else [name]
        shown = {g for g in GAMES if any(n.startswith(prefix_of(g)) for n in examples)}
        assert shown == set(games), (name, list(examples))


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
