"""A feed server process (the production shape) and a started game of the cast for the
live feed tests; moves are made by this test process, as by another web server."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterable
from typing import Any

import requests
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from events.models import StoredEvent
from games.service import from_row, game_command_execute, game_load
from tests.api.helpers import card_ids
from tests.faults.conftest import Web
from tests.service.helpers import CAST, human_table

# This server's limits (the tests below rely on them).
FEED_ENV = {"FB_FEED_MAX_PER_USER": "3", "FB_FEED_DB_THREADS": "4"}


def token_headers(name: str) -> dict[str, str]:
    token = Token.objects.get_or_create(user=User.objects.get(username=name))[0].key
    return {"Authorization": f"Token {token}"}


def started_game(players: int = 3) -> tuple[uuid.UUID, int]:
    """A started casual table of alice, bob (and carol): its id and version."""
    table = human_table(players)
    return table.id, game_load(game_id=table.id).version


def discard(name: str, game_id: uuid.UUID) -> int:
    """``name`` (whose turn it is) discards a card; the new last seq."""
    seat = CAST.index(name)
    state = game_load(game_id=game_id).state
    card = state.players[seat].hand[0]
    outcome = game_command_execute(
        game_id=game_id,
        seat=seat,
        actor=f"user:{name}",
        command={"type": "play", "card": card, "discard": True},
        command_id=uuid.uuid4(),
    )
    return outcome.last_seq


def long_poll(web: Web, name: str, game_id: Any, after: int, wait: float) -> requests.Response:
    """``name``'s long-poll for the events after ``after``, waiting up to ``wait`` s."""
    return requests.get(
        f"{web.url}/api/v1/games/{game_id}/events",
        params={"after": after, "wait": wait},
        headers=token_headers(name),
        timeout=wait + 30,
    )


def waiting_long_poll(
    web: Web, name: str, game_id: Any, after: int, wait: float
) -> tuple[dict[str, Any], threading.Thread]:
    """``long_poll`` in a thread of its own, started: the dict gets its ``response`` and,
    once it came, ``at`` (time.monotonic())."""
    answer: dict[str, Any] = {}

    def poll() -> None:
        answer["response"] = long_poll(web, name, game_id, after, wait)
        answer["at"] = time.monotonic()

    waiter = threading.Thread(target=poll)
    waiter.start()
    return answer, waiter


def read_sse(
    web: Web,
    name: str,
    game_id: uuid.UUID,
    *,
    until_seq: int,
    last_event_id: int | None = None,
    timeout: float = 20,
) -> list[dict[str, Any]]:
    """The messages of ``name``'s event stream until one with id ``until_seq`` (ids as
    ints, data parsed), then the connection is closed."""
    headers = {**token_headers(name), "Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    messages: list[dict[str, Any]] = []
    with requests.get(
        f"{web.url}/api/v1/games/{game_id}/events/stream",
        headers=headers,
        stream=True,
        timeout=timeout,
    ) as response:
        assert response.status_code == 200, response.text
        fields: dict[str, Any] = {}
        for line in response.iter_lines(decode_unicode=True):
            if line:
                name_, _, value = line.partition(": ")
                if not line.startswith(":"):
                    fields[name_] = value
                continue
            if not fields:
                continue
            if "id" in fields:
                fields["id"] = int(fields["id"])
                fields["data"] = json.loads(fields["data"])
                fields["received_at"] = time.time()
            messages.append(fields)
            if fields.get("id", 0) >= until_seq or fields.get("event") == "end":
                break
            fields = {}
    return messages


def follow_stream(web: Web, name: str, game_id: uuid.UUID, timeout: float = 300) -> list[Any]:
    """Every event document of ``name``'s stream to the end of the game, reconnecting with
    ``Last-Event-ID`` whenever the server ends the stream (its lifetime). Each document
    gets ``_received_at`` (epoch seconds)."""
    documents: list[Any] = []
    last = None
    while True:
        messages = read_sse(
            web, name, game_id, until_seq=10**9, last_event_id=last, timeout=timeout
        )
        documents += [
            {**m["data"], "_received_at": m["received_at"]} for m in messages if "id" in m
        ]
        if documents:
            last = documents[-1]["seq"]
        if any(m.get("event") == "end" for m in messages):
            return documents


def is_public(row: StoredEvent) -> bool:
    """Events that show their cards face up to everyone."""
    return row.type.endswith(
        (".CardPlayed", ".CounterPlayed", ".PlayerOut", ".ButcherUsed", ".AbilityAssigned")
    )


def hidden_cards(
    game: Any, rows: list[StoredEvent], viewers: Iterable[Any]
) -> dict[int, dict[Any, set[str]]]:
    """For each event's seq, each viewer's (a seat or "spectator") cards hidden just after
    it: the deck and the other seats' hands, less every card shown face up so far."""
    viewers = tuple(viewers)
    state = game.empty_state()
    public: set[str] = set()
    hidden: dict[int, dict[Any, set[str]]] = {}
    for row in rows:
        event = from_row(game, row)
        state = game.evolve(state, event)
        public |= {c for c in card_ids(game.encode_event(event)) if is_public(row)}
        deck = set(state.deck)
        hidden[row.seq] = {
            viewer: (deck | {c for p in state.players if p.seat != viewer for c in p.hand}) - public
            for viewer in viewers
        }
    return hidden
