"""The read models an append keeps current, each owning its SQL beside its model: the
game clock (``games.models.GameClock``) and a table's end (``games.models.Table``).

Each is a typed object the store runs in the statement that appends the events
(``events.store.Projection``), so it commits with them or not at all. A tournament
director's ruling that ends a running game writes two of them without an append, in its own
transaction (``games.reviews``): ``ClockCleared`` and ``TableFinished``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from games.core import Window
from games.models import Table

_CLOCK_UPSERT = """
INSERT INTO games_gameclock AS c
    (game_id, version, window_id, window_deadline_ms, turn_key, turn_deadline_ms,
     bot_due_ms, updated_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, now())
ON CONFLICT (game_id) DO UPDATE SET
    version = EXCLUDED.version,
    window_id = EXCLUDED.window_id,
    window_deadline_ms = EXCLUDED.window_deadline_ms,
    -- the same step keeps the deadline it started with (an undo, a resign elsewhere)
    turn_deadline_ms = CASE
        WHEN c.turn_key = EXCLUDED.turn_key AND EXCLUDED.turn_key <> ''
        THEN c.turn_deadline_ms ELSE EXCLUDED.turn_deadline_ms END,
    turn_key = EXCLUDED.turn_key,
    bot_due_ms = EXCLUDED.bot_due_ms,
    updated_at = EXCLUDED.updated_at
RETURNING turn_deadline_ms
"""


@dataclass(frozen=True)
class ClockUpsert:
    """The game's clock row at ``version``; returns the turn deadline it keeps (the
    step's first one while the step lasts)."""

    game_id: uuid.UUID
    version: int
    window_id: str
    window_deadline_ms: int | None
    turn_key: str
    turn_deadline_ms: int | None
    bot_due_ms: int | None

    @property
    def sql(self) -> str:
        return _CLOCK_UPSERT

    @property
    def params(self) -> Sequence[Any]:
        return [
            self.game_id,
            self.version,
            self.window_id,
            self.window_deadline_ms,
            self.turn_key,
            self.turn_deadline_ms,
            self.bot_due_ms,
        ]

    @staticmethod
    def kept_deadline(returned: dict[str, Any] | None) -> int | None:
        value = (returned or {}).get("turn_deadline_ms")
        return None if value is None else int(value)


def clock_row_of(
    game_id: uuid.UUID,
    version: int,
    window: Window | None,
    turn_key: str,
    turn_deadline: int | None,
    bot_due: int | None,
) -> ClockUpsert:
    return ClockUpsert(
        game_id,
        version,
        window.id if window is not None else "",
        window.deadline if window is not None else None,
        turn_key,
        turn_deadline,
        bot_due,
    )


def clock_upsert_now(upsert: ClockUpsert) -> int | None:
    """Run the upsert on its own (in the caller's transaction); the kept turn deadline."""
    with connection.cursor() as cursor:
        cursor.execute(upsert.sql, list(upsert.params))
        row = cursor.fetchone()
    return None if row is None or row[0] is None else int(row[0])


@dataclass(frozen=True)
class TableFinished:
    """The table's status once its game's last event is appended."""

    table_id: uuid.UUID

    @property
    def sql(self) -> str:
        return "UPDATE games_table SET status = %s WHERE id = %s RETURNING id"

    @property
    def params(self) -> Sequence[Any]:
        return [Table.Status.FINISHED, self.table_id]


@dataclass(frozen=True)
class ClockCleared:
    """The game waits for nothing any more (a tournament director's ruling ended it): no
    window, turn or bot is due, and no clock loop's claim holds the row. Run first in the
    ruling's transaction, it takes the row's lock (an upsert, in case there is none), so an
    append in flight commits before the ruling reads the game's version. The row keeps the
    version of the last append."""

    game_id: uuid.UUID

    @property
    def sql(self) -> str:
        return """
INSERT INTO games_gameclock AS c (game_id, version, window_id, turn_key, updated_at)
VALUES (%s, 0, '', '', now())
ON CONFLICT (game_id) DO UPDATE SET
    window_id = '', window_deadline_ms = NULL, turn_key = '', turn_deadline_ms = NULL,
    bot_due_ms = NULL, claimed_until_ms = NULL, updated_at = now()
RETURNING game_id
"""

    @property
    def params(self) -> Sequence[Any]:
        return [self.game_id]
