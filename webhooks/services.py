"""Subscriptions over the API: register, change, rotate the secret, delete, send a test
message, redeliver. Keyword-only services; refusals are ``ServiceError`` with the codes
of ``webhooks.errors``."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from events.store import iso
from games.errors import ServiceError
from webhooks import signing, ssrf, tasks
from webhooks.models import Delivery, Subscription, retry_until

TEST = "webhook.test"


def _check_url(url: str) -> None:
    try:
        ssrf.check(url)
    except ssrf.UrlRefused as exc:
        raise ServiceError(
            "webhook_url_refused", f"Refused: {exc.reason}.", reason=exc.reason
        ) from None


def subscription_get(*, owner: Any, subscription_id: uuid.UUID | str) -> Subscription:
    try:
        key = uuid.UUID(str(subscription_id))
    except ValueError:
        key = None
    found = Subscription.objects.filter(id=key, owner=owner).first() if key else None
    if found is None:
        raise ServiceError("webhook_not_found", "You have no webhook subscription with that id.")
    return found


def subscriptions_of(*, owner: Any) -> list[Subscription]:
    return list(Subscription.objects.filter(owner=owner).order_by("created_at"))


def subscription_create(
    *,
    owner: Any,
    url: str,
    kinds: Sequence[str],
    scope: str = Subscription.Scope.OWN,
    description: str = "",
) -> Subscription:
    if scope == Subscription.Scope.SERVICE and not getattr(owner, "is_staff", False):
        raise ServiceError("forbidden", "Service-wide subscriptions are for staff only.")
    limit = settings.FB_WEBHOOK_MAX_PER_USER
    if Subscription.objects.filter(owner=owner).count() >= limit:
        raise ServiceError("too_many_webhooks", f"At most {limit} subscriptions.", limit=limit)
    _check_url(url)
    return Subscription.objects.create(
        owner=owner,
        url=url,
        kinds=sorted(set(kinds)),
        scope=scope,
        description=description,
        secret=signing.new_secret(),
    )


def subscription_update(
    *,
    subscription: Subscription,
    url: str | None = None,
    kinds: Sequence[str] | None = None,
    description: str | None = None,
    active: bool | None = None,
) -> Subscription:
    """Change what is given. ``active=True`` enables a disabled subscription again: its
    held deliveries go out, in order, from where they stopped."""
    if url is not None:
        _check_url(url)
        subscription.url = url
    if kinds is not None:
        subscription.kinds = sorted(set(kinds))
    if description is not None:
        subscription.description = description
    resume = active is True and not subscription.active
    if active is not None:
        subscription.active = active
        if active:
            subscription.disabled_reason, subscription.disabled_at = "", None
        else:
            subscription.disabled_reason = "Disabled by its owner."
            subscription.disabled_at = timezone.now()
    with transaction.atomic():
        subscription.save()
        if resume:
            _resume(subscription)
    return subscription


def _resume(subscription: Subscription) -> None:
    """Failed deliveries that disabled it become pending again; every lane is sent."""
    pending = Delivery.objects.filter(subscription=subscription)
    pending.filter(status=Delivery.FAILED, attempts__gt=0).filter(delivered_at__isnull=True).update(
        status=Delivery.PENDING, next_attempt_at=timezone.now(), retry_until=retry_until()
    )
    lanes = set(pending.filter(status=Delivery.PENDING).values_list("subscription_id", "stream_id"))
    transaction.on_commit(lambda: tasks.send_lanes(lanes))


def secret_rotate(
    *, subscription: Subscription, overlap_seconds: int | None = None
) -> Subscription:
    """A new secret; the old one keeps signing too for ``overlap_seconds`` (both
    signatures are sent meanwhile), so receivers can switch without missing a message."""
    overlap = (
        settings.FB_WEBHOOK_ROTATION_OVERLAP_SECONDS if overlap_seconds is None else overlap_seconds
    )
    subscription.previous_secret = subscription.secret if overlap > 0 else ""
    subscription.previous_expires_at = (
        timezone.now() + timedelta(seconds=overlap) if overlap > 0 else None
    )
    subscription.secret = signing.new_secret()
    subscription.save()
    return subscription


def subscription_delete(*, subscription: Subscription) -> None:
    subscription.delete()


def test_send(*, subscription: Subscription) -> Delivery:
    """A ``webhook.test`` message, delivered like any other (signed, logged, retried)."""
    if not subscription.active:
        raise ServiceError("webhook_disabled", "The subscription is disabled; enable it first.")
    msg = "msg_" + uuid.uuid4().hex
    now = timezone.now()
    body = {
        "id": msg,
        "type": TEST,
        "timestamp": iso(now),
        "data": {"subscription": str(subscription.id), "message": "A test from fbservice."},
    }
    with transaction.atomic():
        delivery = Delivery.objects.create(
            message_id=msg,
            subscription=subscription,
            kind=TEST,
            body=json.dumps(body, separators=(",", ":")),
        )
        transaction.on_commit(lambda: tasks.send_lane(subscription.id, None))
    return delivery


def delivery_get(*, subscription: Subscription, delivery_id: Any) -> Delivery:
    try:
        key = int(delivery_id)
    except (TypeError, ValueError):
        key = None
    found = Delivery.objects.filter(id=key, subscription=subscription).first() if key else None
    if found is None:
        raise ServiceError("delivery_not_found", "That subscription has no such delivery.")
    return found


def redeliver(*, subscription: Subscription, delivery: Delivery) -> Delivery:
    """Send ``delivery`` again, with the same ``webhook-id`` and body (in its game's order:
    before the lane's later pending events)."""
    if not subscription.active:
        raise ServiceError("webhook_disabled", "The subscription is disabled; enable it first.")
    now = timezone.now()
    with transaction.atomic():
        Delivery.objects.filter(id=delivery.id).update(
            status=Delivery.PENDING,
            next_attempt_at=now,
            retry_until=retry_until(),
            delivered_at=None,
        )
        transaction.on_commit(lambda: tasks.send_lane(subscription.id, delivery.stream_id))
    delivery.refresh_from_db()
    return delivery


def deliveries_of(
    *,
    subscription: Subscription,
    status: str | None = None,
    before: int | None = None,
    limit: int = 50,
) -> list[Delivery]:
    rows = Delivery.objects.filter(subscription=subscription)
    if status:
        rows = rows.filter(status=status)
    if before:
        rows = rows.filter(id__lt=before)
    return list(rows.order_by("-id").prefetch_related("attempt_set")[:limit])
