"""Games over HTTP: state, commands, undo, the event feed (long-poll and SSE), replay,
audit and export. Each view authenticates the caller (``games.reads.access_for``), parses
the request, calls one service or read function (``games.reads``) and serialises what it
returns: the engine's projection for that viewer."""

from __future__ import annotations

import uuid
from typing import Any, cast

from django.contrib.auth.models import User
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
    SandboxRequestSerializer,
    StreamQuerySerializer,
    StrictBooleanField,
    StrictSerializer,
)
from api.throttles import CommandRateThrottle
from games import lobby, reads
from games.core import RuleViolation
from games.errors import ServiceError
from games.models import TakebackRequest
from games.reads import Access, access_for, parse_game_id
from games.service import (
    CommandOutcome,
    clock_ms,
    game_claim,
    game_command_execute,
    takeback_answer,
    takeback_json,
    undo_or_request,
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
        "(`extra.winning_seq` when a counter won), 409 `game_over`. A `pass` you send is a "
        "pass by hand: a public `WindowPassed` event that counts toward closing the window "
        "early; only automatic passes (standing reactions) and bots' passes at a table of "
        'two or more people are sealed (docs/rules.md, "Hand passes are public, automatic '
        'passes are sealed").',
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


class ClaimView(ApiView):
    body_limit_setting = "FB_MAX_COMMAND_BYTES"
    takes_body = False
    throttle_classes = (CommandRateThrottle,)

    @extend_schema(
        tags=["games"],
        summary="Claim the win from an absent opponent (two-person tables)",
        description="No body. At a two-person table with a turn clock, once the other "
        "seat has timed out `abandon_after` times in a row (`absent` in the game "
        "document), its resign is played for it as an abandonment (`origin: abandon`) and "
        "the game ends with the result `abandonment`. `409 no_claim` otherwise "
        '(docs/rules.md, "Absent players").',
        parameters=[GAME_ID, schema.REQUEST_ID],
        request=None,
        responses={201: schema.CommandResultSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id, started=False)
        seat = access.require_seat()
        outcome = game_claim(access.table, seat, now=clock_ms())
        return _command_result(access, outcome)


class UndoView(ApiView):
    body_limit_setting = "FB_MAX_COMMAND_BYTES"
    takes_body = False
    throttle_classes = (CommandRateThrottle,)

    @extend_schema(
        tags=["games"],
        summary="Take back your last command (casual tables, until the next seat acts)",
        description="No body. `undo_available` in the game document says whether it "
        "would be accepted now. When the command passed the turn to a person or showed a "
        "person cards (the next seat's draw), those people are asked first: the answer is "
        "202 with an open takeback request (`takeback`), which they accept or decline "
        "(POST .../takeback/{id}); it expires after `FB_TAKEBACK_SECONDS`. Otherwise the "
        "undo is appended at once (201): a `stream.Undone` marker, followed, after an "
        "undo across a draw, by the game's reshuffle from a fresh committed seed "
        "(docs/rules.md, Undo).",
        parameters=[GAME_ID, schema.IDEMPOTENCY_KEY, schema.REQUEST_ID],
        request=None,
        responses={201: schema.CommandResultSerializer, 202: schema.TakebackAskedSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id)
        seat = access.require_seat()
        key = idempotency_key(request)
        outcome = undo_or_request(
            game_id=access.table.id,
            seat=seat,
            actor=_actor(request),
            command_id=key,
            metadata=request_metadata(request),
        )
        if isinstance(outcome, TakebackRequest):
            return Response({"takeback": takeback_json(outcome)}, status=status.HTTP_202_ACCEPTED)
        return _command_result(access, outcome)


class TakebackAnswerSerializer(StrictSerializer):
    accept = StrictBooleanField(help_text="true: take it back; false: decline.")


class TakebackView(ApiView):
    body_limit_setting = "FB_MAX_COMMAND_BYTES"
    throttle_classes = (CommandRateThrottle,)

    @extend_schema(
        tags=["games"],
        summary="Answer a takeback request (the seats it asks)",
        description="Declined: the request is over and nothing changes. Accepted by every "
        "seat it asks: the undo is appended as the asking seat's (`undone`). Refused when "
        "the request is over (409 `takeback_closed`: answered, expired, or something was "
        "played since) or does not ask your seat (403 `not_a_responder`).",
        parameters=[
            GAME_ID,
            OpenApiParameter("request_id", str, OpenApiParameter.PATH),
            schema.REQUEST_ID,
        ],
        request=TakebackAnswerSerializer,
        responses={200: schema.TakebackAnsweredSerializer},
    )
    def post(self, request: Request, game_id: str, request_id: str) -> Response:
        access = _access(request, game_id)
        seat = access.require_seat()
        body = TakebackAnswerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            wanted = uuid.UUID(request_id)
        except ValueError:
            raise ServiceError("takeback_not_found") from None
        asked, outcome = takeback_answer(
            game_id=access.table.id,
            request_id=wanted,
            seat=seat,
            accept=bool(body.validated_data["accept"]),
        )
        return Response({"takeback": takeback_json(asked), "undone": outcome is not None})


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


class SandboxView(ApiView):
    @extend_schema(
        tags=["history"],
        summary="Open a sandbox table at a point of this game (directors)",
        description="Staff who do not play in the game: a new open sandbox table of the same "
        "game and seats whose start position is this game's state after event `at` (the "
        "last event of a command), under the record's rules and content version, every "
        "hidden card as the record holds it. Seat players or bots and start it to replay "
        "a disputed moment. Refused while a sealed choice waits for its reveal (403 "
        "`sealed_choice_pending`, as the audit and export), and at a point the game cannot "
        "go on from (400 `bad_position`, `field` `at`: mid-command, or after the end).",
        parameters=[GAME_ID],
        request=SandboxRequestSerializer,
        responses={201: schema.TableSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = SandboxRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table = lobby.sandbox_at(
            game_id=parse_game_id(game_id),
            at=body.validated_data["at"],
            user=cast(User, request.user),  # signed in: every route here needs it
        )
        return Response(
            reads.table_detail_document(table.id, request.user), status=status.HTTP_201_CREATED
        )
