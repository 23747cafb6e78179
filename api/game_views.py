"""Games over HTTP: state, commands, undo, the event feed (long-poll and SSE), replay,
audit and export. Each view authenticates the caller (``games.reads.access_for``), parses
the request, calls one service or read function (``games.reads``) and serialises what it
returns: the engine's projection for that viewer."""

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
from games import reads
from games.core import RuleViolation
from games.errors import ServiceError
from games.reads import Access, access_for, parse_game_id
from games.service import CommandOutcome, clock_ms, game_command_execute, game_undo

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
    response = Response(
        reads.command_document(access, outcome, now=clock_ms()), status=status.HTTP_201_CREATED
    )
    if outcome.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def _actor(request: Request) -> str:
    return f"user:{request.user.pk}"


def _execute(
    request: Request, access: Access, command: dict[str, Any], key: uuid.UUID, **kw: Any
) -> CommandOutcome:
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
        return Response(reads.current_document(parse_game_id(game_id), request.user))


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
        "(`extra.winning_seq` when a counter won), 409 `game_over`. At a table of two or "
        "more people a `pass` is sealed: 201 with no `events`, the same `version`, and "
        "`window_pass` saying you passed; nobody else sees it and the window runs to its "
        'deadline or a counter (docs/rules.md, "Passes are sealed").',
        parameters=[GAME_ID, schema.IDEMPOTENCY_KEY, schema.REQUEST_ID],
        request=CommandRequestSerializer,
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


RESIGN = {"type": "resign"}


class ResignView(ApiView):
    body_limit_setting = "FB_MAX_COMMAND_BYTES"
    takes_body = False
    throttle_classes = (CommandRateThrottle,)

    @extend_schema(
        tags=["games"],
        summary='Resign (the command {"type": "resign"})',
        description="No body. What resigning does is the game's (its rules page says: in a "
        "game of several seats it may go on without you). A game without a resign command "
        "answers 409 `no_resign`.",
        parameters=[GAME_ID, schema.IDEMPOTENCY_KEY, schema.REQUEST_ID],
        request=None,
        responses={201: schema.CommandResultSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, started=False)
        access.require_seat()
        key = idempotency_key(request)  # a bad request is refused as such first
        try:  # not every game has one (in some, every seat plays to the end)
            access.definition.decode_command(RESIGN)
        except RuleViolation:
            raise ServiceError("no_resign", game=access.table.game) from None
        outcome = _execute(request, access, RESIGN, key)
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
        at = query.validated_data.get("at")
        return Response(reads.replay_document(access, at, now=clock_ms()))


class AuditView(ApiView):
    @extend_schema(
        tags=["history"],
        summary="Every event (with hashes) and every command, accepted or refused",
        description="For the game's players once it is over, and for staff who do not play "
        "in it at any time.",
        parameters=[GAME_ID],
        responses={200: schema.AuditSerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, started=False)
        return Response(reads.audit_document(access))


class ExportView(ApiView):
    @extend_schema(
        tags=["history"],
        summary="The full game record (verify it with `python -m games.verify`)",
        description="For the game's players once it is over, and for staff who do not play "
        "in it at any time (an unfinished game's record reveals its seed).",
        parameters=[GAME_ID],
        responses={200: schema.ExportSerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, started=False)
        response = Response(reads.export_document(access))
        response["Content-Disposition"] = f'inline; filename="game-{access.table.id}.json"'
        return response
