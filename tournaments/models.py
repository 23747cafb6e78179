"""A tournament's rows: the tournament (its id, director and committed seed) and its log.

Both append-only in the database (the events app's trigger function refuses UPDATE,
DELETE and TRUNCATE, as for the events and rulings): what a tournament is and everything
that happened to it are log entries (``tournaments.log``), folded on every read; its
standings are computed from its games, never stored as a score. ``TournamentTable`` says
which tables are a tournament's (written with the round's start), for the hook on a
game's end and the review desk.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_seed() -> str:
    return secrets.token_hex(16)


class Tournament(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=40)
    # Secret until the tournament finishes (its ``finished`` entry reveals it); its hash,
    # in the ``created`` entry, commits to it from the start.
    seed = models.CharField(max_length=128, default=new_seed)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"tournament {self.name} ({self.id})"


class LogEntry(models.Model):
    """One entry of a tournament's log: ``n`` from 1 without gaps (UNIQUE with the
    tournament: the lock, as for the events), its kind and data, and its hash chain."""

    id = models.BigAutoField(primary_key=True)
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="log")
    n = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    data = models.JSONField()
    actor = models.CharField(max_length=60)  # "user:<id>" or "system"
    at = models.DateTimeField(default=timezone.now)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "n"], name="uniq_tournament_log_n")
        ]
        ordering = ["tournament", "n"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.n} of {self.tournament_id}"


class TournamentTable(models.Model):
    table = models.OneToOneField(
        "games.Table", primary_key=True, on_delete=models.PROTECT, related_name="tournament_link"
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    round = models.PositiveSmallIntegerField()

    def __str__(self) -> str:
        return f"table {self.table_id} of {self.tournament_id} round {self.round}"
