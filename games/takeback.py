"""Takeback requests: an undo that asks the people it concerns first (as on lichess).

On a casual table a seat may take back its latest command until the next seat acts
(``games.undo``). When that command passed the turn to a person (a seat the table's turn
clock now waits on) or showed cards to a person (the next seat's draw at its turn's
start), the undo is a request those people (``responders``) answer: every one accepts,
and the undo is appended as the asking seat's; one declines, the request has its own
short deadline (``FB_TAKEBACK_SECONDS``) and expires, or anything is appended to the game
meanwhile (the next seat acted): then nothing changes. Bots are never asked: an undo that
concerns only bots is appended at once, as before.

The request lives beside the stream (``TakebackRequest``), not in it: a declined or expired
request changes nothing the record proves. The undo it leads to is an ordinary undo
command, with the request's id in its metadata.

The deadline is kept like a window's: a Celery timer (``games.tasks.takeback_expire``)
at the deadline, and the sweeper (``games.tasks.sweep_once``) for a lost timer. An answer
after the deadline is refused whether or not either ran.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from events.models import StoredEvent
from games import clock, selectors
from games.clock import clock_ms
from games.errors import ServiceError
from games.idempotency import CommandOutcome
from games.loading import game_load, table_get
from games.models import Table, TakebackRequest
from games.registry import get_game
from games.undo import concerned, game_undo


def takeback_seconds() -> int:
    return int(getattr(settings, "FB_TAKEBACK_SECONDS", 30))


def responders(table: Table, seat: int) -> list[int]:
    """The people who must agree before ``seat`` takes back its latest command now
    (``games.undo.concerned``); empty when nobody need agree, or when the undo would be
    refused anyway (``game_undo`` then says why)."""
    definition = get_game(table.game)
    loaded = game_load(game_id=table.id, table=table)
    status = definition.status(loaded.state)
    last, refusal = selectors.undo_check(
        table, seat=seat, version=loaded.version, over=status.over, last=loaded.last_command
    )
    if refusal is not None or last is None:
        return []
    prior = game_load(game_id=table.id, upto=last.first_seq - 1, table=table).state
    return concerned(table, status, definition.status(prior), last, seat)


def undo_or_request(
    *,
    game_id: uuid.UUID,
    seat: int,
    actor: str,
    command_id: uuid.UUID,
    metadata: Mapping[str, Any] | None = None,
) -> CommandOutcome | TakebackRequest:
    """``seat``'s undo: appended at once when it concerns no other person (or was already
    answered under ``command_id``), else an open takeback request to them."""
    table = table_get(game_id)
    existing = TakebackRequest.objects.filter(table=table, command_id=command_id).first()
    if existing is not None:  # a retried request: its stored answer
        return existing
    if not table.undo_allowed or table.status == Table.Status.FINISHED:
        # refused there as ever (a ruling may end a game the engine runs on)
        return game_undo(
            game_id=game_id, seat=seat, actor=actor, command_id=command_id, metadata=metadata
        )
    asked = responders(table, seat)
    if not asked:
        return game_undo(
            game_id=game_id, seat=seat, actor=actor, command_id=command_id, metadata=metadata
        )
    now = clock_ms()
    for stale in TakebackRequest.objects.filter(table=table, state=TakebackRequest.State.OPEN):
        expire(stale.id, now=now)  # past its deadline or played over: closed first
    version = game_load(game_id=table.id, table=table).version
    try:
        with transaction.atomic():
            request = TakebackRequest.objects.create(
                table=table,
                seat=seat,
                actor=actor,
                command_id=command_id,
                version=version,
                responders=asked,
                deadline_ms=now + takeback_seconds() * 1000,
            )
    except IntegrityError:
        raise ServiceError("takeback_pending") from None
    deadline = request.deadline_ms
    if settings.FB_SCHEDULE_TASKS:  # else the sweeper alone expires it
        transaction.on_commit(
            lambda: clock.send([("takeback_expire", [str(request.id), deadline], 0.0)])
        )
    return request


def _stream_version(table_id: uuid.UUID) -> int:
    last = StoredEvent.objects.filter(stream_id=table_id).order_by("-seq").first()
    return 0 if last is None else last.seq


def answer(
    *, game_id: uuid.UUID, request_id: uuid.UUID, seat: int, accept: bool
) -> tuple[TakebackRequest, CommandOutcome | None]:
    """``seat``'s answer to the request: declined, it is over and nothing changes; accepted
    by every responder, the undo is appended (its outcome returned with the request).
    ``takeback_closed`` when it was over already (its end recorded first)."""
    state = TakebackRequest.objects.filter(id=request_id).values_list("state", flat=True).first()
    if state is not None and state != TakebackRequest.State.OPEN:
        raise ServiceError("takeback_closed", state=state)
    request, outcome = _answer(game_id=game_id, request_id=request_id, seat=seat, accept=accept)
    if request.state in (TakebackRequest.State.EXPIRED, TakebackRequest.State.VOID):
        raise ServiceError("takeback_closed", state=request.state)  # found over just now
    return request, outcome


def _answer(
    *, game_id: uuid.UUID, request_id: uuid.UUID, seat: int, accept: bool
) -> tuple[TakebackRequest, CommandOutcome | None]:
    with transaction.atomic():
        request = (
            TakebackRequest.objects.select_for_update()
            .filter(id=request_id, table_id=game_id)
            .first()
        )
        if request is None:
            raise ServiceError("takeback_not_found")
        if seat not in request.responders:
            raise ServiceError("not_a_responder", seats=request.responders)
        _close_if_stale(request, clock_ms())  # kept: the refusal below is raised after
        closed = request.state != TakebackRequest.State.OPEN
        if closed or not accept:
            if not closed:
                _decide(request, TakebackRequest.State.DECLINED)
            return request, None

            _decide(request, TakebackRequest.State.DECLINED)
            return request, None
        if seat not in request.accepted:
            request.accepted = sorted([*request.accepted, seat])
        if set(request.accepted) != set(request.responders):
            request.save(update_fields=["accepted"])
            return request, None
        outcome = game_undo(
            game_id=game_id,
            seat=request.seat,
            actor=request.actor,
            command_id=request.command_id,
            metadata={"takeback": str(request.id), "accepted_by": request.accepted},
            consented=True,
        )
        _decide(request, TakebackRequest.State.ACCEPTED)
        return request, outcome


def _close_if_stale(request: TakebackRequest, now: int) -> None:
    if request.state != TakebackRequest.State.OPEN:
        return
    if request.deadline_ms <= now:
        _decide(request, TakebackRequest.State.EXPIRED)
    elif _stream_version(request.table_id) != request.version:
        _decide(request, TakebackRequest.State.VOID)


def _decide(request: TakebackRequest, state: str) -> None:
    request.state = state
    request.decided_at = timezone.now()
    request.save(update_fields=["state", "accepted", "decided_at"])


def expire(request_id: uuid.UUID, *, now: int | None = None) -> str:
    """The timer's (and the sweeper's) part: close the request if it is overdue or void.
    Returns its state afterwards."""
    now = clock_ms() if now is None else now
    with transaction.atomic():
        request = TakebackRequest.objects.select_for_update().filter(id=request_id).first()
        if request is None:
            return "gone"
        _close_if_stale(request, now)
        return str(request.state)


def expire_overdue(table_id: uuid.UUID | None = None, now: int | None = None) -> int:
    """Expire every open request past its deadline (one table's, or all); how many."""
    now = clock_ms() if now is None else now
    overdue = TakebackRequest.objects.filter(state=TakebackRequest.State.OPEN, deadline_ms__lte=now)
    if table_id is not None:
        overdue = overdue.filter(table_id=table_id)
    done = 0
    for request_id in list(overdue.values_list("id", flat=True)[:500]):
        done += expire(request_id, now=now) == TakebackRequest.State.EXPIRED
    return done


def as_json(request: TakebackRequest, *, now: int | None = None) -> dict[str, Any]:
    """A request as the API shows it (``TakebackSerializer``)."""
    now = clock_ms() if now is None else now
    state = str(request.state)
    if state == TakebackRequest.State.OPEN and request.deadline_ms <= now:
        state = TakebackRequest.State.EXPIRED
    return {
        "id": str(request.id),
        "seat": request.seat,
        "responders": list(request.responders),
        "accepted": list(request.accepted),
        "state": state,
        "deadline_ms": request.deadline_ms,
        "version": request.version,
    }


takeback_answer = answer  # the service facade's names (games.service)
takeback_json = as_json

__all__ = [
    "answer",
    "as_json",
    "takeback_answer",
    "takeback_json",
    "expire",
    "expire_overdue",
    "responders",
    "takeback_seconds",
    "undo_or_request",
]
