"""Lobby models: tables and their seats. Not game state: a started table's game is its
event stream (``events.StoredEvent`` rows whose ``stream_id`` is the table's id)."""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.registry import DEFAULT_GAME


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

    class TurnAction(models.TextChoices):
        # what a timed-out seat plays (``Game.timeout_policies``, the game decides)
        DISCARD = "discard"  # a card played with no effect, in a game with cards to play
        MINIMAL = "minimal"  # the game's documented default move
        BOT = "bot"  # what the heuristic bot would

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=40, default=DEFAULT_GAME)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.CASUAL)
    seats = models.PositiveSmallIntegerField(default=4)
    # The game's own table options, validated by the game (``Game.validate_options``);
    # a sandbox table's may be secret (a stacked deck: ``Game.public_options`` hides it).
    options = models.JSONField(default=dict, blank=True)
    undo = models.CharField(max_length=10, choices=Undo.choices, default=Undo.OWN_LAST)
    spectator_delay = models.PositiveIntegerField(default=0)  # events hidden from spectators
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    seed = models.CharField(max_length=128, default=new_seed)  # secret until the game ends
    # The fresh seeds of the undos that put the deck in a new order (``games.undo``), in
    # the order of those undos: each committed by its hash in its undo marker, secret like
    # ``seed`` until the game ends, then exported with it for ``games.verify``.
    reseeds = models.JSONField(default=list, blank=True)
    # A human seat's time to play its card (0: no limit); then the system plays for it.
    turn_seconds = models.PositiveIntegerField(default=0)
    turn_action = models.CharField(
        max_length=10, choices=TurnAction.choices, default=TurnAction.DISCARD
    )
    # The abandonment rule (docs/rules.md, "Absent players"): after this many consecutive
    # turn timeouts a seat is out as if it resigned (0: never). Only with a turn clock, and
    # only in games with a resign command (``games.absence``).
    abandon_after = models.PositiveSmallIntegerField(default=3)
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
            # each game checks its own player count; this only bounds the column
            models.CheckConstraint(
                condition=models.Q(seats__gte=1) & models.Q(seats__lte=20), name="table_seats_1_20"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.mode} table {self.id}"

    @property
    def undo_allowed(self) -> bool:
        return self.mode == self.Mode.CASUAL and self.undo == self.Undo.OWN_LAST


# How the pages call each bot kind: the lobby offers the heuristic bot as "clever".
BOT_LABELS = {"heuristic": "Clever", "random": "Random"}


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    position = models.PositiveSmallIntegerField()
    # PROTECT: a seat is part of a game's record; deleting its user must not rewrite it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
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
        return f"{BOT_LABELS.get(self.bot, self.bot.title())} bot {self.position + 1}"


class GameClock(models.Model):
    """What each started game is waiting for, and until when: a projection of its events
    (plus the table's turn limit), upserted in the same transaction as every append, so the
    sweeper finds overdue games with an index scan instead of loading every game.

    Not history: rows change freely. A missing or stale row only delays a timer (reads and
    commands close an overdue window themselves); it can never cause a wrong move, because
    every timer action is checked against the game itself."""

    game = models.OneToOneField(
        Table, primary_key=True, on_delete=models.CASCADE, related_name="clock"
    )
    version = models.PositiveIntegerField(default=0)  # the stream's version when written
    window_id = models.CharField(max_length=40, blank=True)
    window_deadline_ms = models.BigIntegerField(null=True, blank=True)
    turn_key = models.CharField(max_length=60, blank=True)  # which turn the deadline is for
    turn_deadline_ms = models.BigIntegerField(null=True, blank=True)  # human seats only
    bot_due_ms = models.BigIntegerField(null=True, blank=True)  # a bot seat should act by
    # A clock loop acting on this row holds it until then (games.clock_loop): a lease, so
    # several loops never act on one row at once, and a dead loop's claim runs out.
    claimed_until_ms = models.BigIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["window_deadline_ms"],
                name="clock_window_due",
                condition=models.Q(window_deadline_ms__isnull=False),
            ),
            models.Index(
                fields=["turn_deadline_ms"],
                name="clock_turn_due",
                condition=models.Q(turn_deadline_ms__isnull=False),
            ),
            models.Index(
                fields=["bot_due_ms"],
                name="clock_bot_due",
                condition=models.Q(bot_due_ms__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"clock of {self.game_id}"


class Annotation(models.Model):
    """A reviewer's comment on a position of a game: the game as it was after event ``seq``.

    Its own append-only record (a database trigger refuses UPDATE and DELETE, as for the
    events): who wrote what and when, never an edit of the game's events. Staff annotate
    any started game; the game's players annotate it once it is over (``games.reviews``)."""

    id = models.BigAutoField(primary_key=True)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="annotations")
    seq = models.PositiveIntegerField()
    text = models.TextField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    role = models.CharField(max_length=10)  # "staff" or "player": as what the author wrote
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["table", "seq"], name="annotation_position")]

    def __str__(self) -> str:
        return f"annotation {self.id} of {self.table_id} at {self.seq}"


class Ruling(models.Model):
    """A tournament director's ruling on a game: a note, or a result the director decides
    (a win awarded to some seats, or the game voided). Appended as its own record with who
    and why (append-only, like annotations); the game's events are never rewritten. The
    latest deciding ruling is the game's result (``games.reviews.decided_results``); one
    recorded while the game runs ends it (its table finishes, its clock is cleared)."""

    class Kind(models.TextChoices):
        NOTE = "note"
        AWARD = "award"  # the win is awarded to ``winners``
        VOID = "void"  # the game counts for nobody

    id = models.BigAutoField(primary_key=True)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rulings")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    winners = models.JSONField(default=list, blank=True)  # seats, for an award
    reason = models.TextField()
    seq = models.PositiveIntegerField(null=True, blank=True)  # a position it refers to
    version = models.PositiveIntegerField()  # the game's version when it was recorded
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["table", "id"], name="ruling_of_table")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["note", "award", "void"]), name="ruling_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} ruling {self.id} on {self.table_id}"


class RulingLink(models.Model):
    """A ruling's place in its game's rulings chain (``games.ruling_chain``): its number
    ``n`` (1, 2, ... per game), the previous ruling's hash and its own. Written in the
    ruling's transaction; ``UNIQUE (table, n)`` is the lock, as ``(stream_id, seq)`` is the
    events': two rulings racing for the same place cannot both get it, so the chain never
    forks. A table of its own, append-only like the rulings, because the rulings recorded
    before the chain existed got theirs afterwards (``0009_ruling_chain``) and a ruling's
    row is never updated."""

    ruling = models.OneToOneField(
        Ruling, primary_key=True, on_delete=models.PROTECT, related_name="link"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    n = models.PositiveIntegerField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "n"], name="uniq_ruling_link"),
        ]

    def __str__(self) -> str:
        return f"ruling {self.ruling_id} at {self.n} of {self.table_id}'s rulings chain"


class StandingPreference(models.Model):
    """One version of a seat's standing reactions at one game (docs/rules.md, "Standing
    reactions"). Append-only like the event store (a database trigger refuses UPDATE and
    DELETE): a change is a new version and the latest one is the seat's preferences, so
    the record says what the server was told to do for the seat, and when."""

    id = models.BigAutoField(primary_key=True)
    game_id = models.UUIDField()  # the table's id, as events' stream_id (no cascade)
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()  # 1, 2, ... per (game, seat)
    auto_pass = models.BooleanField(default=True)  # pass when no counter held applies
    pass_until_ms = models.BigIntegerField(null=True, blank=True)  # pass on everything...
    pass_turn = models.PositiveIntegerField(null=True, blank=True)  # ...until then / that turn
    counters = models.JSONField(default=list, blank=True)  # declared counters (the engine's)
    actor = models.CharField(max_length=64)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game_id", "seat", "version"], name="uniq_standing_version"
            ),
        ]

    def __str__(self) -> str:
        return f"standing of seat {self.seat} at {self.game_id} v{self.version}"


class TakebackRequest(models.Model):
    """A seat asks to take back its latest command at a table of people: the move passed
    the turn or showed cards to people who must agree (``games.takeback``). It names the
    stream version it was asked at: any later event (the next seat acted) voids it. Open
    until every responder accepts (then the undo is appended), one declines, the version
    moves on or ``deadline_ms`` passes (the Celery timer, or the sweeper, expires it);
    declined, expired or void: nothing changes."""

    class State(models.TextChoices):
        OPEN = "open"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        EXPIRED = "expired"
        VOID = "void"  # something happened at the table meanwhile

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="takebacks")
    seat = models.PositiveSmallIntegerField()  # who asks
    actor = models.CharField(max_length=80)
    command_id = models.UUIDField()  # the undo command's id when it is accepted
    version = models.PositiveIntegerField()  # the stream's version when asked
    responders = models.JSONField(default=list)  # the seats that must accept
    accepted = models.JSONField(default=list)  # those that have
    deadline_ms = models.BigIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(state="open"), name="one_open_takeback"
            ),
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"takeback by seat {self.seat} of {self.table_id} ({self.state})"
