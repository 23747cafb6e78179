"""Tournament notices: ``round.started`` and ``tournament.finished``, from a tournament's
log (``tournaments.models.LogEntry``), which is their outbox as the events are the games'.

Each tournament has a cursor (``RelayCursor``, keyed by the tournament's id: no game has
that id) at the last log entry relayed. Relaying a tournament locks its cursor, reads the
entries after it, writes one ``Delivery`` per matching subscription and entry (its lane:
the subscription and the tournament, in log order) and moves the cursor, in one
transaction, as ``webhooks.relay`` does for a game. Who gets them: staff service-wide
subscriptions, and the entrants' own subscriptions. The relay's thread runs this at each
catch-up (every FB_WEBHOOK_SWEEP_SECONDS): a notice waits at most that long.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Q

from tournaments import reads
from tournaments.log import fold
from tournaments.models import LogEntry
from webhooks import tasks
from webhooks.models import Delivery, RelayCursor, Subscription

ROUND_STARTED = "round.started"
TOURNAMENT_FINISHED = "tournament.finished"
NOTICES = {"round_started": ROUND_STARTED, "finished": TOURNAMENT_FINISHED}
_IDS = uuid.UUID("5d1c0a52-7b8e-4d0f-9a0e-2f6b3c7d9e11")  # namespace of message ids


def message_id(subscription_id: uuid.UUID, tournament_id: uuid.UUID, n: int) -> str:
    return "msg_" + uuid.uuid5(_IDS, f"{subscription_id}:{tournament_id}:{n}").hex


def behind() -> list[uuid.UUID]:
    """Tournaments with a notice after their cursor."""
    heads = (
        LogEntry.objects.filter(kind__in=list(NOTICES))
        .values("tournament_id")
        .annotate(last=Max("n"))
    )
    last = {row["tournament_id"]: row["last"] for row in heads}
    cursors = dict(
        RelayCursor.objects.filter(stream_id__in=list(last)).values_list("stream_id", "seq")
    )
    return [t for t, n in last.items() if n > cursors.get(t, 0)]


def relay_all() -> int:
    return sum(relay_tournament(t) for t in behind())


def relay_tournament(tournament_id: uuid.UUID) -> int:
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO webhooks_relaycursor (stream_id, seq, ruling, finished, updated_at) "
                "VALUES (%s, 0, 0, false, now()) ON CONFLICT DO NOTHING",
                [tournament_id],
            )
            cursor.execute(
                "SELECT seq FROM webhooks_relaycursor WHERE stream_id = %s FOR UPDATE",
                [tournament_id],
            )
            after = cursor.fetchone()[0]
        entries = list(
            LogEntry.objects.filter(tournament_id=tournament_id, n__gt=after).order_by("n")
        )
        if not entries:
            return 0
        every = list(
            LogEntry.objects.filter(tournament_id=tournament_id)
            .order_by("n")
            .values("kind", "data")
        )
        t = fold(str(tournament_id), every)
        users = [e.user for e in t.entrants.values() if e.user is not None]
        subscriptions = list(
            Subscription.objects.filter(active=True).filter(
                Q(scope=Subscription.Scope.SERVICE)
                | Q(scope=Subscription.Scope.OWN, owner_id__in=users)
            )
        )
        deliveries = []
        for entry in entries:
            kind = NOTICES.get(entry.kind)
            if kind is None:
                continue
            data = _data(tournament_id, t, entry)
            for sub in subscriptions:
                if sub.created_at > entry.at or not (kind in sub.kinds or "all" in sub.kinds):
                    continue
                msg = message_id(sub.id, tournament_id, entry.n)
                body = {"id": msg, "type": kind, "timestamp": entry.at.isoformat(), "data": data}
                deliveries.append(
                    Delivery(
                        message_id=msg,
                        subscription_id=sub.id,
                        stream_id=tournament_id,
                        seq=entry.n,
                        kind=kind,
                        body=json.dumps(body, separators=(",", ":")),
                        next_attempt_at=entry.at,
                    )
                )
        Delivery.objects.bulk_create(deliveries, ignore_conflicts=True)
        RelayCursor.objects.filter(stream_id=tournament_id).update(
            seq=entries[-1].n, finished=t.finished
        )
        lanes = {(d.subscription_id, tournament_id) for d in deliveries}
        if lanes:
            transaction.on_commit(lambda: tasks.send_lanes(lanes))
    return len(deliveries)


def _data(tournament_id: uuid.UUID, t: Any, entry: LogEntry) -> dict[str, Any]:
    out: dict[str, Any] = {
        "tournament_id": str(tournament_id),
        "name": t.settings.get("name"),
        "game": t.settings.get("game"),
        "n": entry.n,
    }
    if entry.kind == "round_started":
        out["round"] = entry.data["round"]
        out["tables"] = [
            {
                "game_id": x["table"],
                "seats": [
                    {"entrant": e, "name": t.entrants[e].name, "user": t.entrants[e].user}
                    for e in x["seats"]
                ],
            }
            for x in entry.data["tables"]
        ]
        out["byes"] = [{"entrant": e, "user": t.entrants[e].user} for e in entry.data["byes"]]
        out["deadline"] = entry.data.get("deadline")
    else:
        out["standings"] = reads.final_standings(str(tournament_id))
    return out
