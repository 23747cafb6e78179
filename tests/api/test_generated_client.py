"""For every registered game, a client generated with openapi-python-client from that game's
own schema (``/api/v1/schema?game=<name>``) plays a whole game of it against a live server:
sign-up, a table with bots, every move of our seat from a typed `legal` option's `send`, the
feed, the audit trail and the export, all through the generated code (no hand-written HTTP).
The generated models parse every answer, so an answer the schema does not describe fails
here; and the state, the options, their commands and the events arrive as the game's own
generated classes (``<Game>State``, ``<Game>...Command``, ``<Game>...Event``), never as
plain dicts."""

from __future__ import annotations

import importlib
import subprocess
import sys
import uuid
from pathlib import Path
from random import Random
from typing import Any

import pytest

from games.contract_schema import prefix_of
from games.registry import GAMES

pytestmark = pytest.mark.django_db(transaction=True)

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
MAX_MOVES = 2_000


def generate(url: str, folder: Any, package: str) -> Any:
    """The package openapi-python-client generates from the schema at ``url``, imported."""
    config = folder / "generator.yaml"
    config.write_text("post_hooks: []\n")
    generated = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--url",
            url,
            "--meta",
            "none",
            "--output-path",
            str(folder / package),
            "--config",
            str(config),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=180,
    )
    said = generated.stdout + generated.stderr
    # the generator drops a component it cannot process (and what refers to it) with a
    # warning, and carries on: that is a schema a client author would get Any from
    assert "Warning" not in said and "Unable to process" not in said, said
    for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
        del sys.modules[name]
    return importlib.import_module(package)


@pytest.fixture(params=list(GAMES))
def client_of(request, live_server, tmp_path, monkeypatch):
    """(game, its generated package): one client per registered game."""
    game = request.param
    package = f"{game}_client"
    monkeypatch.syspath_prepend(str(tmp_path))
    url = f"{live_server.url}/api/v1/schema?format=json&game={game}"
    return game, generate(url, tmp_path, package)


def test_the_every_game_document_generates_cleanly(live_server, tmp_path, monkeypatch) -> None:
    """The full document (for a backend of several games) generates with no warning, and
    its `GameState` is a union of the games' own state classes."""
    monkeypatch.syspath_prepend(str(tmp_path))
    url = f"{live_server.url}/api/v1/schema?format=json"
    client = generate(url, tmp_path, "every_game_client")
    models = importlib.import_module(f"{client.__name__}.models")
    for game in GAMES:
        assert hasattr(models, f"{prefix_of(game)}State"), game
        assert hasattr(models, f"{prefix_of(game)}GameStartedEvent"), game


def _api(package: str, name: str) -> Any:
    group, operation = name.split("/")
    return importlib.import_module(f"{package}.api.{group}.{operation}")


class Typed:
    """Asserts that what arrives is the game's own generated classes."""

    def __init__(self, game: str, models: Any) -> None:
        self.prefix = prefix_of(game)
        self.models = models

    def own(self, value: Any, suffix: str) -> None:
        name = type(value).__name__
        assert name.startswith(self.prefix) and name.endswith(suffix), (name, suffix)
        assert getattr(self.models, name) is type(value), name  # a generated model class

    def state(self, state: Any) -> None:
        assert type(state) is getattr(self.models, f"{self.prefix}State"), type(state)
        for option in state.legal or []:
            self.own(option, "Option")
            self.own(option.send, "Command")
            for variant in _variants(option):
                self.own(variant, "Command")


def _variants(option: Any) -> list[Any]:
    variants = getattr(option, "variants", None)
    return variants if isinstance(variants, list) else []


def _pick(options: list[Any], rng: Random) -> Any:
    """A ready option other than resigning, and one of its forms: `send` or a variant."""
    ready = [o for o in options if o.ready and o.send.to_dict()["type"] != "resign"]
    if not ready:
        return None
    option = rng.choice(ready)
    return rng.choice([option.send, *_variants(option)])


def test_a_generated_client_of_each_game_plays_a_whole_game(client_of, live_server) -> None:
    game, client = client_of
    package = client.__name__
    models = importlib.import_module(f"{package}.models")
    # closed at the end (with): a kept-alive connection would keep the server's database
    # session open past the test
    with client.Client(base_url=live_server.url, raise_on_unexpected_status=True) as anonymous:
        registered = _api(package, "auth/auth_register").sync(
            client=anonymous,
            body=models.RegisterRequest(username="gen-alice", password="correct-horse-battery"),
        )
    assert isinstance(registered, models.Registered), registered
    # the generator's default scheme is Bearer; the server takes it as well as Token
    with client.AuthenticatedClient(
        base_url=live_server.url, token=registered.token, raise_on_unexpected_status=True
    ) as alice:
        play_a_game(game, package, models, alice)


def play_a_game(game: str, package: str, models: Any, alice: Any) -> None:
    typed = Typed(game, models)
    api = lambda name: _api(package, name)  # noqa: E731 - short for the calls below
    assert api("auth/auth_me").sync(client=alice).username == "gen-alice"

    seats = GAMES[game].min_players
    body = models.TableCreateRequest(game=models.GameEnum(game), seats=seats)
    table = api("tables/tables_create").sync(client=alice, body=body)
    assert isinstance(table, models.Table), table
    for _ in range(seats - 1):
        api("tables/tables_bots_create").sync(
            table.id, client=alice, body=models.AddBotRequest(kind=models.KindEnum.HEURISTIC)
        )
    document = api("tables/tables_start").sync(table.id, client=alice)
    assert isinstance(document, models.Game), document

    rng, moves, waits = Random(game), 0, 0
    while not document.state.over and moves < MAX_MOVES:
        typed.state(document.state)
        command = _pick(document.state.legal or [], rng)
        if command is None:  # nothing for us now: read again (the bots move inline)
            document = api("games/games_retrieve").sync(table.id, client=alice)
            waits += 1
            assert waits < 50, "the game waits for nobody"
            continue
        result = api("games/games_command_create").sync(
            table.id,
            client=alice,
            body=models.GameCommandRequest(command=command, expected_version=document.version),
            # typed UUID, but openapi-python-client 0.29.1 hands header values to httpx
            # unconverted, and httpx takes only str
            idempotency_key=str(uuid.uuid4()),  # type: ignore[arg-type]
        )
        if isinstance(result, models.Error):  # a bot moved first (a window closed, ...)
            assert result.code.value in ("stale_version", "window_closed"), result
            document = api("games/games_retrieve").sync(table.id, client=alice)
            continue
        assert isinstance(result, models.CommandResult), result
        typed.state(result.state)
        for event in result.events:
            typed.own(event, "Event")
            typed.own(event.data, "Event")
        moves += 1
        document = api("games/games_retrieve").sync(table.id, client=alice)
    assert document.state.over, f"not over after {moves} moves"
    assert moves > 0  # our seat played its part, by the typed options alone
    typed.state(document.state)
    assert document.state.revealed

    events: list[Any] = []
    while True:  # the feed in pages
        after = events[-1].seq if events else 0
        feed = api("feed/games_events_list").sync(table.id, client=alice, after=after, limit=500)
        assert isinstance(feed, models.Feed) and feed.revealed
        events.extend(feed.events)
        if not feed.has_more:
            break
    kinds = set()
    for event in events:
        typed.own(event, "Event")
        typed.own(event.data, "Event")
        kinds.add(type(event.data).__name__)
    prefix = prefix_of(game)
    assert {f"{prefix}GameStartedEvent", f"{prefix}GameEndedEvent"} <= kinds, kinds
    audit = api("history/games_audit_retrieve").sync(table.id, client=alice)
    assert [e.seq for e in audit.events] == [e.seq for e in events]
    for event in audit.events:
        typed.own(event, "AuditEvent")
    for at in range(1, len(events) + 1, max(1, len(events) // 6)):  # the replay, typed
        replay = api("history/games_replay_retrieve").sync(table.id, client=alice, at=at)
        assert isinstance(replay, models.Replay) and replay.at == at, replay
        typed.state(replay.state)
    record = api("history/games_export_retrieve").sync(table.id, client=alice)
    assert [e.data.to_dict() for e in record.events] == [e.data.to_dict() for e in events]
    for event in record.events:
        typed.own(event, "RecordEvent")
        typed.own(event.data, "Event")
