"""Games over HTTP: state, commands, undo, the event feed (long-poll and SSE), replay,
audit and export. Each view resolves the caller to a viewer (``api.viewers``), calls one
service function, and answers with the engine's projection for that viewer."""

from __future__ import annotations

import uuid
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api import schema
from api.base import ApiView, idempotency_key, request_metadata
from api.errors import ApiError
from api.feed.renderers import EventStreamRenderer
from api.serializers import (
    CommandRequestSerializer,
    FeedQuerySerializer,
    ReplayQuerySerializer,
    StreamQuerySerializer,
)
from api.throttles import CommandRateThrottle
from api.viewers import (
    Access,
    access_for,
    events_document,
    game_document,
    live_fields,
    over,
    parse_game_id,
    refreshed,
    state_view,
    table_document,
    winners,
)
from events.store import iso
from games import selectors
from games.record import game_export
from games.service import (
    CommandOutcome,
    clock_ms,
    game_command_execute,
    game_load,
    game_read,
    game_undo,
)

GAME_ID = schema.game_id_parameter()


def _access(
    request: Request, game_id: str, *, started: bool = True, state_follows: bool = False
) -> Access:
    access = access_for(parse_game_id(game_id), request.user, state_follows=state_follows)
    if started:
        access.require_started()
    return access


def _command_result(access: Access, outcome: CommandOutcome) -> Response:
    """The command's events and the game now, both for the caller; 201 on a retry too."""
    now = clock_ms()
    # the game as the command left it (no reload), unless a bot has moved it since
    loaded = outcome.loaded or game_load(game_id=access.table.id, table=access.table)
    access = refreshed(access, loaded)  # the command may have ended the game
    revealed = over(loaded)
    body = {
        "version": loaded.version,
        "first_seq": outcome.first_seq,
        "last_seq": outcome.last_seq,
        "events": events_document(access, outcome.events(), revealed=revealed),
        "state": state_view(access, loaded.state, now=now),
        "server_time": now,
        **live_fields(access, loaded),
        "table": table_document(
            access.table, access.user, winners(loaded.definition, loaded.state)
        ),
    }
    response = Response(body, status=status.HTTP_201_CREATED)
    if outcome.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def _actor(request: Request) -> str:
    return f"user:{request.user.pk}"


def _execute(request: Request, access: Access, command: dict[str, Any], key: uuid.UUID, **kw: Any):
    return game_command_execute(
        game_id=access.table.id,
        seat=access.require_seat(),
        actor=_actor(request),
        command=command,
        command_id=key,
        metadata=request_metadata(request),
        table=access.table,  # read with its seats just now: not again
        **kw,
    )


class GameView(ApiView):
    @extend_schema(
        tags=["games"],
        summary="The game as you may see it",
        description="Seats see their own hand and `legal` options; spectators no hands "
        "(and the game `spectator_delay` events ago); staff everything. An overdue reaction "
        "window is closed first. `server_time` and the window's `deadline` share one clock.",
        parameters=[GAME_ID],
        responses={200: schema.GameDocumentSerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, state_follows=True)
        loaded = game_read(game_id=access.table.id, table=access.table)
        return Response(game_document(refreshed(access, loaded), loaded, now=clock_ms()))


class CommandView(ApiView):
    body_limit_setting = "FB_MAX_COMMAND_BYTES"
    throttle_classes = (CommandRateThrottle,)

    @extend_schema(
        tags=["games"],
        summary="Play: send an engine command for your seat",
        description="`command` is one of the typed commands (a `legal` option's `send` is "
        "one, ready to send). The seat is the one you hold (never taken from the body). "
        "Needs an `Idempotency-Key`. Refusals append nothing: 422 with the engine's code, "
        "409 `stale_version` (`extra.current_version`), 409 `window_closed` "
        "(`extra.winning_seq` when a counter won), 409 `game_over`.",
        parameters=[GAME_ID, schema.IDEMPOTENCY_KEY, schema.REQUEST_ID],
        request=CommandRequestSerializer,
        examples=schema.COMMAND_EXAMPLES,
        responses={201: schema.CommandResultSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, started=False, state_follows=True)
        seat = access.require_seat()
        key = idempotency_key(request)
        body = CommandRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        claimed = body.validated_data.get("seat")
        if claimed is not None and claimed != seat:
            raise ApiError("not_your_seat", "You act only for the seat you hold.", seat=seat)
        command = dict(body.validated_data["command"])
        if "seat" in command:
            if command["seat"] != seat or isinstance(command["seat"], bool):
                raise ApiError("not_your_seat", "You act only for the seat you hold.", seat=seat)
            del command["seat"]
        outcome = _execute(
            request,
            access,
            command,
            key,
            expected_version=body.validated_data.get("expected_version"),
        )
        return _command_result(access, outcome)


class ResignView(ApiView):
    body_limit_setting = "FB_MAX_COMMAND_BYTES"
    takes_body = False
    throttle_classes = (CommandRateThrottle,)

    @extend_schema(
        tags=["games"],
        summary='Resign (the command {"type": "resign"})',
        description="No body. Your mobsters go to the graveyard and your hand is "
        "discarded; the game goes on without you.",
        parameters=[GAME_ID, schema.IDEMPOTENCY_KEY, schema.REQUEST_ID],
        request=None,
        responses={201: schema.CommandResultSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, started=False)
        access.require_seat()
        key = idempotency_key(request)
        outcome = _execute(request, access, {"type": "resign"}, key)
        return _command_result(access, outcome)


class UndoView(ApiView):
    body_limit_setting = "FB_MAX_COMMAND_BYTES"
    takes_body = False
    throttle_classes = (CommandRateThrottle,)

    @extend_schema(
        tags=["games"],
        summary="Take back your last command (casual tables, if nobody acted since)",
        description="No body. `undo_available` in the game document says whether it "
        "would be accepted now. The answer's events are one `stream.Undone` marker.",
        parameters=[GAME_ID, schema.IDEMPOTENCY_KEY, schema.REQUEST_ID],
        request=None,
        responses={201: schema.CommandResultSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id)
        seat = access.require_seat()
        key = idempotency_key(request)
        outcome = game_undo(
            game_id=access.table.id,
            seat=seat,
            actor=_actor(request),
            command_id=key,
            metadata=request_metadata(request),
        )
        return _command_result(access, outcome)


# --- the feed: documented here, served by async code (api.feed.views) --------------------


class FeedView(ApiView):
    """Documents ``GET .../events`` for the schema; ``api.feed.views.feed`` serves it."""

    @extend_schema(
        tags=["feed"],
        summary="Events after a seq, redacted for you; long-poll with wait",
        description="With `wait` (seconds, at most 25), the request waits until a new event "
        "is visible to you or the time is up (then `events` is empty). Spectators of a "
        "table with `spectator_delay` N see the stream up to version - N. Each user may "
        "hold a limited number of open feed requests and streams at once (429 "
        "`too_many_feeds`); a server at capacity answers 503 `feed_overloaded`.",
        parameters=[GAME_ID, FeedQuerySerializer],
        responses={200: schema.FeedSerializer, **schema.errors(400, 401, 404, 409, 429, 503)},
    )
    def get(self, request: Request, game_id: str) -> Response:  # pragma: no cover - routed
        raise NotImplementedError("served by api.feed.views.feed")


class FeedStreamView(ApiView):
    """Documents ``GET .../events/stream``; ``api.feed.views.feed_stream`` serves it."""

    renderer_classes = (JSONRenderer, EventStreamRenderer)

    @extend_schema(
        tags=["feed"],
        summary="The same feed as server-sent events (text/event-stream)",
        description="Each event is sent as `id: <seq>`, `data: <JSON as in the feed>`. "
        "Reconnect with `Last-Event-ID` (or `after`) to resume. The stream ends after 60 s "
        "(reconnect), sends a `: ping` comment every 15 s, and sends `event: end` when the "
        "game is over. It counts against the same per-user limit as long-polls (429 "
        "`too_many_feeds`); a server under load may end a stream early (reconnect).",
        parameters=[
            GAME_ID,
            StreamQuerySerializer,
            OpenApiParameter("Last-Event-ID", type=int, location=OpenApiParameter.HEADER),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                schema.SERVER_SENT_EVENT, description="A stream of server-sent events."
            ),
            **schema.stream_errors(400, 401, 404, 409, 429, 503),
        },
    )
    def get(self, request: Request, game_id: str) -> Any:  # pragma: no cover - routed
        raise NotImplementedError("served by api.feed.views.feed_stream")


# --- replay, audit, export ---------------------------------------------------------------


class ReplayView(ApiView):
    @extend_schema(
        tags=["history"],
        summary="The game as it was after event `at`",
        description="Before the game ends you see it as you would have then (your hand "
        "only). Once the game is over, every replay shows every hand and the deck.",
        parameters=[GAME_ID, ReplayQuerySerializer],
        responses={200: schema.ReplaySerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id)
        query = ReplayQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        visible = access.visible(selectors.stream_version(access.table.id))
        at = min(query.validated_data.get("at") or visible, visible)
        loaded = game_load(game_id=access.table.id, upto=at, table=access.table)
        now = clock_ms()
        view = state_view(access, loaded.state, now=now, revealed=access.finished)
        view.pop("legal", None)  # options belong to the live game, not to a replay
        # The audit hashes, once the game is over (or for staff): before the end a hash of
        # an event with hidden cards could be brute-forced (a 1-card draw is 66 guesses).
        # Staff see hashes early, but not while a sealed choice waits: the hash of a sealed
        # sector card (six guesses) would give it away.
        row = None
        if access.finished or (access.viewer == "staff" and not _sealed(access)):
            row = selectors.event_at(access.table.id, at)
        return Response(
            {
                "game_id": str(access.table.id),
                "at": at,
                "version": visible,
                "viewer": access.viewer,
                "server_time": now,
                "hash": row.hash if row else None,
                "prev_hash": row.prev_hash if row else None,
                "state": view,
            }
        )


def _metadata(metadata: dict[str, Any], staff: bool) -> dict[str, Any]:
    """Request metadata; client addresses are for staff only."""
    return dict(metadata) if staff else {k: v for k, v in metadata.items() if k != "ip"}


def _sealed(access: Access) -> bool:
    """Whether the running game holds a committed, unrevealed sealed choice."""
    if access.finished or access.table.status != "started":
        return False
    loaded = game_load(game_id=access.table.id, table=access.table)
    return loaded.definition.status(loaded.state).sealed


def _may_review(access: Access) -> None:
    """Staff at any time (unless they play in this game: then as a player) but while a
    sealed choice waits for its reveal (its command and hash are in the record); the game's
    players once it is over; nobody else."""
    if access.staff and access.seat is None:
        if _sealed(access):
            raise ApiError("sealed_choice_pending")
        return
    if access.seat is None:
        raise ApiError("forbidden", "Only the game's players (after the end) and staff.")
    if not access.finished:
        raise ApiError("forbidden", "Players may review the audit trail once the game is over.")


class AuditView(ApiView):
    @extend_schema(
        tags=["history"],
        summary="Every event (with hashes) and every command, accepted or refused",
        description="For the game's players once it is over, and for staff at any time.",
        parameters=[GAME_ID],
        responses={200: schema.AuditSerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, started=False)
        _may_review(access)
        version = selectors.stream_version(access.table.id)
        rows = selectors.events_between(access.table.id, after=0, upto=version)
        revealed = access.finished
        events = []
        for row, shown in zip(rows, events_document(access, rows, revealed=revealed), strict=True):
            events.append(
                {
                    **shown,
                    "command_id": str(row.command_id) if row.command_id else None,
                    "hash": row.hash,
                    "prev_hash": row.prev_hash,
                    "metadata": _metadata(row.metadata, access.staff),
                }
            )
        commands = [
            {
                "command_id": str(c.command_id),
                "actor": c.actor,
                "seat": c.seat,
                "command": c.command,
                "expected_version": c.expected_version,
                "now_ms": c.now_ms,
                "outcome": c.outcome,
                "error_code": c.error_code or None,
                "error_message": c.error_message or None,
                "error_data": {k: v for k, v in c.error_data.items() if not k.startswith("_")},
                "first_seq": c.first_seq,
                "last_seq": c.last_seq,
                "recorded_at": iso(c.recorded_at),
                "metadata": _metadata(c.metadata, access.staff),
            }
            for c in selectors.commands_of(access.table.id)
        ]
        return Response(
            {
                "game_id": str(access.table.id),
                "version": version,
                "revealed": revealed,
                "events": events,
                "commands": commands,
            }
        )


class ExportView(ApiView):
    @extend_schema(
        tags=["history"],
        summary="The full game record (verify it with `python -m games.verify`)",
        description="For the game's players once it is over, and for staff at any time "
        "(an unfinished game's record reveals its seed).",
        parameters=[GAME_ID],
        responses={200: schema.ExportSerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, started=False)
        _may_review(access)
        record = game_export(access.table, private=access.staff)
        response = Response(record)
        response["Content-Disposition"] = f'inline; filename="game-{access.table.id}.json"'
        return response
