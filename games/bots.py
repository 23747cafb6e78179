"""Bot seats: a bot moves when the game awaits it, in this thread (``bots_play``: the
inline mode and scripts) or one move per ``bot_move`` timer."""

from __future__ import annotations

import uuid

from games import sealing
from games.clock import bot_seats, bots_inline, clock_ms
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
    scheduled the next bot move), waits on no bot, or the bot lets a window run out. At a
    table of people a bot's pass is sealed (``games.sealing``): every bot the open window
    waits on answers in this call, and when none of them appended anything, nothing.

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
    if status.window is not None and status.window.deadline <= clock_ms():
        # overdue (a start position's window, a slow queue): the clock closes it, and a
        # bot's answer would only be refused (window_closed)
        return None
    if status.window is not None:
        # at a table of people a bot's pass is sealed (games.sealing): the rules still
        # wait on it, so a bot that passed on this window is not asked again
        due = [s for s in due if sealing.pass_of(game_id, s, status.window) is None]
    for seat in due:
        command = definition.bot_command(loaded.state, seat, seats[seat], f"{game_id}:{seat}")
        if command is None:
            continue
        outcome = execute(
            game_id=game_id,
            seat=seat,
            actor=f"bot:{seat}",
            command=command,
            command_id=derived_command_id(game_id, f"bot:{seat}:{loaded.version}"),
            table=table,
        )
        if outcome.last_seq or status.window is None:
            return outcome  # appended (or no window): whoever moved schedules the next
        # sealed: nothing appended and no timer set, so the next bot answers now
    # every bot the window waits on has answered (sealed) or lets it run out: nothing for
    # the game to see, and the timer that asked may be forgotten
    return None
