"""Fuzz the API from its own OpenAPI schema (schemathesis): no 5xx, and every answer
conforms to the schema (status code, content type, headers, body).

The server is gunicorn on the test database; requests carry the token of a user seated at
a started game, whose id most examples use as their path parameter (random ids get their
share too). Both runs are made once per registered game, so every game's answers are
checked against the schema (its typed contract, or its open shape until it has one).
Examples are bounded and derandomized, so a run is quick and repeatable.

Two routes are special-cased: ``DELETE /auth/token`` (it would revoke the fuzzer's own
token) and ``DELETE /auth/session`` run last; the server-sent events stream and the
long-poll are given short lifetimes through the server's settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.models import Table
from games.registry import game_names, get_game
from tests.generic.helpers import started

pytestmark = pytest.mark.django_db(transaction=True)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
POSITIVE_EXAMPLES = 12
NEGATIVE_EXAMPLES = 6
LAST = {("DELETE", "/api/v1/auth/session"), ("DELETE", "/api/v1/auth/token")}
GAMES = list(game_names())


def seated_table(game: str) -> tuple[Table, str]:
    """A started table of ``game`` with people only (up to three), and the token of the
    user in seat 0."""
    table = started(game, humans=min(3, get_game(game).max_players))
    user = table.seat_set.get(position=0).user
    return table, Token.objects.create(user=user).key


def fuzz(operation, mode: GenerationMode, examples: int, base_url: str, headers, ids) -> None:
    fixed = {name: ids[name] for name in ids if f"{{{name}}}" in operation.path}
    strategy = operation.as_strategy(generation_mode=mode)
    if fixed and mode == GenerationMode.POSITIVE:
        strategy = operation.as_strategy(generation_mode=mode, path_parameters=fixed)

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def check(case) -> None:
        case.call_and_validate(base_url=base_url, headers=headers, checks=CHECKS, timeout=30)

    check()


@pytest.mark.parametrize("game", GAMES)
def test_the_api_survives_fuzzing_from_its_schema(webs, game) -> None:
    table, token = seated_table(game)
    web = webs(FB_FEED_MAX_WAIT="1", FB_SSE_LIFETIME="1", FB_SSE_HEARTBEAT="1")
    schema = schemathesis.openapi.from_url(f"{web.url}/api/v1/schema")
    headers = {"Authorization": f"Token {token}"}
    ids = {"game_id": str(table.id), "table_id": str(table.id)}
    operations = [result.ok() for result in schema.get_all_operations()]
    operations.sort(key=lambda op: (op.method.upper(), op.path) in LAST)
    assert len(operations) >= 20, [f"{op.method} {op.path}" for op in operations]
    for operation in operations:
        for mode, examples in ((GenerationMode.POSITIVE, POSITIVE_EXAMPLES),
                               (GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES)):  # fmt: skip
            raw = operation.definition.raw
            if mode == GenerationMode.NEGATIVE and not (
                raw.get("parameters") or raw.get("requestBody")
            ):
                continue  # nothing to make invalid
            try:
                fuzz(operation, mode, examples, web.url, headers, ids)
            except Unsatisfiable:
                continue  # no invalid request the schema can describe (plain strings)
            except Exception as exc:
                exc.add_note(f"operation: {operation.method.upper()} {operation.path} ({mode})")
                raise


# Schema-valid requests that the rules or the game's state may still refuse: positive data
# counts as accepted with one of these (schemathesis' default: 2xx, 401, 403, 404).
ACCEPTED = ["2xx", "401", "403", "404", "409", "422"]
# Operations where a schema-valid request can still be a 400 for a reason no schema can
# state: a taken username, a wrong password, a seat beyond the table's size, a command of
# the advanced rules at a base table, tables other than open without mine=true.
MAY_BE_400 = (
    "auth_register",
    "auth_token_create",
    "auth_session_create",
    "tables_list",
    "tables_create",
    "tables_join",
    "tables_bots_create",
    "games_command_create",
)


def schemathesis_config(game_id: str) -> str:
    def statuses(values: list[str]) -> str:
        return "[" + ", ".join(f'"{v}"' for v in values) + "]"

    lines = [
        # the game routes play the fuzzer's own game (the links make new tables and games)
        "[parameters]",
        f'"path.game_id" = "{game_id}"',
        "",
        "[checks.positive_data_acceptance]",
        f"expected-statuses = {statuses(ACCEPTED)}",
    ]
    for operation_id in MAY_BE_400:
        lines += [
            "",
            "[[operations]]",
            f'include-operation-id = "{operation_id}"',
            f"checks.positive_data_acceptance.expected-statuses = {statuses([*ACCEPTED, '400'])}",
        ]
    # Unknown headers are not errors (proxies add their own); schemathesis would send one
    # and expect a refusal. Only the stream declares a header that alone makes a request.
    lines += [
        "",
        "[[operations]]",
        'include-operation-id = "games_events_stream"',
        "generation.allow-extra-parameters = false",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", GAMES)
def test_schemathesis_with_every_check_and_stateful_links(webs, tmp_path, game) -> None:
    """The CLI with --checks all and every phase, the stateful one following the schema's
    links (create a table, seat a bot, start, play), on a table of each game: no 5xx, no
    schema violation."""
    table, token = seated_table(game)
    web = webs(FB_FEED_MAX_WAIT="1", FB_SSE_LIFETIME="1", FB_SSE_HEARTBEAT="1")
    config = tmp_path / "schemathesis.toml"
    config.write_text(schemathesis_config(str(table.id)))
    arguments = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file",
        str(config),
        "run",
        f"{web.url}/api/v1/schema?format=json",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        "8",
        "--max-time",
        "60",  # per game
        "--workers",
        "1",
        "--header",
        f"Authorization: Token {token}",
        # these two sign the fuzzer out; the first test above runs them last
        "--exclude-operation-id",
        "auth_token_destroy",
        "--exclude-operation-id",
        "auth_session_destroy",
        "--generation-deterministic",
    ]
    for attempt in range(2):
        result = subprocess.run(
            arguments,
            capture_output=True,
            text=True,
            timeout=400,
            cwd=tmp_path,  # its cache folder (.schemathesis/) stays out of the repository
        )
        # A crash of schemathesis itself (seen once: "SystemError: AST constructor
        # recursion depth mismatch" in its coverage phase) is not a finding about the
        # server: run again, once. Any failure it reports still fails the test.
        crashed = "Runtime Error" in result.stdout and "FAILURES" not in result.stdout
        if result.returncode == 0 or not crashed or attempt:
            break
    assert result.returncode == 0, result.stdout[-12000:] + result.stderr[-3000:]
