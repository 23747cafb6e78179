"""Games for the webhook tests: humans from the cast, played to the end by the random bot's
choices (through the service, as the users they are)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.lobby import seat_join, table_create, table_start
from games.models import Table
from games.reviews import ruling_record
from games.service import game_command_execute, game_load
from tests.factories import UserFactory
from tests.windows import bot_move
from webhooks import services
from webhooks.models import Subscription


def users(*names: str) -> list[AbstractBaseUser]:
    return [UserFactory(username=name) for name in names]


def started_table(players: list[AbstractBaseUser], **options: Any) -> Table:
    table = table_create(created_by=players[0], seats=len(players), **options)
    for user in players:
        seat_join(table_id=table.id, user=user)
    return table_start(table_id=table.id)


def move(table: Table, players: list[AbstractBaseUser]) -> bool:
    """One move by the first awaited seat (the random bot's choice, or a pass); False
    once the game is over."""
    loaded = game_load(game_id=table.id)
    state = loaded.state
    if state.over:
        return False
    picked = bot_move(table.id, state, table.game, lambda seat: f"{table.id}:{seat}:test")
    if picked is None:
        return True  # every seat passed (sealed): the window ran its time
    seat, command = picked
    game_command_execute(
        game_id=table.id,
        seat=seat,
        actor=f"user:{players[seat].pk}",
        command=command,
        command_id=uuid.uuid4(),
    )
    return True


def play_out(table: Table, players: list[AbstractBaseUser], limit: int = 5000) -> int:
    moves = 0
    while moves < limit and move(table, players):
        moves += 1
    return moves


def subscribe(owner: AbstractBaseUser, url: str, kinds: list[str], **kw: Any) -> Subscription:
    return services.subscription_create(owner=owner, url=url, kinds=kinds, **kw)


def rule(table: Table, kind: str, winners: list[int] | None = None) -> dict[str, Any]:
    """A ruling recorded in this process by a new director, as the API would (``POST
    /games/{id}/rulings``)."""
    director = UserFactory(username=f"director-{uuid.uuid4().hex[:8]}", is_staff=True)
    return ruling_record(
        table=table, user=director, kind=kind, reason=f"{kind}: a reason", winners=winners or []
    )
