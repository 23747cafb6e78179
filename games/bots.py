"""Bot seats: a bot moves when the game awaits it, in this thread (``bots_play``: the
inline mode and scripts) or one move per ``bot_move`` timer."""

from __future__ import annotations

import uuid

from games.clock import bot_seats, bots_inline
from games.commands import derived_command_id, execute
from games.idempotency import CommandOutcome
from games.loading import game_load, table_get
from games.models import Table

BOT_STEP_LIMIT = 100_000


def bots_play(
    *, game_id: uuid.UUID, limit: int = BOT_STEP_LIMIT, table: Table | None = None
) -> int:
    """Let bot seats act while the game waits on one of them, in this thread (the inline
    mode, ``FB_BOTS_INLINE``, and scripts). Returns the commands made. ``table``: the
    game's table with its seats, if the caller has it (no query when it has no bots)."""
    made = 0
    table = table or table_get(game_id, seats=True)
    if not bot_seats(table):
        return 0
    with bots_inline():
        for _ in range(limit):
            if bot_move(game_id=game_id, table=table) is None:
                break
            made += 1
    return made


def bot_move(
    *, game_id: uuid.UUID, version: int | None = None, table: Table | None = None
) -> CommandOutcome | None:
    """One move of the first bot seat the game is waiting on, at ``version`` (None: the
    current one). Nothing when the game has moved past ``version`` (whoever moved it
    scheduled the next bot move), waits on no bot, or the bot lets a window run out.

    The command id is ``bot:<seat>:<version>``: a duplicate task makes no second move."""
    table = table or table_get(game_id, seats=True)
    seats = bot_seats(table)
    if not seats or table.status != Table.Status.STARTED:
        return None  # (finished: over, or ended by a ruling the engine does not know of)
    loaded = game_load(game_id=game_id, table=table)
    if version is not None and version != loaded.version:
        return None
    definition = loaded.definition
    status = definition.status(loaded.state)
    due = [] if status.over else [s for s in status.awaiting if s in seats]
    if not due:
        return None
    seat = due[0]
    command = definition.bot_command(loaded.state, seat, seats[seat], f"{game_id}:{seat}")
    if command is None:
        return None
    return execute(
        game_id=game_id,
        seat=seat,
        actor=f"bot:{seat}",
        command=command,
        command_id=derived_command_id(game_id, f"bot:{seat}:{loaded.version}"),
        table=table,
    )
