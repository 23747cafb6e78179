"""Loading a game: its table, and its state folded from the stream (with this process's
cache of folded games and the stream's snapshots). Reads only, but for snapshots."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError

from events.models import StoredEvent
from events.store import (
    UNDONE,
    NewEvent,
    TailRow,
    read_snapshot_and_tail,
    read_tail,
    snapshot_save,
    undone_seqs,
)
from games import cache, selectors
from games.core import Game
from games.errors import ServiceError
from games.models import Table
from games.registry import get_game


@dataclass(frozen=True)
class LoadedGame:
    table: Table
    definition: Game
    state: Any
    version: int  # the stream's latest sequence number (undo markers included)
    # the hash of event ``version`` (None only for an empty stream): the next append
    # chains to it without reading it again, and a cached game is checked against it
    last_hash: str | None = field(default=None, compare=False)
    # the command that appended the latest events, if the load saw them (for undo)
    last_command: selectors.LastCommand | None = field(default=None, compare=False)


def table_get(game_id: uuid.UUID | str, *, seats: bool = False) -> Table:
    """The table; with ``seats``, its seats too (in the same query: then ``bot_seats`` is
    free however often it is asked)."""
    try:
        if seats:
            return selectors.table_detail(game_id)  # type: ignore[arg-type]
        return Table.objects.get(id=game_id)
    except (Table.DoesNotExist, ServiceError, ValueError, TypeError, ValidationError):
        raise ServiceError("game_not_found", game=str(game_id)) from None


def to_new_event(definition: Game, event: Any) -> NewEvent:
    data = definition.encode_event(event)
    kind = data.pop("type")
    return NewEvent(
        type=f"{definition.name}.{kind}",
        payload=data,
        schema_version=definition.event_schema_version,
    )


def from_row(definition: Game, row: StoredEvent | TailRow | Any) -> Any:
    """A stored event as the game's event: its payload upcast from the shape it was
    written in (``schema_version``) to today's, then decoded."""
    kind = row.type.split(".", 1)[1]
    payload = definition.upcast_event(kind, row.payload, row.schema_version)
    return definition.decode_event({"type": kind, **payload})


def game_load(
    *,
    game_id: uuid.UUID,
    upto: int | None = None,
    use_snapshots: bool = True,
    table: Table | None = None,
) -> LoadedGame:
    """The state after event ``upto`` (default: the latest). Undone ranges are skipped
    once their undo is recorded.

    The latest state: this process's cached fold of the game extended by the events after
    it, in one query that also re-reads the hash of the cached version (``games.cache``).
    Otherwise, and for ``upto``: the latest usable snapshot plus the events after it (one
    statement), or every event without snapshots."""
    table = table or table_get(game_id)
    definition = get_game(table.game)
    latest = upto is None and use_snapshots
    if latest:
        cached = cache.games.get(table.id)
        if cached is not None and cached.definition is definition:
            loaded = _extended(cached, table)
            if loaded is not None:
                return loaded
    loaded = _folded(table, definition, upto=upto, use_snapshots=use_snapshots)
    if latest and loaded.last_hash is not None:
        cache.games.put(table.id, loaded)
    return loaded


def _extended(cached: LoadedGame, table: Table) -> LoadedGame | None:
    """``cached`` with the events stored after it, or None if it is not the start of this
    stream any more (then it is dropped) or an undo follows it (a full load skips it)."""
    rows = read_tail(table.id, since=cached.version)
    if not rows or rows[0].seq != cached.version or rows[0].hash != cached.last_hash:
        cache.games.discard(table.id)
        return None
    new = rows[1:]
    if not new:
        return replace(cached, table=table)
    if any(row.type == UNDONE for row in new):
        return None
    definition = cached.definition
    state = cached.state
    for row in new:
        state = definition.evolve(state, from_row(definition, row))
    last = selectors.last_command(new, table.game)
    loaded = LoadedGame(table, definition, state, new[-1].seq, new[-1].hash, last)
    cache.games.put(table.id, loaded)
    return loaded


def snapshot_key(definition: Game) -> int:
    """What a snapshot is stored and looked up under (``events_snapshot.rules_version``):
    the newest rules version of the code that folded it, ``Game.rules_version``, never the
    version the game is played under. A snapshot is this code's fold: a game of rules 1
    folded by code whose newest is 2 is keyed 2 (its state still says rules 1), and once
    the code's newest version changes every older snapshot is left unused, because the new
    code may fold (``evolve``, ``encode_state``) differently. (docs/event-store.md,
    "Versions".)"""
    return definition.rules_version


def _folded(table: Table, definition: Game, *, upto: int | None, use_snapshots: bool) -> LoadedGame:
    if use_snapshots:
        snapshot, rows = read_snapshot_and_tail(
            table.id, rules_version=snapshot_key(definition), upto=upto
        )
    else:
        snapshot, rows = None, read_tail(table.id, since=0, upto=upto)
    since = snapshot[0] if snapshot else 0
    skipped = undone_seqs(rows)
    if snapshot is not None and any(seq <= since for seq in skipped):
        snapshot, since = None, 0  # an undo reaches behind the snapshot: replay from the start
        rows = read_tail(table.id, since=0, upto=upto)
        skipped = undone_seqs(rows)
    state = definition.decode_state(snapshot[1]) if snapshot else definition.empty_state()
    after = [row for row in rows if row.seq > since]  # the snapshot's own event is folded in
    for row in after:
        if row.seq not in skipped:
            state = definition.evolve(state, from_row(definition, row))
    if not rows:
        return LoadedGame(table, definition, state, 0)
    last = selectors.last_command(after, table.game) if upto is None else None
    return LoadedGame(table, definition, state, rows[-1].seq, rows[-1].hash, last)


def maybe_snapshot(loaded: LoadedGame, state: Any, old: int, new: int) -> None:
    """A snapshot when the stream crosses a multiple of ``FB_SNAPSHOT_EVERY``."""
    every = settings.FB_SNAPSHOT_EVERY
    if every and new // every > old // every:
        snapshot_save(
            loaded.table.id,
            version=new,
            rules_version=snapshot_key(loaded.definition),
            state=loaded.definition.encode_state(state),
        )
