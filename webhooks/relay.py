"""The relay: committed events -> deliveries. The event log is the outbox.

For each game the relay keeps the last seq it relayed (``RelayCursor``). Relaying a game
locks its cursor row, reads the events after it, writes one ``Delivery`` per matching
subscription and event, and moves the cursor, all in one transaction: a crash before the
commit relays the same events again later (deliveries are unique per subscription and
event, and their ``webhook-id`` is derived from both), a crash after it has nothing left to
do. Only committed events are ever read, so an append that rolled back sends nothing.

Within a game, seq order is commit order (an append chains to the committed event before
it), so a per-game cursor never skips an event that commits late, as a global position
could. The relay hears of appends through the store's ``NOTIFY`` and also scans for games
whose events run ahead of their cursor (``behind``), so a lost notification only delays.

Payloads go through the same viewer projection as every read (``api.viewers``): a
subscriber's own games as its seat sees them, a staff service-wide subscription as a
spectator does. Which events are turns, windows, a filled table or a finished game is the
game's to say (``games.registry.notices``: ``games/family_business/notices.py``).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.db.models import Q

from events.models import StoredEvent
from events.store import UNDONE, iso
from games import selectors
from games.core import Game
from games.errors import ServiceError
from games.models import Table
from games.reads import Access, event_document
from games.registry import get_game
from games.registry import notices as game_notices
from webhooks import tasks
from webhooks.models import Delivery, RelayCursor, Subscription

_IDS = uuid.UUID("0b7d3f3e-2c55-4a8e-9a43-4f3c0a1d2e77")  # namespace of message ids
ALL = "all"
EVENT = "game.event"  # the type of a delivery made only because a subscription wants all
KIND_ORDER = ("table.filled", "turn.started", "window.opened", "game.finished")

Lane = tuple[uuid.UUID, uuid.UUID | None]  # (subscription, game): delivered in order


def message_id(subscription_id: uuid.UUID, stream_id: uuid.UUID, seq: int) -> str:
    """The ``webhook-id`` of an event's delivery: fixed by what it is, so a relay that runs
    twice names it the same."""
    return "msg_" + uuid.uuid5(_IDS, f"{subscription_id}:{stream_id}:{seq}").hex


@dataclass(frozen=True)
class Viewer:
    access: Access
    seat: int | None


def relay_stream(stream_id: uuid.UUID) -> int:
    """Relay the committed events of one game after its cursor; returns the deliveries
    made. Their delivery tasks are sent once the transaction commits."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO webhooks_relaycursor (stream_id, seq, finished, updated_at) "
                "VALUES (%s, 0, false, now()) ON CONFLICT DO NOTHING",
                [stream_id],
            )
            cursor.execute(
                "SELECT seq FROM webhooks_relaycursor WHERE stream_id = %s FOR UPDATE",
                [stream_id],
            )
            after = cursor.fetchone()[0]
        # The table before the events: a game finishes in the statement that appends its
        # last event, so a table read as finished here has every event in the read below.
        try:
            table = selectors.table_detail(stream_id)
        except ServiceError:
            table = None
        rows = list(StoredEvent.objects.filter(stream_id=stream_id, seq__gt=after).order_by("seq"))
        if not rows or table is None:  # nothing new; a game gone or over needs no scans
            over = table is None or table.status == Table.Status.FINISHED
            RelayCursor.objects.filter(stream_id=stream_id).update(finished=over)
            return 0
        deliveries = build(table, rows)
        Delivery.objects.bulk_create(deliveries, ignore_conflicts=True)
        finished = table.status == Table.Status.FINISHED
        RelayCursor.objects.filter(stream_id=stream_id).update(seq=rows[-1].seq, finished=finished)
        lanes = {(d.subscription_id, stream_id) for d in deliveries}
        if lanes:
            transaction.on_commit(lambda: tasks.send_lanes(lanes))
    return len(deliveries)


def _subscriptions(table: Table) -> list[Subscription]:
    users = [s.user_id for s in table.seat_set.all() if s.user_id is not None]
    return list(
        Subscription.objects.filter(active=True).filter(
            Q(scope=Subscription.Scope.SERVICE)
            | Q(scope=Subscription.Scope.OWN, owner_id__in=users)
        )
    )


def _viewer(table: Table, subscription: Subscription) -> Viewer | None:
    if subscription.scope == Subscription.Scope.SERVICE:
        return Viewer(Access(table=table, user=AnonymousUser(), seat=None), None)
    seat = next(
        (s.position for s in table.seat_set.all() if s.user_id == subscription.owner_id), None
    )
    if seat is None:
        return None
    return Viewer(Access(table=table, user=AnonymousUser(), seat=seat), seat)


def _versions(rows: list[StoredEvent]) -> dict[int, int]:
    """Each event's game version: the last seq its command appended (what a client sends
    as ``expected_version`` to act on it)."""
    version: dict[int, int] = {}
    group: list[StoredEvent] = []
    for row in rows:
        if group and row.command_id != group[-1].command_id:
            version.update({g.seq: group[-1].seq for g in group})
            group = []
        group.append(row)
    version.update({g.seq: group[-1].seq for g in group})
    return version


def _notices(definition: Game, table: Table, row: StoredEvent) -> dict[str, list[int]]:
    """Notice kind -> the seats it concerns, for one stored event."""
    if row.type == UNDONE or "." not in row.type:
        return {}
    raised = game_notices(definition.name, row.type.split(".", 1)[1], row.payload)
    every = sorted(s.position for s in table.seat_set.all())
    return {kind: sorted(seats) if seats is not None else every for kind, seats in raised.items()}


def build(table: Table, rows: list[StoredEvent]) -> list[Delivery]:
    """The deliveries ``rows`` (a game's next events) make for its subscriptions."""
    subscriptions = _subscriptions(table)
    if not subscriptions:
        return []
    definition = get_game(table.game)
    users = {s.position: s.user_id for s in table.seat_set.all()}
    versions = _versions(rows)
    viewers = {sub.id: _viewer(table, sub) for sub in subscriptions}
    documents: dict[tuple[int, Any], dict[str, Any]] = {}  # (seq, viewer) -> event document
    out: list[Delivery] = []
    for row in rows:
        notices = _notices(definition, table, row)
        for sub in subscriptions:
            viewer = viewers[sub.id]
            everything = ALL in sub.kinds
            if viewer is None or sub.created_at > row.recorded_at:
                continue
            mine = {
                kind: seats
                for kind, seats in notices.items()
                if viewer.seat is None or viewer.seat in seats
            }
            wanted = [k for k in KIND_ORDER if k in mine and (k in sub.kinds or everything)]
            if wanted:
                kind = wanted[0]
            elif everything:
                kind = EVENT
            else:
                continue
            key = (row.seq, viewer.access.viewer)
            if key not in documents:
                documents[key] = event_document(viewer.access, definition, row, revealed=False)
            out.append(
                _delivery(sub, table, row, kind, mine, users, versions, viewer, documents[key])
            )
    return out


def _delivery(
    sub: Subscription,
    table: Table,
    row: StoredEvent,
    kind: str,
    notices: dict[str, list[int]],
    users: dict[int, int | None],
    versions: dict[int, int],
    viewer: Viewer,
    document: dict[str, Any],
) -> Delivery:
    msg = message_id(sub.id, table.id, row.seq)
    body = {
        "id": msg,
        "type": kind,
        "timestamp": iso(row.recorded_at),
        "data": {
            "game_id": str(table.id),
            "game": table.game,
            "seq": row.seq,
            "version": versions[row.seq],
            "viewer": viewer.access.viewer,
            "seat": viewer.seat,
            "notices": [
                {"kind": k, "seats": seats, "users": [users.get(s) for s in seats]}
                for k, seats in notices.items()
            ],
            "event": document,
        },
    }
    return Delivery(
        message_id=msg,
        subscription_id=sub.id,
        stream_id=table.id,
        seq=row.seq,
        kind=kind,
        body=json.dumps(body, separators=(",", ":")),
        next_attempt_at=row.recorded_at,
    )


# --- finding games to relay --------------------------------------------------------------

_BEHIND = """
SELECT t.id FROM games_table t
LEFT JOIN webhooks_relaycursor c ON c.stream_id = t.id
WHERE t.status <> 'open' AND NOT COALESCE(c.finished, false)
  AND COALESCE(c.seq, 0) < (
      SELECT coalesce(max(e.seq), 0) FROM events_storedevent e WHERE e.stream_id = t.id)
LIMIT %s
"""


def behind(limit: int = 1000) -> list[uuid.UUID]:
    """Games with committed events the relay has not relayed yet (a missed notification,
    a relay that was down)."""
    with connection.cursor() as cursor:
        cursor.execute(_BEHIND, [limit])
        return [row[0] for row in cursor.fetchall()]


def relay_all(streams: Iterable[uuid.UUID] | None = None) -> int:
    """Relay ``streams`` (default: every game that is behind); returns deliveries made."""
    made = 0
    for stream_id in behind() if streams is None else streams:
        made += relay_stream(stream_id)
    return made
