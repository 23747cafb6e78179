"""Finished ranked games for the ratings' tests, played through the service."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User

from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import Table
from games.service import game_command_execute

RANKED = Table.Mode.RANKED


def bot_game(game: str, kinds: list[str], *, mode: str = RANKED) -> Table:
    """A ranked table of bots (``kinds``, by seat) played to its end inline."""
    table = table_create(created_by=None, game=game, seats=len(kinds), mode=mode)
    for kind in kinds:
        seat_add_bot(table_id=table.id, bot=kind)
    table_start(table_id=table.id, run_bots=True)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, "the bots did not finish the game"
    return table


def resigned_game(game: str, players: list[User], resign: list[int], *, bots: int = 0) -> Table:
    """A ranked table of ``players`` (seats 0..) and ``bots`` heuristic bots; the seats in
    ``resign`` resign in that order (each must be a person's)."""
    table = table_create(created_by=None, game=game, seats=len(players) + bots, mode=RANKED)
    for user in players:
        seat_join(table_id=table.id, user=user)
    for _ in range(bots):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table_start(table_id=table.id, run_bots=True)
    for seat in resign:
        game_command_execute(
            game_id=table.id,
            seat=seat,
            actor=f"user:{players[seat].pk}",
            command={"type": "resign"},
            command_id=uuid.uuid4(),
        )
    table.refresh_from_db()
    return table
