"""The notices of a game's events after the relay's cursor (``games.notices``), from its
state folded on from where the relay left it.

The relay compares the game's status before and after each command, so it needs the state
at its cursor. One process relays at a time (``webhooks.worker``'s lock), so that process
keeps each game's state at the cursor (a bounded LRU, ``FB_CACHE_GAMES`` entries) and folds
only the new events. An entry is used only while it is at the cursor and the event there
still has the hash it saw (else: a relay pass that rolled back, another stream under that
id in a flushed test database); otherwise the state at the cursor is loaded as every read
loads one (``games.loading``: the latest snapshot before it and the events after it), never
the game from its start. An undo marker is folded the same way: the state after it is
loaded (an undo tells nothing).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from events.models import StoredEvent
from events.store import UNDONE
from games.cache import Lru
from games.core import Game
from games.models import Table
from games.notices import Notices, Steps
from games.service import from_row, game_load


@dataclass(frozen=True)
class Fold:
    seq: int  # the relay's cursor: the state after this event
    hash: str  # that event's hash
    state: Any


folds: Lru[Fold] = Lru(settings.FB_CACHE_GAMES)


def notices(table: Table, definition: Game, rows: list[StoredEvent], after: int) -> list[Notices]:
    """What each of ``rows`` (a game's events after seq ``after``, whole commands, in
    order) tells, kept as the state at the last of them for the next pass."""
    steps = Steps(definition, _state_at(table, definition, after))
    out: list[Notices] = []
    start = 0
    for end in range(1, len(rows) + 1):
        if end < len(rows) and rows[end].command_id == rows[start].command_id:
            continue
        command = rows[start:end]
        if any(row.type == UNDONE for row in command):
            steps.reset(_load(table, upto=command[-1].seq))
            out += [{} for _ in command]
        else:
            events = [from_row(definition, row) for row in command]
            out += steps.command(events, deal=command[0].seq == 1)
        start = end
    if rows:
        folds.put(table.id, Fold(rows[-1].seq, rows[-1].hash, steps.state))
    return out


def _state_at(table: Table, definition: Game, seq: int) -> Any:
    if seq == 0:
        return definition.empty_state()
    cached = folds.get(table.id)
    if cached is not None and cached.seq == seq and cached.hash == _hash(table.id, seq):
        return cached.state
    return _load(table, upto=seq)


def _hash(stream_id: uuid.UUID, seq: int) -> str | None:
    found = StoredEvent.objects.filter(stream_id=stream_id, seq=seq).values_list("hash")
    row = found.first()
    return None if row is None else str(row[0])


def _load(table: Table, *, upto: int) -> Any:
    return game_load(game_id=table.id, upto=upto, table=table).state
