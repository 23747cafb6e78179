"""Webhook subscriptions, their deliveries and attempts, and the relay's position.

The event log is the outbox: deliveries are derived from committed events by the relay
(``webhooks.relay``), which keeps its position per game in ``RelayCursor`` and writes the
deliveries and the new position in one transaction. Unlike the event tables these rows
change (a delivery's status, a subscription's secret).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.notices import GAME_FINISHED, TABLE_FILLED, TURN_STARTED, WINDOW_OPENED
from games.registry import GAMES


def retry_until() -> datetime:
    """When a new delivery stops being retried (``FB_WEBHOOK_RETRY_SECONDS`` from now)."""
    return timezone.now() + timedelta(seconds=settings.FB_WEBHOOK_RETRY_SECONDS)


# What a subscription may ask for: the notices the service derives for every game, those a
# game adds of its own (``Game.notice_kinds``), and ``all``.
KINDS = (
    TURN_STARTED,
    WINDOW_OPENED,
    TABLE_FILLED,
    GAME_FINISHED,
    *sorted({kind for game in GAMES.values() for kind in game.notice_kinds}),
    # a tournament's (webhooks.tournament_relay, from its log)
    "round.started",
    "tournament.finished",
    "all",
)


class Subscription(models.Model):
    class Scope(models.TextChoices):
        OWN = "own"  # the owner's games, as the owner's seat sees them
        SERVICE = "service"  # staff: every game, as a spectator sees it

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_subscriptions"
    )
    url = models.URLField(max_length=2000)
    kinds = models.JSONField(default=list)  # a subset of KINDS
    scope = models.CharField(max_length=10, choices=Scope.choices, default=Scope.OWN)
    description = models.CharField(max_length=200, blank=True)
    secret = models.CharField(max_length=100)
    # After a rotation the previous secret also signs until previous_expires_at.
    previous_secret = models.CharField(max_length=100, blank=True)
    previous_expires_at = models.DateTimeField(null=True, blank=True)
    active = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=500, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["owner", "active"], name="webhook_sub_owner"),
            models.Index(
                fields=["scope"], name="webhook_sub_service", condition=models.Q(scope="service")
            ),
        ]

    def __str__(self) -> str:
        return f"webhook {self.id} -> {self.url}"


class Delivery(models.Model):
    """One message to one subscription: an event of a game (``stream_id``, ``seq``), a
    tournament director's deciding ruling on a game (``ruling``; ``seq`` is the game's
    version when it was recorded, so the lane sends it after the game's events) or a test
    message (no stream). ``body`` is the exact JSON sent; ``message_id`` is the
    ``webhook-id``, the same on every attempt."""

    PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"

    id = models.BigAutoField(primary_key=True)
    message_id = models.CharField(max_length=40, unique=True)
    subscription = models.ForeignKey(
        Subscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    stream_id = models.UUIDField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    ruling = models.PositiveBigIntegerField(null=True, blank=True)  # games.Ruling's id
    kind = models.CharField(max_length=40)
    body = models.TextField()
    status = models.CharField(
        max_length=10,
        choices=[(PENDING, PENDING), (DELIVERED, DELIVERED), (FAILED, FAILED)],
        default=PENDING,
    )
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    created_at = models.DateTimeField(default=timezone.now)
    retry_until = models.DateTimeField(default=retry_until)  # renewed by a redelivery
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "stream_id", "seq"],
                condition=models.Q(stream_id__isnull=False, ruling__isnull=True),
                name="uniq_delivery_event",
            ),
            models.UniqueConstraint(
                fields=["subscription", "ruling"],
                condition=models.Q(ruling__isnull=False),
                name="uniq_delivery_ruling",
            ),
        ]
        indexes = [
            models.Index(fields=["subscription", "stream_id", "seq"], name="delivery_lane"),
            models.Index(
                fields=["next_attempt_at"],
                name="delivery_due",
                condition=models.Q(status="pending"),
            ),
            models.Index(fields=["subscription", "-id"], name="delivery_log"),
        ]

    def __str__(self) -> str:
        return f"{self.message_id} ({self.status})"


class Attempt(models.Model):
    id = models.BigAutoField(primary_key=True)
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempt_set")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    duration_ms = models.PositiveIntegerField(default=0)
    status_code = models.PositiveIntegerField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)
    response = models.CharField(max_length=1000, blank=True)  # the start of the body

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}"


class RelayCursor(models.Model):
    """The last event of a game the relay has turned into deliveries, and the last of its
    deciding rulings (``ruling``: an id; a game's deciding rulings commit in id order, as
    each holds the game's clock row). ``finished``: the game is over and every event was
    relayed (catch-up scans skip it for events; a later ruling is still found)."""

    stream_id = models.UUIDField(primary_key=True)
    seq = models.PositiveIntegerField(default=0)
    ruling = models.PositiveBigIntegerField(db_default=0)
    finished = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"relay at {self.stream_id}#{self.seq}"
