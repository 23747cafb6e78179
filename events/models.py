"""The append-only event store: events, the command log, and snapshots (a disposable cache).

Rows of StoredEvent and CommandRecord are never updated or deleted; a database trigger
refuses UPDATE, DELETE and TRUNCATE on both (migration 0002). Corrections are new events.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class StoredEvent(models.Model):
    position = models.BigAutoField(primary_key=True)  # global order; not commit order
    stream_id = models.UUIDField()
    seq = models.PositiveIntegerField()  # 1, 2, 3, ... per stream, gap-free
    type = models.CharField(
        max_length=80
    )  # stable name: "<game>.<event>", e.g. "<game>.CardPlayed"
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    actor = models.CharField(max_length=64)  # "user:<id>", "bot:<seat>" or "system"
    command_id = models.UUIDField(null=True, blank=True)
    metadata = models.JSONField(default=dict, blank=True)  # seat, request id, correlation id
    recorded_at = models.DateTimeField(default=timezone.now)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream_id", "seq"], name="uniq_stream_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.stream_id}#{self.seq} {self.type}"


class CommandRecord(models.Model):
    """Every command, accepted or refused: with the events, the audit trail of play.

    ``(stream_id, command_id)`` is unique, which makes a retried command idempotent."""

    ACCEPTED, REFUSED = "accepted", "refused"

    id = models.BigAutoField(primary_key=True)
    stream_id = models.UUIDField()
    command_id = models.UUIDField()
    actor = models.CharField(max_length=64)
    seat = models.SmallIntegerField(null=True, blank=True)
    command = models.JSONField()
    expected_version = models.PositiveIntegerField(null=True, blank=True)
    now_ms = models.BigIntegerField()  # the clock the rules saw (window deadlines)
    outcome = models.CharField(max_length=10, choices=[(ACCEPTED, ACCEPTED), (REFUSED, REFUSED)])
    error_code = models.CharField(max_length=40, blank=True)
    error_message = models.TextField(blank=True)
    error_data = models.JSONField(default=dict, blank=True)
    first_seq = models.PositiveIntegerField(null=True, blank=True)
    last_seq = models.PositiveIntegerField(null=True, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream_id", "command_id"], name="uniq_stream_command"),
        ]
        indexes = [models.Index(fields=["stream_id", "id"], name="command_stream_idx")]

    def __str__(self) -> str:
        return f"{self.stream_id} {self.command_id} {self.outcome}"


class Snapshot(models.Model):
    """The folded state of a stream at ``version``: a cache that may be deleted any time."""

    id = models.BigAutoField(primary_key=True)
    stream_id = models.UUIDField()
    version = models.PositiveIntegerField()
    rules_version = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["stream_id", "version", "rules_version"], name="uniq_snapshot"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stream_id}@{self.version}"
