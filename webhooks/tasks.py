"""Celery tasks of the webhooks: deliver a lane, sweep for lanes a lost task left.

Sending tasks never blocks the sender: a broker that is down costs a delay, and the sweep
(run by the relay's thread, ``webhooks.worker``) sends again every lane whose head is
overdue by more than ``FB_WEBHOOK_SWEEP_GRACE_SECONDS``.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import connection
from django.utils import timezone

log = logging.getLogger(__name__)


def send_lane(
    subscription_id: uuid.UUID, stream_id: uuid.UUID | None, at: datetime | None = None
) -> None:
    if not settings.FB_SCHEDULE_TASKS:  # off in tests without a worker (as timer tasks are)
        return
    delay = 0.0 if at is None else (at - timezone.now()).total_seconds()
    delay = min(max(delay, 0.0), float(settings.FB_MAX_COUNTDOWN_SECONDS))
    try:
        deliver.apply_async(
            args=[str(subscription_id), str(stream_id) if stream_id else ""],
            countdown=delay if delay > 0 else None,
        )
    except Exception:
        log.exception(
            "could not send webhook lane %s/%s; the sweep will", subscription_id, stream_id
        )


def send_lanes(lanes: Iterable[tuple[uuid.UUID, uuid.UUID | None]]) -> None:
    for subscription_id, stream_id in lanes:
        send_lane(subscription_id, stream_id)


@shared_task(name="webhooks.tasks.deliver")
def deliver(subscription_id: str, stream_id: str) -> str:
    from webhooks.delivery import deliver_lane

    return deliver_lane(uuid.UUID(subscription_id), uuid.UUID(stream_id) if stream_id else None)


_DUE = """
SELECT DISTINCT d.subscription_id, d.stream_id FROM webhooks_delivery d
JOIN webhooks_subscription s ON s.id = d.subscription_id
WHERE d.status = 'pending' AND d.next_attempt_at <= %s AND s.active
LIMIT %s
"""


def sweep(limit: int = 1000) -> int:
    """Send a task for every lane whose next delivery is overdue (its task was lost, its
    worker killed). Returns the lanes sent."""
    cutoff = timezone.now() - timedelta(seconds=settings.FB_WEBHOOK_SWEEP_GRACE_SECONDS)
    with connection.cursor() as cursor:
        cursor.execute(_DUE, [cutoff, limit])
        lanes = cursor.fetchall()
    send_lanes(lanes)
    if lanes:
        log.info("webhook sweep: %d lanes sent again", len(lanes))
    return len(lanes)
