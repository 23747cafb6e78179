"""Standing reactions: each seat's stored preferences for reaction windows, and the server
applying them as the seat's own commands (docs/rules.md, "Standing reactions").

A standing pass is the seat's own ``pass`` command (metadata ``origin: standing``): at a
table of people it is sealed, like a bot's pass and unlike a pass by hand
(``games.sealing``: recorded, seen by nobody else, never ending the window), so nothing
about it, or about the hand it depends on, reaches the table. A declared counter is played as the seat's command at once, like a
quick click (a counter shows its card anyway).

Preferences are append-only versions (``games.models.StandingPreference``); the latest
is in force. The engine says what they answer (``<game>.standing``); this module stores
them, and is called when a window opens (a task, ``games.tasks.standing_react``) and when
a seat changes them while a window is open.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from games import reviews, sealing, service
from games.core import RuleViolation, Window
from games.errors import ServiceError
from games.models import StandingPreference, Table
from games.registry import STANDING, get_game

log = logging.getLogger(__name__)

ORIGIN = "standing"
# Each game's pure standing rules: Standing, DeclaredCounter, standing_reaction,
# check_declared, counter_answers, current_turn (the game's own ``standing`` module), for
# the games whose interface says they have reaction windows (``Game.reaction_windows``).
RULES: dict[str, Any] = STANDING
MAX_COUNTERS = 8
MAX_PASS_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Preferences:
    """A seat's standing preferences (version 0: never set, the defaults)."""

    version: int = 0
    auto_pass: bool = True
    pass_until_ms: int | None = None
    pass_turn: int | None = None
    counters: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, row: StandingPreference) -> Preferences:
        return cls(row.version, row.auto_pass, row.pass_until_ms, row.pass_turn, row.counters)

    def for_engine(self, rules: Any) -> Any:
        return rules.Standing(
            auto_pass=self.auto_pass,
            pass_until=self.pass_until_ms,
            pass_turn=self.pass_turn,
            counters=tuple(_declared(rules, c) for c in self.counters),
        )


def _declared(rules: Any, data: dict[str, Any]) -> Any:
    return rules.DeclaredCounter(
        counter=str(data["counter"]),
        against=tuple(data.get("against") or ()),
        mine_only=bool(data.get("mine_only", True)),
    )


def supported(game: str) -> bool:
    """Whether ``game`` has standing reactions: seats answer out of turn in its windows."""
    return get_game(game).reaction_windows


def rules_of(table: Table) -> Any:
    """The table's game's standing rules, where a seat may read or change its standing
    reactions: a game with reaction windows, started (finished: read, but not changed)."""
    if not supported(table.game):
        raise ServiceError("no_standing_reactions", game=table.game)
    if table.status == Table.Status.OPEN:
        raise ServiceError("not_started")
    return RULES[table.game]


# --- reading and setting ---------------------------------------------------------------


def standing_get(*, game_id: uuid.UUID, seat: int) -> Preferences:
    row = StandingPreference.objects.filter(game_id=game_id, seat=seat).order_by("-version").first()
    return Preferences() if row is None else Preferences.of(row)


def standing_of_seats(game_id: uuid.UUID) -> dict[int, Preferences]:
    """Every seat's latest preferences (seats that never set any are left out)."""
    rows = StandingPreference.objects.filter(game_id=game_id).order_by("seat", "-version")
    latest: dict[int, Preferences] = {}
    for row in rows.distinct("seat"):
        latest[row.seat] = Preferences.of(row)
    return latest


def standing_set(
    *,
    table: Table,
    seat: int,
    actor: str,
    changes: dict[str, Any],
    expected_version: int | None = None,
    now: int | None = None,
) -> Preferences:
    """Append a new version of ``seat``'s preferences: ``changes`` may hold ``auto_pass``,
    ``counters`` (declarations) and ``pass_all`` (None: off; ``{"seconds": n}`` or
    ``{"end_of_turn": True}``); what it leaves out keeps its value. While a reaction window
    is open the new preferences apply to it at once."""
    now = service.clock_ms() if now is None else now
    rules = rules_of(table)
    if table.status == Table.Status.FINISHED:
        reviews.refuse_if_decided(table)  # (names the ruling that ended it)
        raise RuleViolation("game_over", "The game is over.")
    current = standing_get(game_id=table.id, seat=seat)
    if expected_version is not None and expected_version != current.version:
        raise ServiceError(
            "stale_version",
            "Your standing reactions changed since that version; read them again.",
            current_version=current.version,
            expected_version=expected_version,
        )
    auto_pass = bool(changes.get("auto_pass", current.auto_pass))
    counters = current.counters
    if "counters" in changes:
        counters = [_checked(rules, c) for c in changes["counters"]]
    until, turn = current.pass_until_ms, current.pass_turn
    if "pass_all" in changes:
        until, turn = _pass_all(table, rules, changes["pass_all"], now)
    row = StandingPreference(
        game_id=table.id,
        seat=seat,
        version=current.version + 1,
        auto_pass=auto_pass,
        pass_until_ms=until,
        pass_turn=turn,
        counters=counters,
        actor=actor,
    )
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:  # another change got this version first
        raise ServiceError(
            "stale_version",
            "Your standing reactions changed meanwhile; read them again.",
            current_version=standing_get(game_id=table.id, seat=seat).version,
        ) from None
    if table.status == Table.Status.STARTED:
        # robust: the change is stored; a failure to apply it now is logged, not a 500
        transaction.on_commit(lambda: standing_react(game_id=table.id, seats=(seat,)), robust=True)
    return Preferences.of(row)


def _checked(rules: Any, data: dict[str, Any]) -> dict[str, Any]:
    declared = _declared(rules, data)
    rules.check_declared(declared)
    return {
        "counter": declared.counter,
        "against": list(declared.against),
        "mine_only": declared.mine_only,
    }


def _pass_all(
    table: Table, rules: Any, value: dict[str, Any] | None, now: int
) -> tuple[int | None, int | None]:
    if not value:
        return None, None
    if value.get("end_of_turn"):  # (rules_of: the game has started)
        loaded = service.game_load(game_id=table.id, table=table)
        return None, int(rules.current_turn(loaded.state))
    return now + int(value["seconds"]) * 1000, None


# --- applying them -------------------------------------------------------------------------


def standing_react(
    *,
    game_id: uuid.UUID,
    window_id: str | None = None,
    seats: tuple[int, ...] | None = None,
    now: int | None = None,
) -> dict[int, str]:
    """Apply the standing preferences of the human seats the open window waits on (only
    ``seats``, if given; only if it is ``window_id``, if given). Returns what each seat's
    preferences did: "declared" (a counter played), "pass_all" or "no_counter" (the seat's
    pass: sealed at a table of people). Idempotent: each seat answers a window once of
    each kind."""
    now = service.clock_ms() if now is None else now
    table = service.table_get(game_id, seats=True)
    if table.status != Table.Status.STARTED or not supported(table.game):
        return {}
    rules = RULES[table.game]
    loaded = service.game_load(game_id=game_id, table=table)
    state = loaded.state
    window = loaded.definition.status(state).window
    if window is None or (window_id is not None and window.id != window_id):
        return {}
    users = {s.position: s.user_id for s in table.seat_set.all() if s.user_id and not s.bot}
    due = [s for s in loaded.definition.status(state).awaiting if s in users]
    if seats is not None:
        due = [s for s in due if s in seats]
    if not due:
        return {}
    preferences = standing_of_seats(game_id)
    done: dict[int, str] = {}
    for seat in due:
        passed = sealing.pass_of(game_id, seat, window)  # (sealed; None elsewhere)
        if passed is not None and passed["origin"] == sealing.MANUAL:
            continue  # its own pass is final (a sealed hand pass of an older record)
        chosen = preferences.get(seat, Preferences()).for_engine(rules)
        reaction = rules.standing_reaction(state, seat, chosen, now=now)
        if reaction is None:
            continue
        actor = f"user:{users[seat]}"
        command = loaded.definition.encode_command(reaction.command)
        if reaction.reason == rules.DECLARED:
            if _answer(table, seat, actor, command, window, reaction.reason, now, "c"):
                done[seat] = reaction.reason
                break  # the first counter closes the window
        elif passed is not None:
            continue  # its standing reactions passed on this window already
        elif _answer(table, seat, actor, command, window, reaction.reason, now, "p"):
            done[seat] = reaction.reason
    return done


def _answer_id(table: Table, window: Window, seat: int, kind: str) -> uuid.UUID:
    # the deadline too: an undone window's id comes back with a later deadline
    return service.derived_command_id(
        table.id, f"standing:{window.id}:{window.deadline}:{seat}:{kind}"
    )


def _answer(
    table: Table,
    seat: int,
    actor: str,
    command: dict[str, Any],
    window: Window,
    reason: str,
    now: int,
    kind: str,
) -> bool:
    """The seat's answer as its own command: ``kind`` "c", a declared counter (public, like
    any), or "p", a pass (sealed at a table of people: recorded, seen by nobody else,
    ending nothing, ``games.sealing``; an ordinary pass otherwise)."""
    try:
        service.game_command_execute(
            game_id=table.id,
            seat=seat,
            actor=actor,
            command=command,
            command_id=_answer_id(table, window, seat, kind),
            metadata={"origin": ORIGIN, "reason": reason},
            now=now,
            table=table,
        )
    except (RuleViolation, ServiceError) as exc:  # another counter won, the window closed
        log.info("standing answer of seat %s in %s refused: %s", seat, table.id, exc.code)
        return False
    return True


def standing_pass_of(game_id: uuid.UUID, seat: int, window: Window) -> dict[str, Any] | None:
    """The seat's sealed pass on ``window_id``, if any (for the seat's own client:
    "passed automatically", or by hand)."""
    return sealing.pass_of(game_id, seat, window)


def open_window(table: Table, state: Any) -> Window | None:
    """The game's open window (the one standing reactions answer), if any."""
    return get_game(table.game).status(state).window


def counter_answers(game: str) -> dict[str, tuple[str, ...]]:
    """Each counter kind of ``game`` and the attack kinds it answers (for clients and
    validation); empty for a game without standing reactions."""
    rules = RULES.get(game) if supported(game) else None
    return {} if rules is None else dict(rules.counter_answers())


def every_counter_answer() -> dict[str, tuple[str, ...]]:
    """Every game's counter kinds and the attack kinds each answers, together (what a
    declaration's form may name; each game checks its own: ``check_declared``)."""
    merged: dict[str, set[str]] = {}
    for game in RULES:
        for counter, attacks in counter_answers(game).items():
            merged.setdefault(counter, set()).update(attacks)
    return {counter: tuple(sorted(attacks)) for counter, attacks in sorted(merged.items())}
