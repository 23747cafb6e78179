"""Helpers for driving the API as the cast: JSON requests, idempotency keys, tables."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

from events.models import StoredEvent

API = "/api/v1"
CARD_ID = re.compile(r"^(c\d\d|a(0[1-9]|10))$")  # action cards and ability cards


@dataclass
class Player:
    name: str
    user: Any
    client: APIClient
    bodies: list[Any] = field(default_factory=list)  # every JSON body this player received

    # --- raw requests --------------------------------------------------------------------

    def get(self, path: str, **params: Any) -> Any:
        response = self.client.get(f"{API}{path}", params)
        self._keep(response)
        return response

    def post(self, path: str, body: Any = None, *, key: str | None = None, **headers: Any):
        extra = dict(headers)
        if key is not None:
            extra["HTTP_IDEMPOTENCY_KEY"] = key
        response = self.client.post(
            f"{API}{path}",
            data=json.dumps(body if body is not None else {}),
            content_type="application/json",
            **extra,
        )
        self._keep(response)
        return response

    def _keep(self, response: Any) -> None:
        if response.get("Content-Type", "").startswith("application/json"):
            self.bodies.append(response.json())

    # --- the game ------------------------------------------------------------------------

    def command(self, game_id: Any, command: dict[str, Any], **body: Any):
        return self.post(
            f"/games/{game_id}/commands", {"command": command, **body}, key=str(uuid.uuid4())
        )

    def state(self, game_id: Any) -> dict[str, Any]:
        response = self.get(f"/games/{game_id}")
        assert response.status_code == 200, response.content
        return response.json()


# A table's own fields in POST /tables; anything else a test names is the game's option.
TABLE_FIELDS = {"game", "options", "mode", "seats", "undo", "spectator_delay", "turn_seconds"}
TABLE_FIELDS |= {"turn_action", "abandon_after", "seed", "join", "position"}


def create_table(player: Player, **fields: Any) -> dict[str, Any]:
    """POST /tables with the table's ``fields``; the game's options may come as keywords
    too (``reaction_seconds=20``): they go in ``options``."""
    body = {k: v for k, v in fields.items() if k in TABLE_FIELDS}
    options = {k: v for k, v in fields.items() if k not in TABLE_FIELDS}
    if options:
        body["options"] = {**body.get("options", {}), **options}
    response = player.post("/tables", body)
    assert response.status_code == 201, response.content
    return response.json()


def seat_all(table_id: str, *players: Player) -> None:
    for player in players:
        response = player.post(f"/tables/{table_id}/join")
        assert response.status_code == 201, response.content


def start(player: Player, table_id: str) -> dict[str, Any]:
    response = player.post(f"/tables/{table_id}/start")
    assert response.status_code == 200, response.content
    return response.json()


def started_game(creator: Player, *others: Player, discard: bool = False) -> str:
    """A started casual table of ``creator`` (seat 0, to play) and ``others`` (seats 1,
    2, ...): its id. With ``discard``, ``creator`` has discarded the first card of their
    hand (seat 1 to play)."""
    table = create_table(creator, seats=1 + len(others))
    seat_all(table["id"], *others)
    start(creator, table["id"])
    if discard:
        card = creator.state(table["id"])["state"]["players"][0]["hand"][0]["id"]
        creator.command(table["id"], {"type": "play", "card": card, "discard": True})
    return table["id"]


def event_count(game_id: Any) -> int:
    return StoredEvent.objects.filter(stream_id=game_id).count()


def card_ids(value: Any) -> set[str]:
    """Every JSON string value of the form c01..c56 or a01..a10 anywhere in ``value``."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and CARD_ID.match(item):
            found.add(item)
    return found


def undoable_game(staff: Player, players: list[Player], hands: list[list[str]]) -> str:
    """A started casual table (undo allowed) whose players hold the given kinds first: a
    sandbox's stacked deck, then made casual before it starts (sandboxes allow no undo).
    Undo is refused once anyone saw a card since (a draw at the next turn's start), so
    what can be taken back is a play that opens a reaction window."""
    from games.models import Table
    from tests.service.helpers import hand_stack

    table = create_table(
        staff,
        mode="sandbox",
        seats=len(players),
        join=False,
        stacked_deck=hand_stack(*hands),
        reaction_seconds=300,
    )
    Table.objects.filter(id=table["id"]).update(mode="casual", undo="own_last")
    seat_all(table["id"], *players)
    start(staff, table["id"])
    return str(table["id"])


def play_contract(player: Player, game_id: str, seat: int) -> Any:
    """``seat`` plays a CONTRACT from its hand on the next seat's first mobster: a
    reaction window opens and the turn does not pass."""
    from games.family_business import CARD_KIND

    state = player.state(game_id)["state"]
    card = next(c["id"] for c in state["players"][seat]["hand"] if CARD_KIND[c["id"]] == "CONTRACT")
    other = state["players"][(seat + 1) % len(state["players"])]
    return player.command(
        game_id, {"type": "play", "card": card, "targets": [other["crew"][0]["id"]]}
    )


def discard_other(player: Player, game_id: str, seat: int) -> Any:
    """``seat`` discards its first card that is not a CONTRACT: the turn passes."""
    from games.family_business import CARD_KIND

    state = player.state(game_id)["state"]
    card = next(c["id"] for c in state["players"][seat]["hand"] if CARD_KIND[c["id"]] != "CONTRACT")
    return player.command(game_id, {"type": "play", "card": card, "discard": True})
