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


def create_table(player: Player, **options: Any) -> dict[str, Any]:
    response = player.post("/tables", options)
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
