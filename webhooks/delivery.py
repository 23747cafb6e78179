"""Sending deliveries: one lane (a subscription and a game) at a time, in order.

A lane is worked by one worker at a time: a PostgreSQL advisory lock on the lane, held by
the worker's database session, so a worker killed mid-delivery frees it at once and the
next task (or the sweep) sends the same delivery again, with the same ``webhook-id``. The
head of the lane (its lowest pending seq) goes first; a later event waits while it is
retried, so a receiver sees each game's events in order.

A failed attempt (no answer, a timeout, a status outside 2xx, a redirect, an address the
SSRF check refuses) is retried with exponential backoff (``FB_WEBHOOK_BACKOFF_SECONDS``
doubling up to ``FB_WEBHOOK_BACKOFF_MAX_SECONDS``) until ``FB_WEBHOOK_RETRY_SECONDS``
after the delivery was made; then it is marked failed and the subscription is disabled,
with the reason, until its owner enables it again.
"""

from __future__ import annotations

import contextlib
import http.client
import logging
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Min
from django.utils import timezone

from webhooks import signing, ssrf
from webhooks.models import Attempt, Delivery, Subscription

log = logging.getLogger(__name__)

BUDGET = 100  # deliveries one task sends before handing the lane to a fresh task
BATCH = 20  # deliveries read at once (in order) from the lane


@contextlib.contextmanager
def lane_lock(subscription_id: uuid.UUID, stream_id: uuid.UUID | None) -> Iterator[bool]:
    key = f"webhook-lane:{subscription_id}:{stream_id or 'test'}"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [key])
        held = bool(cursor.fetchone()[0])
    try:
        yield held
    finally:
        if held:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [key])


def _head(subscription_id: uuid.UUID, stream_id: uuid.UUID | None) -> Delivery | None:
    pending = Delivery.objects.filter(
        subscription_id=subscription_id, stream_id=stream_id, status=Delivery.PENDING
    )
    return pending.order_by("seq", "id").first()


def deliver_lane(subscription_id: uuid.UUID, stream_id: uuid.UUID | None) -> str:
    """Send the lane's due deliveries in order. Returns what happened (for the task log)."""
    from webhooks import tasks  # here: tasks imports this module

    for _ in range(3):  # re-checked after the lock is let go: see the end of the loop
        with lane_lock(subscription_id, stream_id) as held:
            if not held:
                return "busy"
            outcome = _work(subscription_id, stream_id)
        if outcome != "done":
            break
        # A delivery committed while we held the lock may have had its task turned away
        # ("busy"): look once more now that the lock is free.
        head = _head(subscription_id, stream_id)
        if head is None or head.next_attempt_at > timezone.now():
            break
    if outcome.startswith("retry at ") or outcome == "more":
        head = _head(subscription_id, stream_id)
        if head is not None:
            tasks.send_lane(subscription_id, stream_id, at=head.next_attempt_at)
    return outcome


def _work(subscription_id: uuid.UUID, stream_id: uuid.UUID | None) -> str:
    """Send the lane's due deliveries, a batch at a time, each batch read with its
    subscription in one query (one disabled meanwhile stops within a batch)."""
    sent = 0
    while sent < BUDGET:
        batch = list(
            Delivery.objects.filter(
                subscription_id=subscription_id, stream_id=stream_id, status=Delivery.PENDING
            )
            .select_related("subscription")
            .order_by("seq", "id")[:BATCH]
        )
        if not batch:
            return "done"
        subscription = batch[0].subscription
        if not subscription.active:
            return "disabled"
        for delivery in batch:
            if delivery.next_attempt_at > timezone.now():
                return f"retry at {delivery.next_attempt_at.isoformat()}"
            if not attempt(subscription, delivery):
                return f"retry at {delivery.next_attempt_at.isoformat()}"
            sent += 1
        if len(batch) < BATCH:
            return "done"  # what was committed since is seen after the lock is let go
    return "more"


def backlog() -> tuple[int, datetime | None]:
    """Deliveries to active subscriptions not delivered yet (waiting for a worker, behind
    a retry in their lane, or in a retry's backoff themselves), and when the oldest was
    made (None: none waits)."""
    waiting = Delivery.objects.filter(status=Delivery.PENDING, subscription__active=True)
    figures = waiting.aggregate(count=Count("id"), oldest=Min("created_at"))
    return int(figures["count"]), figures["oldest"]


def signing_secrets(subscription: Subscription) -> list[str]:
    """The current secret, and the previous one while its overlap lasts."""
    out = [subscription.secret]
    expires = subscription.previous_expires_at
    if subscription.previous_secret and expires is not None and expires > timezone.now():
        out.append(subscription.previous_secret)
    return out


def attempt(subscription: Subscription, delivery: Delivery) -> bool:
    """One attempt at ``delivery``; records it and what follows (delivered, a retry, or
    giving up). True when the receiver took it."""
    body = delivery.body.encode()
    headers = signing.headers(signing_secrets(subscription), delivery.message_id, body)
    started = timezone.now()
    clock = time.monotonic()
    status: int | None = None
    error = ""
    excerpt = ""
    try:
        response = ssrf.post(subscription.url, body, headers)
        status, excerpt = response.status, response.body
        if not 200 <= status < 300:
            error = f"HTTP {status}" + (
                " (redirects are not followed)" if 300 <= status < 400 else ""
            )
    except ssrf.UrlRefused as exc:
        error = f"refused: {exc.reason}"
    except (OSError, http.client.HTTPException) as exc:
        error = f"{type(exc).__name__}: {exc}"[:500] or type(exc).__name__
    duration = int((time.monotonic() - clock) * 1000)
    ok = not error
    with transaction.atomic():  # the attempt and the delivery's new state, one commit
        delivery.attempts += 1
        Attempt.objects.create(
            delivery=delivery,
            number=delivery.attempts,
            started_at=started,
            duration_ms=duration,
            status_code=status,
            error=error[:500],
            response=excerpt[:1000],
        )
        delivery.last_status_code = status
        delivery.last_error = error[:500]
        now = timezone.now()
        if ok:
            delivery.status = Delivery.DELIVERED
            delivery.delivered_at = now
        elif now >= delivery.retry_until:
            delivery.status = Delivery.FAILED
            _disable(subscription, delivery, error)
        else:
            delivery.next_attempt_at = now + timedelta(seconds=backoff(delivery.attempts))
        delivery.save(
            update_fields=[
                "attempts",
                "last_status_code",
                "last_error",
                "status",
                "delivered_at",
                "next_attempt_at",
            ]
        )
    if not ok:
        log.info("webhook %s to %s failed: %s", delivery.message_id, subscription.url, error)
    return ok


def backoff(attempts: int) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones."""
    base = float(settings.FB_WEBHOOK_BACKOFF_SECONDS)
    growth = float(2 ** max(attempts - 1, 0))
    return min(base * growth, float(settings.FB_WEBHOOK_BACKOFF_MAX_SECONDS))


def _disable(subscription: Subscription, delivery: Delivery, error: str) -> None:
    hours = settings.FB_WEBHOOK_RETRY_SECONDS / 3600
    reason = (
        f"Delivery {delivery.message_id} failed for {hours:g} h "
        f"({delivery.attempts} attempts); last error: {error}"
    )[:500]
    Subscription.objects.filter(id=subscription.id).update(
        active=False, disabled_reason=reason, disabled_at=timezone.now()
    )
    subscription.active = False
    log.warning("webhook subscription %s disabled: %s", subscription.id, reason)
