"""Absent players: the turn clock's abandonment rule (docs/rules.md, "Absent players").

A table with a turn clock (``Table.turn_seconds``) has an abandonment rule, the table
creator's choice: after ``Table.abandon_after`` consecutive turn timeouts (default
``DEFAULT_ABANDON_AFTER``; 0: never), a seat is **absent**. "Consecutive" counts the seat's
own commands, newest first: every command played for it by its turn clock counts, the
first one it played itself (a card, a pass by hand, a resign, an undo) stops the count;
what its standing reactions answer for it (``origin: standing``) neither counts nor stops.
It is read from the command records, the audit trail of play: nothing is stored beside it.

What follows is the same in every game, through each game's own resign command
(``{"type": "resign"}``, decoded by the game: ``games.core.Game``):

- At a table that is not two people (three or more seats, or a bot among them), the
  absent seat is out at once, as if it resigned: the system plays its resign
  (``origin: abandon``); the others play on, and if the game's own rules end it there
  (one seat left) it ends.
- At a two-person table the absent seat is not put out by itself: the other person
  **claims** the win (``claim``, the API's ``POST /games/{id}/claim``), which plays the
  absent seat's resign the same way, or plays on (the timeouts keep playing for the absent
  seat, and a claim stays open while it is absent). A claim is needed because a
  two-person game ended by the clock alone would hand the win to whoever was still "there"
  by a count: if both people are away, nobody claims. When both seats of a two-person table
  are absent the game ends as abandoned by both: the seat that went absent first resigns
  (the clock has put it out the longest), and the result says abandonment.

A game whose last command was such a resign ended by **abandonment**: the table's result
is ``{"decided_by": "abandonment", "kind": "abandonment", "abandoned": [seats]}`` and the
view's outcome reason ``abandonment`` (``games.reads``). A game without a resign command
(every seat plays to its end) has no abandonment rule: its tables take 0.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.db.models import Q

from events.models import CommandRecord, StoredEvent
from games.commands import SYSTEM, derived_command_id, execute
from games.core import Game, RuleViolation
from games.errors import ServiceError
from games.idempotency import CommandOutcome
from games.models import Table

log = logging.getLogger(__name__)

DEFAULT_ABANDON_AFTER = 3  # consecutive timeouts; the table creator may choose 0 to 20
MAX_ABANDON_AFTER = 20
RESIGN = {"type": "resign"}
ABANDON = "abandon"  # the origin of an abandonment's resign (its events' metadata)


def has_resign(definition: Game) -> bool:
    """Whether the game has a resign command (decoded by the game itself)."""
    try:
        definition.decode_command(RESIGN)
    except RuleViolation:
        return False
    return True


def abandon_after_checked(definition: Game, given: int | None) -> int:
    """The table's ``abandon_after`` for a new table of ``definition``: the default if not
    given (0 in a game without a resign command); ``bad_options`` when out of range or
    asked of a game without resign."""
    if given is None:
        return DEFAULT_ABANDON_AFTER if has_resign(definition) else 0
    if not 0 <= given <= MAX_ABANDON_AFTER:
        raise ServiceError(
            "bad_options",
            f"A seat is out after 1 to {MAX_ABANDON_AFTER} consecutive timeouts (0: never).",
            field="abandon_after",
        )
    if given and not has_resign(definition):
        raise ServiceError(
            "bad_options",
            f"{definition.title} has no resign command: every seat plays to the end, so "
            "its tables have no abandonment rule (0).",
            field="abandon_after",
        )
    return given


def applies(table: Table) -> bool:
    return bool(table.turn_seconds and table.abandon_after)


def _own_commands(game_id: uuid.UUID, seat: int, limit: int) -> list[tuple[int, dict[str, Any]]]:
    """The seat's latest ``limit`` accepted commands, newest first (record id, metadata),
    leaving out what its standing reactions answered for it. (A JSON key that is absent
    is NULL to SQL, which a bare ``exclude`` would drop: commands without an origin, the
    ones played by hand, are asked for by name.)"""
    not_standing = Q(metadata__origin__isnull=True) | ~Q(metadata__origin="standing")
    rows = (
        CommandRecord.objects.filter(stream_id=game_id, seat=seat, outcome=CommandRecord.ACCEPTED)
        .filter(not_standing)
        .order_by("-id")
        .values_list("id", "metadata")[:limit]
    )
    return [(record_id, metadata or {}) for record_id, metadata in rows]


def consecutive_timeouts(game_id: uuid.UUID, seat: int, limit: int) -> int:
    """How many of the seat's latest commands (up to ``limit``) its turn clock played,
    counting back to the first it played itself."""
    count = 0
    for _, metadata in _own_commands(game_id, seat, limit):
        if not metadata.get("timeout"):
            break
        count += 1
    return count


def _human_seats(table: Table) -> list[int]:
    return [s.position for s in table.seat_set.all() if not s.bot]


def two_people(table: Table) -> bool:
    """A table of exactly two seats, both people: there the other person claims."""
    return table.seats == 2 and len(_human_seats(table)) == 2


def absent_seats(table: Table, out: frozenset[int] = frozenset()) -> list[int]:
    """The human seats the abandonment rule counts absent now (none where it does not
    apply); ``out``: seats already out of the game, skipped."""
    if not applies(table) or table.status != Table.Status.STARTED:
        return []
    k = table.abandon_after
    return [
        seat
        for seat in _human_seats(table)
        if seat not in out and consecutive_timeouts(table.id, seat, k) >= k
    ]


def _went_absent_at(game_id: uuid.UUID, seat: int, k: int) -> int:
    """The record id of the timeout that made the seat absent (its k-th newest)."""
    own = _own_commands(game_id, seat, k)
    return own[-1][0] if own else 0


def abandon(
    table: Table, seat: int, *, now: int, claimed_by: int | None = None, timeouts: int = 0
) -> CommandOutcome | None:
    """Put ``seat`` out through the game's resign command, played by the system with
    metadata ``origin: abandon`` (public, like a timeout). Idempotent: one command id per
    seat. None when the game refuses (it has no resign, or the seat is out already)."""
    metadata: dict[str, Any] = {"origin": ABANDON, "abandoned": seat, "timeouts": timeouts}
    if claimed_by is not None:
        metadata["claimed_by"] = claimed_by
    try:
        return execute(
            game_id=table.id,
            seat=seat,
            actor=SYSTEM,
            command=RESIGN,
            command_id=derived_command_id(table.id, f"abandon:{seat}"),
            now=now,
            metadata=metadata,
            table=table,
        )
    except (RuleViolation, ServiceError) as exc:
        log.info("abandonment of seat %s at %s not played: %s", seat, table.id, exc)
        return None


def after_timeout(table: Table, seat: int, *, now: int) -> CommandOutcome | None:
    """After the turn clock played for ``seat``: apply the abandonment rule to it."""
    if not applies(table):
        return None
    k = table.abandon_after
    if consecutive_timeouts(table.id, seat, k) < k:
        return None
    if not two_people(table):
        return abandon(table, seat, now=now, timeouts=k)
    other = next(s for s in _human_seats(table) if s != seat)
    if consecutive_timeouts(table.id, other, k) < k:
        return None  # the other person may claim the win (``claim``)
    first = min((seat, other), key=lambda s: _went_absent_at(table.id, s, k))
    return abandon(table, first, now=now, timeouts=k)


def claim(table: Table, seat: int | None, *, now: int) -> CommandOutcome:
    """The present person of a two-person table claims the win from an absent opponent:
    the opponent's resign, as an abandonment. ``no_claim`` where the rule gives no claim
    (not a two-person table of a game with the rule, or the opponent is not absent)."""
    if seat is None:
        raise ServiceError("not_your_seat", "You hold no seat at this game.")
    if table.status != Table.Status.STARTED:
        raise ServiceError("no_claim", "The game is not running: there is nothing to claim.")
    if not applies(table) or not two_people(table):
        raise ServiceError(
            "no_claim",
            "Only a two-person table with a turn clock and an abandonment rule has claims "
            "(at larger tables an absent seat is out by itself).",
        )
    other = next(s for s in _human_seats(table) if s != seat)
    k = table.abandon_after
    count = consecutive_timeouts(table.id, other, k)
    if count < k:
        raise ServiceError(
            "no_claim",
            f"Your opponent is not absent: a claim needs {k} consecutive timeouts of "
            f"theirs (they have {count}).",
            timeouts=count,
            abandon_after=k,
        )
    outcome = abandon(table, other, now=now, claimed_by=seat, timeouts=count)
    if outcome is None:
        raise ServiceError("no_claim", "The game refused the absent seat's resign.")
    return outcome


def ended_by_abandonment(table_id: uuid.UUID) -> list[int] | None:
    """The seat put out if the game's last command was an abandonment (None otherwise)."""
    last = (
        StoredEvent.objects.filter(stream_id=table_id)
        .order_by("-seq")
        .values_list("metadata", flat=True)
        .first()
    )
    if not last or last.get("origin") != ABANDON:
        return None
    return [int(last["abandoned"])]
