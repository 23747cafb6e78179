"""Tables and seats before a game starts, and starting it."""

from __future__ import annotations

import contextlib
import secrets
import uuid
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from events.chain import GENESIS
from events.store import append_command
from games import absence, reads, selectors
from games.core import RuleViolation
from games.errors import ServiceError
from games.loading import game_load
from games.models import Seat, Table
from games.positions import POSITION
from games.projections import ClockUpsert
from games.registry import DEFAULT_GAME, get_game
from games.service import (
    SYSTEM,
    bots_inline,
    bots_play,
    clock_ms,
    clock_row,
    clock_upsert,
    derived_command_id,
    schedule_after,
    to_new_event,
)

MAX_TURN_SECONDS = 600


def table_create(
    *,
    created_by: User | None,
    seats: int = 4,
    mode: str = Table.Mode.CASUAL,
    options: Mapping[str, Any] | None = None,
    undo: str | None = None,
    spectator_delay: int = 0,
    seed: str | None = None,
    game: str = DEFAULT_GAME,
    turn_seconds: int = 0,
    turn_action: str | None = None,
    abandon_after: int | None = None,
    **game_options: Any,
) -> Table:
    """A new open table of ``game`` with its ``options`` (validated by the game; they may
    also come as keywords, for callers in Python: harnesses and benches). ``turn_seconds``
    (0: no limit, else 1 to 600) is how long a human seat has to decide before the system
    plays for it, as ``turn_action`` says (one of the game's ``timeout_policies``: its
    minimal move, the default, or ``bot``, the heuristic bot's choice). ``abandon_after``
    (0: never, else 1 to 20; default ``absence.DEFAULT_ABANDON_AFTER`` in a game with a
    resign command, 0 in one without) is the abandonment rule: after that many consecutive
    timeouts a seat is out as if it resigned (``games.absence``)."""
    try:
        definition = get_game(game)
    except KeyError:
        raise ServiceError("bad_options", "Unknown game.", field="game") from None
    if not definition.min_players <= seats <= definition.max_players:
        raise ServiceError(
            "bad_options",
            f"{definition.title} is for "
            f"{definition.min_players} to {definition.max_players} players.",
            field="seats",
        )
    if mode not in Table.Mode.values:
        raise ServiceError("bad_options", "Unknown table mode.", field="mode")
    if seed is not None and mode != Table.Mode.SANDBOX:
        raise ServiceError(
            "bad_options", "Only sandbox tables take a seed or stacked deck.", field="seed"
        )
    given = {**(options or {}), **{k: v for k, v in game_options.items() if v is not None}}
    try:
        stored = definition.validate_options(given, seats, sandbox=mode == Table.Mode.SANDBOX)
    except RuleViolation as exc:
        code = "bad_position" if exc.code == "bad_position" else "bad_options"
        raise ServiceError(code, exc.message, **exc.data) from exc
    if not 0 <= turn_seconds <= MAX_TURN_SECONDS:
        raise ServiceError(
            "bad_options",
            f"A turn lasts 1 to {MAX_TURN_SECONDS} seconds (0: no limit).",
            field="turn_seconds",
        )
    turn_action = turn_action or definition.timeout_policies[0]
    if turn_action not in definition.timeout_policies:
        raise ServiceError(
            "bad_options",
            "A timed-out turn is played as "
            + " or ".join(repr(p) for p in definition.timeout_policies)
            + ".",
            field="turn_action",
        )
    abandon_after = absence.abandon_after_checked(definition, abandon_after)
    if undo is None:
        undo = Table.Undo.OWN_LAST if mode == Table.Mode.CASUAL else Table.Undo.OFF
    if undo not in Table.Undo.values:
        raise ServiceError("bad_options", "Unknown undo policy.", field="undo")
    if undo != Table.Undo.OFF and mode != Table.Mode.CASUAL:
        # It would be accepted and then refuse every undo: say so now.
        raise ServiceError("bad_options", "Only casual tables allow undo.", field="undo", mode=mode)
    table = Table(
        game=game,
        mode=mode,
        seats=seats,
        options=stored,
        undo=undo,
        spectator_delay=spectator_delay,
        turn_seconds=turn_seconds,
        turn_action=turn_action,
        abandon_after=abandon_after,
        created_by=created_by,
    )
    if seed is not None:
        table.seed = seed
    table.save()
    return table


def _open_table(table_id: uuid.UUID) -> Table:
    try:
        table = Table.objects.select_for_update().get(id=table_id)
    except (Table.DoesNotExist, ValueError, TypeError, ValidationError):
        raise ServiceError("game_not_found", "No table has that id.") from None
    if table.status != Table.Status.OPEN:
        raise ServiceError("table_not_open", "The table has already started.")
    return table


def _free_position(table: Table, position: int | None) -> int:
    taken = set(table.seat_set.values_list("position", flat=True))
    if position is None:
        free = [p for p in range(table.seats) if p not in taken]
        if not free:
            raise ServiceError("table_full", "Every seat is taken.")
        return free[0]
    if not 0 <= position < table.seats:
        raise ServiceError("bad_options", "No such seat.", field="position")
    if position in taken:
        raise ServiceError("seat_taken", "That seat is taken.", position=position)
    return position


def seat_join(
    *, table_id: uuid.UUID, user: User, position: int | None = None, name: str = ""
) -> Seat:
    with transaction.atomic():
        table = _open_table(table_id)
        if table.seat_set.filter(user=user).exists():
            raise ServiceError("already_seated", "You already have a seat at this table.")
        seat = Seat(table=table, position=_free_position(table, position), user=user, name=name)
        try:
            with transaction.atomic():
                seat.save()
        except IntegrityError:
            raise ServiceError("seat_taken", "That seat was just taken.") from None
    return seat


def seat_add_bot(
    *, table_id: uuid.UUID, bot: str = "heuristic", position: int | None = None
) -> Seat:
    with transaction.atomic():
        table = _open_table(table_id)
        kinds = get_game(table.game).bot_kinds
        if bot not in kinds:
            raise ServiceError("bad_options", "Unknown bot.", field="bot", bots=sorted(kinds))
        seat = Seat(table=table, position=_free_position(table, position), bot=bot)
        seat.save()
    return seat


def seat_leave(*, table_id: uuid.UUID, user: User) -> None:
    with transaction.atomic():
        table = _open_table(table_id)
        deleted, _ = table.seat_set.filter(user=user).delete()
        if not deleted:
            raise ServiceError("not_seated", "You have no seat at this table.")


def table_start(*, table_id: uuid.UUID, actor: str = SYSTEM, run_bots: bool | None = None) -> Table:
    """Deal: append the setup events (GameStarted, shuffle, deal, first turn).

    Bot seats then play: in this thread when ``run_bots`` is true (or, when it is None, if
    the FB_BOTS_INLINE setting is); otherwise through Celery tasks scheduled on commit."""
    with transaction.atomic():
        table = _open_table(table_id)
        seats = list(table.seat_set.select_related("user").order_by("position"))
        if len(seats) != table.seats:
            raise ServiceError(
                "not_enough_players",
                "Every seat must be filled to start.",
                seats=table.seats,
                filled=len(seats),
            )
        definition = get_game(table.game)
        try:
            # a fresh salt per game: the published seed_hash gives no guessable seed away
            events = definition.start(
                [s.display_name for s in seats], table.options, table.seed, secrets.token_hex(16)
            )
        except RuleViolation as exc:
            raise ServiceError("bad_options", exc.message, **exc.data) from exc
        state = definition.empty_state()
        for event in events:
            state = definition.evolve(state, event)
        now = clock_ms()
        inline = settings.FB_BOTS_INLINE if run_bots is None else run_bots
        clock = clock_row(table, definition.status(state), now)
        # the deal is recorded like any command: events, record and clock in one statement
        rows, returned = append_command(
            stream_id=table.id,
            expected_version=0,
            prev_hash=GENESIS,
            events=[to_new_event(definition, e) for e in events],
            actor=actor,
            command_id=derived_command_id(table.id, "start"),
            seat=None,
            command={"type": "start"},
            expected_by_client=None,
            now_ms=now,
            also=[clock_upsert(table.id, len(events), clock)],
        )
        table.status = Table.Status.STARTED
        table.started_at = timezone.now()
        table.save(update_fields=["status", "started_at"])
        with bots_inline() if inline else contextlib.nullcontext():
            schedule_after(
                table,
                definition.status(definition.empty_state()),
                clock,
                rows[-1].seq,
                ClockUpsert.kept_deadline(returned[0]),
            )
    if inline:
        bots_play(game_id=table.id)
    return table


def sandbox_at(*, game_id: uuid.UUID, at: int, user: User) -> Table:
    """A new open sandbox table of a recorded game's kind whose start position is that
    game's state after event ``at`` (a command's last event), under the rules and content
    version the record holds, with every hidden card as the record holds it: for a
    director (staff) to replay a disputed moment. Refused (nothing created) to anyone else,
    to staff seated at the game (they see it as a player), while a sealed choice waits
    for its reveal (the position would show it: as the audit and export refuse), and at a
    point the game cannot go on from (``bad_position``: the end, mid-command)."""
    access = reads.access_for(game_id, user)
    if not access.staff or access.seat is not None:
        raise ServiceError(
            "forbidden", "Only staff who do not play in the game open a sandbox from it."
        )
    access.require_started()
    reads.may_review(access)  # staff, but not while a sealed choice waits (its record shows it)
    version = selectors.stream_version(access.table.id)
    ends = {c.last_seq for c in selectors.commands_of(access.table.id) if c.last_seq}
    if not 1 <= at <= version or at not in ends:
        raise ServiceError(
            "bad_position",
            f"A sandbox starts after a whole command: `at` is one of the events that end one "
            f"(the game has events 1 to {version}).",
            field="at",
        )
    loaded = game_load(game_id=access.table.id, upto=at, table=access.table)
    definition = loaded.definition
    try:
        document = definition.position_of(loaded.state)
    except RuleViolation as exc:
        raise ServiceError("bad_position", exc.message, **{**exc.data, "field": "at"}) from exc
    return table_create(
        created_by=user,
        seats=access.table.seats,
        mode=Table.Mode.SANDBOX,
        options={POSITION: document},
        game=access.table.game,
    )
