"""Game load time against game length, with and without snapshots.

    make bench            (or: python -m bench.load_time)

Builds passive games (every seat discards: a legal game that never ends) of 100, 1,000 and
10,000 events with the pure engine, stores them through the event store with snapshots
every FB_SNAPSHOT_EVERY events, then times ``game_load`` on each.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from bench._setup import machine, setup, timed

setup()

from django.conf import settings  # noqa: E402

from events.models import Snapshot  # noqa: E402
from events.store import append  # noqa: E402
from games import cache  # noqa: E402
from games.family_business import PlayCard, decide, evolve, setup_events  # noqa: E402
from games.family_business.codec import encode_state  # noqa: E402
from games.loading import snapshot_key  # noqa: E402
from games.lobby import table_create  # noqa: E402
from games.models import Table  # noqa: E402
from games.registry import get_game  # noqa: E402
from games.service import game_load, to_new_event  # noqa: E402

LENGTHS = (100, 1_000, 10_000)


def passive_game(length: int) -> Table:
    """A started table whose stream holds at least ``length`` events."""
    definition = get_game("family_business")
    table = table_create(created_by=None, seats=4, mode="sandbox", seed=f"bench-{length}")
    Table.objects.filter(id=table.id).update(status=Table.Status.STARTED)
    events = list(setup_events(4, seed=table.seed))
    state = definition.empty_state()
    for event in events:
        state = evolve(state, event)
    every = settings.FB_SNAPSHOT_EVERY
    snapshots = []
    while len(events) < length:
        seat = state.turn_seat
        for event in decide(state, seat, PlayCard(state.players[seat].hand[0], discard=True)):
            events.append(event)
            state = evolve(state, event)
            if every and len(events) % every == 0:
                snapshots.append(
                    Snapshot(
                        stream_id=table.id,
                        version=len(events),
                        rules_version=snapshot_key(definition),
                        state=encode_state(state),
                    )
                )
    for start in range(0, len(events), 1000):
        chunk = events[start : start + 1000]
        append(
            stream_id=table.id,
            expected_version=start,
            actor="bench",
            events=[to_new_event(definition, e) for e in chunk],
        )
    Snapshot.objects.bulk_create(snapshots)
    return table


def cold(game_id: uuid.UUID, **kw: Any) -> Callable[[], object]:
    """A load by a process that has not seen the game (the per-process cache emptied)."""

    def load() -> object:
        cache.clear()
        return game_load(game_id=game_id, **kw)

    return load


def main() -> None:
    print(f"machine: {machine()}")
    print(f"snapshot every {settings.FB_SNAPSHOT_EVERY} events; median of repeated loads")
    print(
        f"{'events':>8} {'cached':>10} {'snapshot + tail':>16} {'full replay':>13}  "
        "(cached: this process folded it before; the others are cold loads)"
    )
    results = {}
    for length in LENGTHS:
        table = passive_game(length)
        version = game_load(game_id=table.id).version
        cached = timed(lambda t=table: game_load(game_id=t.id), runs=30)
        with_snap = timed(cold(table.id), runs=30)
        full = timed(cold(table.id, use_snapshots=False), runs=3 if length >= 10_000 else 10)
        results[length] = with_snap
        print(f"{version:>8} {cached:>7.2f} ms {with_snap:>13.2f} ms {full:>10.2f} ms")
    ratio = results[LENGTHS[-1]] / results[LENGTHS[0]]
    print(
        f"load time {LENGTHS[-1]:,} vs {LENGTHS[0]:,} events (cold, with snapshots): {ratio:.2f}x"
    )


if __name__ == "__main__":
    main()
