"""The ratings' read model: a projection of the finished ranked games' records, never a
record itself. ``manage.py recompute_ratings`` throws it away and rebuilds it from the
records with the same numbers (``ratings.projector``); nothing else writes it."""

from __future__ import annotations

import uuid

from django.db import models


class RatedGame(models.Model):
    """One finished ranked game the projection has read: where it stands in its game's
    order (``n``, 1, 2, ... by the time the game ended), which deciding ruling it was read
    with (0: none; a later one means its result changed) and whether it was rated (a void,
    or a game with nobody to compare, is not)."""

    table_id = models.UUIDField(primary_key=True, default=uuid.uuid4)
    game = models.CharField(max_length=40)
    n = models.PositiveIntegerField()
    ended_at = models.DateTimeField()
    ruling = models.BigIntegerField(default=0)
    rated = models.BooleanField()
    decided_by = models.CharField(max_length=20)  # play, abandonment, award, void

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "n"], name="rated_game_order"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.n} ({self.table_id})"


class RatingSnapshot(models.Model):
    """One identity's rating in one game right after one rated game: the belief before and
    after it and the place it took. The latest row of an (identity, game) is its rating;
    its rows in order are its history."""

    id = models.BigAutoField(primary_key=True)
    game = models.CharField(max_length=40)
    n = models.PositiveIntegerField()  # the rated game's place in its game's order
    table_id = models.UUIDField()
    ended_at = models.DateTimeField()
    identity = models.CharField(max_length=60)  # "user:<id>" or "bot:<kind>"
    user_id = models.IntegerField(null=True, blank=True)  # the person, no FK: a projection
    place = models.PositiveSmallIntegerField()  # 1 = first (the best of its seats)
    seats = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()  # rated games so far, this one included

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table_id", "identity"], name="rating_once_per_game"),
        ]
        indexes = [
            models.Index(fields=["identity", "game", "n"], name="rating_history"),
            models.Index(fields=["user_id", "n"], name="rating_of_user"),
        ]

    def __str__(self) -> str:
        return f"{self.identity} in {self.game} after #{self.n}"
