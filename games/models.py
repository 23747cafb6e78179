"""Lobby models: tables and their seats. Not game state: a started table's game is its
event stream (``events.StoredEvent`` rows whose ``stream_id`` is the table's id)."""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_seed() -> str:
    return secrets.token_hex(16)


class Table(models.Model):
    class Mode(models.TextChoices):
        CASUAL = "casual"
        RANKED = "ranked"
        SANDBOX = "sandbox"  # staff only: given seed and stacked deck, for scenarios

    class Status(models.TextChoices):
        OPEN = "open"
        STARTED = "started"
        FINISHED = "finished"

    class Undo(models.TextChoices):
        OFF = "off"
        OWN_LAST = "own_last"  # a seat may take back its latest command if nobody acted since

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=40, default="family_business")
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.CASUAL)
    seats = models.PositiveSmallIntegerField(default=4)
    reaction_seconds = models.PositiveSmallIntegerField(default=10)
    advanced = models.BooleanField(default=False)
    undo = models.CharField(max_length=10, choices=Undo.choices, default=Undo.OWN_LAST)
    spectator_delay = models.PositiveIntegerField(default=0)  # events hidden from spectators
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    seed = models.CharField(max_length=128, default=new_seed)  # secret until the game ends
    stacked_deck = models.JSONField(default=list, blank=True)  # sandbox only
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables_created",
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats__gte=2) & models.Q(seats__lte=6), name="table_seats_2_6"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.mode} table {self.id}"

    @property
    def undo_allowed(self) -> bool:
        return self.mode == self.Mode.CASUAL and self.undo == self.Undo.OWN_LAST


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot = models.CharField(max_length=20, blank=True)  # "random" / "heuristic" for a bot seat
    name = models.CharField(max_length=60, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="uniq_table_position"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="uniq_table_user",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot=""), name="seat_user_or_bot"
            ),
        ]
        ordering = ["position"]

    def __str__(self) -> str:
        return f"seat {self.position} of {self.table_id}"

    @property
    def display_name(self) -> str:
        if self.name:
            return self.name
        if self.user is not None:
            return str(self.user.get_username())
        return f"{self.bot.title()} bot {self.position + 1}"
