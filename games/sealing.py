"""Windows that end when people have answered (docs/rules.md, "Hand passes are public,
automatic passes are sealed").

At a table of two or more people:

- a pass a person makes **by hand** is that person's choice, like a player at a real
  table saying "no": it is an ordinary event (``WindowPassed``), seen by the table, and it
  counts toward closing the window early;
- a pass the server makes **on a seat's behalf** (standing reactions: ``auto_pass``,
  "pass on everything") and **a bot's pass** are sealed: recorded privately (an accepted
  command in the command log, no event, no version, no NOTIFY), so the rules still wait
  on that seat and the window runs to its first counter or its deadline.

Why: the server passes for a seat only when its hand allows it (``auto_pass`` passes when
the seat holds no counter), and a bot's pass depends on its hand. If such a pass showed,
or ended a window, the table would learn who holds a counter. A hand pass tells only what
the person chose to say. So the window closes early only when every eligible seat passed
by hand (or a counter, public anyway, answered it); a seat that leaves its answer to
auto-pass keeps its hand hidden and the window runs to its deadline. A standing pass is
not final (the player may still counter or pass by hand); a hand pass is.

At a table of one person and bots passes are ordinary events, as before: the person is
the only one at the table, and a game against bots never waits for a window nobody will
answer.

Called by ``games.commands`` after the rules accepted a command, and by the reads that
show the seat its own pass. Only games with reaction windows (a module in
``games.registry.STANDING``) seal anything.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction

from events import rows
from events.models import CommandRecord
from events.store import CommandSeenBefore
from games.core import RuleViolation, Window
from games.idempotency import CommandOutcome
from games.models import Table
from games.registry import STANDING

MANUAL = "manual"
BOT = "bot"


def people(table: Table) -> set[int]:
    """The seats people hold (bots aside); a started table's seats are fixed."""
    return {s.position for s in table.seat_set.all() if s.user_id is not None and not s.bot}


def seals(table: Table) -> bool:
    """Whether passes at ``table`` are sealed: its game has reaction windows and two or
    more people play it."""
    return table.game in STANDING and len(people(table)) >= 2


def _records(game_id: uuid.UUID, seat: int, window: Window) -> list[CommandRecord]:
    # A window is named by its id and deadline: an undone window's id comes back (the
    # game's count of windows is undone with it), with a later deadline. One statement
    # of text (events.rows): read for every awaited seat's view while a window is open.
    return rows.select(
        CommandRecord,
        "WHERE stream_id = %s AND seat = %s AND outcome = %s"
        " AND metadata -> 'sealed' = %s::jsonb AND metadata -> 'deadline' = %s::jsonb"
        " ORDER BY id",
        [
            game_id,
            seat,
            CommandRecord.ACCEPTED,
            json.dumps(window.id),
            json.dumps(window.deadline),
        ],
    )


def pass_of(game_id: uuid.UUID, seat: int, window: Window) -> dict[str, Any] | None:
    """The seat's sealed pass on ``window``, for the seat itself: ``origin`` "manual" or
    "standing" (then ``reason``: "pass_all" or "no_counter"), ``at`` (ms). A manual pass
    is the one that counts when there are both."""
    window_id = window.id
    records = _records(game_id, seat, window)
    if not records:
        return None
    chosen = next((r for r in records if r.metadata.get("origin", MANUAL) == MANUAL), records[0])
    origin = chosen.metadata.get("origin", MANUAL)
    return {
        "window": window_id,
        "origin": origin,
        "reason": chosen.metadata.get("reason") if origin != MANUAL else None,
        "at": chosen.now_ms,
    }


def passed_by_hand(game_id: uuid.UUID, seat: int, window: Window) -> bool:
    found = pass_of(game_id, seat, window)
    return found is not None and found["origin"] == MANUAL


def check(
    *,
    table: Table,
    loaded: Any,
    window: Window | None,
    seat: int | None,
    actor: str,
    command: Any,
    payload: Mapping[str, Any],
    command_id: uuid.UUID,
    expected_version: int | None,
    metadata: Mapping[str, Any] | None,
    now: int,
) -> CommandOutcome | None:
    """What a command the rules accepted becomes at a sealing table: None when it goes on
    to be appended as usual (a counter, a person's pass by hand); the outcome of a sealed
    pass (standing reactions' or a bot's: recorded, nothing appended); or
    ``already_passed`` for a seat answering a window it has passed on by hand in a record
    made before hand passes were public."""
    if window is None or seat is None or table.game not in STANDING:
        return None
    persons = people(table)
    if len(persons) < 2:
        return None  # not a sealing table: an ordinary command
    rules = STANDING[table.game]
    answered = rules.answered_window(command)
    if answered != window.id:
        return None
    if passed_by_hand(table.id, seat, window):
        raise RuleViolation("already_passed", "You passed on this window; a pass is final.")
    if not rules.is_pass(command):
        return None  # a counter: public, the first one wins
    meta = dict(metadata or {})
    if seat in persons and meta.get("origin", MANUAL) == MANUAL:
        return None  # a person's pass by hand: public, it counts toward closing early
    meta.setdefault("origin", MANUAL if seat in persons else BOT)
    meta.update(sealed=window.id, deadline=window.deadline, seat=seat)
    try:
        with transaction.atomic():
            CommandRecord.objects.create(
                stream_id=table.id,
                command_id=command_id,
                actor=actor,
                seat=seat,
                command=dict(payload),
                expected_version=expected_version,
                now_ms=now,
                outcome=CommandRecord.ACCEPTED,
                metadata=meta,
            )
    except IntegrityError as exc:  # a retry, or a racing twin: its stored answer
        raise CommandSeenBefore(command_id) from exc
    return CommandOutcome(table.id, command_id, 0, 0, replayed=False, rows=(), loaded=loaded)


def seat_view(
    table: Table, state_view: dict[str, Any], seat: int | None, window: Window | None
) -> dict[str, Any] | None:
    """The seat's own sealed pass on the open window (None if none), and its options
    without answers to that window once it passed by hand in an older record, when hand
    passes were sealed too (``state_view`` is changed)."""
    if window is None or seat is None or not seals(table):
        return None
    found = pass_of(table.id, seat, window)
    if found is not None and found["origin"] == MANUAL and "legal" in state_view:
        rules = STANDING[table.game]
        state_view["legal"] = rules.without_answers(state_view["legal"], window.id)
    return found
