"""The event feed's waiting routes, served by async code: long-poll and server-sent events.

A request signs in, checks its access and reads what it has missed in one of the feed's
database threads (``api.feed.dbthreads``); then it waits on this process's hub
(``api.feed.hub``) holding no thread and no database connection. When the game's stream
moves, the hub reads the new events once and every subscriber of that game redacts them
for its own viewer with the engine's projection (``games.reads.events_document``), exactly
as every other read does.

DRF views are synchronous, so these are plain Django async views; ``FeedView`` and
``FeedStreamView`` in ``api.game_views`` document them for the OpenAPI schema and route to
them (``documented_by``).
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.serializers import Serializer
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from api.base import REQUEST_ID_HEADER, request_id
from api.errors import ApiError, exception_handler
from api.feed import metrics
from api.feed.dbthreads import DatabaseThreads
from api.feed.hub import Batch, Hub, read_batch
from api.feed.limits import Limits
from api.feed.metrics import METRICS
from api.feed.recent import Recent
from api.serializers import FeedQuerySerializer, StreamQuerySerializer, seq_of
from games.models import Table
from games.reads import Access, access_for, events_document, parse_game_id, refreshed
from games.service import clock_ms, game_read

# --- routing --------------------------------------------------------------------------------


def served_by(
    documentation: type[APIView], handler: Callable[..., Awaitable[HttpResponseBase]]
) -> Callable[..., Awaitable[HttpResponseBase]]:
    """The URL's view: ``handler`` serves the route; the DRF view class ``documentation``
    describes it to drf-spectacular (which reads ``cls`` and ``initkwargs``)."""

    formats = {renderer.format for renderer in documentation.renderer_classes}

    async def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # What DRF's dispatch would refuse (found by schemathesis): other methods, 405 with
        # Allow; a ?format= no renderer has, 404.
        if request.method not in ("GET", "HEAD"):
            response = error_response(request, exceptions.MethodNotAllowed(str(request.method)))
            response["Allow"] = "GET, HEAD"
            return response
        wanted = request.GET.get(api_settings.URL_FORMAT_OVERRIDE or "format")
        if wanted is not None and wanted not in formats:
            return error_response(request, exceptions.NotFound(f"No such format: {wanted!r}."))
        return await handler(request, *args, **kwargs)

    view.cls = documentation  # type: ignore[attr-defined]
    view.initkwargs = {}  # type: ignore[attr-defined]
    view.csrf_exempt = True  # type: ignore[attr-defined]  # GET only, like DRF's views
    view.__name__ = view.__qualname__ = handler.__name__
    view.__doc__ = handler.__doc__
    return view


# --- per process (and per event loop) ------------------------------------------------------

_threads: DatabaseThreads | None = None


def threads() -> DatabaseThreads:
    global _threads
    if _threads is None:
        _threads = DatabaseThreads(settings.FB_FEED_DB_THREADS)
        metrics.watch_queue("feed_db_queue", _threads.queued)
    return _threads


def close_threads() -> None:
    global _threads
    if _threads is not None:
        _threads.close()
        _threads = None


async def shutdown() -> None:
    """The server is stopping: stop this loop's listener, close the database threads."""
    found = _states.pop(id(asyncio.get_running_loop()), None)
    if found is not None:
        await found.hub.stop()
    await metrics.stop_sampler()
    await asyncio.get_running_loop().run_in_executor(None, close_threads)


@dataclass
class _LoopState:
    loop: asyncio.AbstractEventLoop
    hub: Hub
    limits: Limits
    recent: Recent


_states: dict[int, _LoopState] = {}


def state() -> _LoopState:
    """The hub and limits of the running event loop: one per server process (a test
    client runs each request on a loop of its own)."""
    loop = asyncio.get_running_loop()
    found = _states.get(id(loop))
    if found is None or found.loop is not loop:
        for key in [k for k, s in _states.items() if s.loop.is_closed()]:
            del _states[key]
        found = _states[id(loop)] = _LoopState(
            loop, Hub(threads()), Limits(), Recent(settings.FB_FEED_RECENT_SECONDS)
        )
        start_metrics()
    return found


def start_metrics() -> None:
    """This loop's sampler of ``api.feed.metrics`` (the server's start, or the first
    feed request)."""
    metrics.start_sampler(settings.FB_METRICS_DIR or None, settings.FB_METRICS_LOG_SECONDS)


# --- opening a feed (in a database thread) -------------------------------------------------


@dataclass(frozen=True)
class Opened:
    access: Access  # as of ``batch``
    user_id: int
    query: dict[str, Any]
    batch: Batch | None  # what the caller has missed (after ``query["after"]``), if read


def _signed_in(request: HttpRequest) -> AbstractBaseUser:
    """The caller, by the API's authenticators (a token or a session)."""
    # api_settings imports the classes the setting names (the stubs type them as names)
    classes = cast(list[type[BaseAuthentication]], api_settings.DEFAULT_AUTHENTICATION_CLASSES)
    user = Request(request, authenticators=[cls() for cls in classes]).user
    if user is None or not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    return cast(AbstractBaseUser, user)


# Valid queries by their text: a long-poll asks the same few queries again and again, and a
# serializer's validation costs more than the rest of an answer from memory.
_valid_queries: dict[tuple[Any, ...], dict[str, Any]] = {}
VALID_QUERIES_KEPT = 4096  # then forgotten all at once (they are few: after=N&wait=25)


def parsed_query(request: HttpRequest, query_class: type[Serializer[Any]]) -> dict[str, Any]:
    """The query (``after`` taken from ``Last-Event-ID`` on a stream that resumes)."""
    key = (query_class, request.META.get("QUERY_STRING", ""), settings.FB_FEED_MAX_WAIT)
    valid = _valid_queries.get(key)
    if valid is None:
        query = query_class(data=request.GET)
        query.is_valid(raise_exception=True)
        valid = dict(query.validated_data)
        if len(_valid_queries) >= VALID_QUERIES_KEPT:
            _valid_queries.clear()
        _valid_queries[key] = valid
    data = dict(valid)
    last_id = request.META.get("HTTP_LAST_EVENT_ID", "").strip()
    if last_id and "after" in data and query_class is StreamQuerySerializer:
        after = seq_of(last_id)  # any number of digits: past the end is "nothing new yet"
        if after is None:
            raise ApiError("invalid", fields={"Last-Event-ID": ["A sequence number."]})
        data["after"] = after
    return data


def open_feed(
    request: HttpRequest, game_id: str, query_class: type[Serializer[Any]], *, read: bool = True
) -> Opened:
    """Sign in, parse the query, check access, close an overdue window (as any read
    does) and read what the caller has missed: one unit of database work."""
    user = _signed_in(request)
    data = parsed_query(request, query_class)
    # The table's status is not re-read here: the game is loaded next, and ``refreshed``
    # re-reads the table if the game has ended.
    access = access_for(parse_game_id(game_id), user, state_follows=True)
    access.require_started()
    loaded = game_read(game_id=access.table.id, table=access.table)
    access = refreshed(access, loaded)
    batch = read_batch(access.table.id, data["after"], data["limit"]) if read else None
    return Opened(access if batch is None else _as_of(access, batch), int(user.pk), data, batch)


# --- what a viewer sees of a batch ---------------------------------------------------------


def _as_of(access: Access, batch: Batch) -> Access:
    """The caller's access with the game's status as the batch read it."""
    if batch.finished and not access.finished:
        table = copy.copy(access.table)
        table.status = Table.Status.FINISHED
        return replace(access, table=table)
    return access


def visible_documents(access: Access, batch: Batch, after: int) -> list[dict[str, Any]]:
    """The batch's events after ``after`` that this viewer may see now, redacted for it
    (each viewer's redaction is made once per batch and shared)."""
    upto = access.visible(batch.version)
    key = (access.viewer, access.finished)
    documents = batch.documents.get(key)
    if documents is None:
        documents = events_document(access, batch.rows, revealed=access.finished)
        batch.documents[key] = documents
    return [d for d in documents if after < d["seq"] <= upto]


def delivered(batch: Batch, documents: list[dict[str, Any]], ready: float) -> None:
    """Observe the last stages of ``documents`` (of ``batch``, held since ``ready``), just
    written to their subscriber."""
    now = time.time()
    for document in documents:
        METRICS.since("written", ready, now)
        index = document["seq"] - batch.since - 1  # a batch's rows are consecutive seqs
        if 0 <= index < len(batch.rows):
            METRICS.since("total", batch.rows[index].recorded_at.timestamp(), now)


def handed(batch: Batch) -> float:
    """A subscriber holds its documents of an announced ``batch``: now (observed)."""
    now = time.time()
    METRICS.since("handed", batch.read_done, now)
    return now


async def _catch_up(access: Access, after: int) -> tuple[Access, Batch]:
    """What the viewer has missed after ``after``: remembered by the hub, or read."""
    hub = state().hub
    batch = hub.remembered(access.table.id, after)
    if batch is None:
        epoch = hub.epoch
        batch = await threads().run(read_batch, access.table.id, after)
        hub.remember(access.table.id, batch, epoch)
    return _as_of(access, batch), batch


async def opened_feed(
    request: HttpRequest, game_id: str, query_class: type[Serializer[Any]], *, read: bool = True
) -> Opened:
    """``open_feed``, skipped when this loop saw the same caller at the same game seconds
    ago and (``read``) the hub remembers everything after the caller's seq: a long-poll
    coming back for more costs no database thread (``api.feed.recent``)."""
    local = state()
    stream_id = parse_game_id(game_id)
    access = local.recent.access(request, stream_id)
    if access is not None:
        data = parsed_query(request, query_class)
        if not read:
            return Opened(access, int(str(access.user.pk)), data, None)
        batch = local.hub.remembered(stream_id, data["after"])
        if batch is not None:
            return Opened(_as_of(access, batch), int(str(access.user.pk)), data, batch)
    epoch = local.hub.epoch
    opened = await threads().run(open_feed, request, game_id, query_class, read=read)
    local.recent.remember(request, opened.access)
    if opened.batch is not None:
        local.hub.remember(stream_id, opened.batch, epoch)
    return opened


# --- errors --------------------------------------------------------------------------------


def _wants_event_stream(request: HttpRequest) -> bool:
    accept = request.META.get("HTTP_ACCEPT", "")
    return "text/event-stream" in accept and "json" not in accept


def error_response(request: HttpRequest, exc: Exception) -> HttpResponse:
    """The API's envelope for ``exc`` (as ``api.errors.exception_handler`` makes it); as
    one ``event: error`` message to a client that accepts only an event stream."""
    handled = exception_handler(exc, {"request": request})
    if handled is None:  # pragma: no cover - the handler answers every exception
        raise exc
    body = handled.data
    METRICS.count(f"refused_{body.get('code', handled.status_code)}")
    if _wants_event_stream(request):
        response: HttpResponse = HttpResponse(
            f"event: error\ndata: {json.dumps(body)}\n\n",
            status=handled.status_code,
            content_type="text/event-stream; charset=utf-8",
        )
    else:
        response = JsonResponse(body, status=handled.status_code)
    for name in ("Retry-After", "Allow"):
        if name in handled:
            response[name] = handled[name]
    if handled.status_code == 401:
        response["WWW-Authenticate"] = 'Token realm="api"'
    retry = body.get("extra", {}).get("retry_after")
    if retry is not None and "Retry-After" not in response:
        response["Retry-After"] = str(int(retry))
    response[REQUEST_ID_HEADER] = request_id(request)
    return response


# --- long-poll -----------------------------------------------------------------------------

SPREAD_FROM = 10.0  # seconds: shorter waits are kept exactly
# A stream at its planned end: the reconnect delay it asks for, and how long it keeps
# delivering after its handover message (a client that opens the next stream meanwhile
# misses no moment).
HANDOVER_RETRY_MS = (50, 250)
HANDOVER_SECONDS = 5.0
# A stream shed under load asks its client to come back later than usual.
SHED_RETRY_MS = (5_000, 10_000)


def spread(wait: float) -> float:
    """A long wait (or a stream's lifetime) ends at a random point of its last fifth:
    clients that all connected at once (a deploy, a network blip) do not all come back at
    once, every time."""
    return wait if wait < SPREAD_FROM else wait * random.uniform(0.8, 1.0)  # noqa: S311


async def feed(request: HttpRequest, game_id: str) -> HttpResponse:
    """``GET /api/v1/games/<id>/events?after=&wait=&limit=`` (see ``FeedView``). A wait
    ends with the first events the caller may see, or once the game is over (the answer's
    ``finished`` says so): at once if it already was, since nothing more will be appended,
    or when a ruling ends it without an event."""
    arrived = time.time()
    local = state()
    try:
        local.limits.check_capacity()  # before any database work: shed load cheaply
        # Subscribed before the first read: an append committed after that read wakes it.
        with local.hub.subscribe(parse_game_id(game_id)) as subscription:
            opened = await opened_feed(request, game_id, FeedQuerySerializer)
            after, wait, limit = (opened.query[k] for k in ("after", "wait", "limit"))
            access, batch = opened.access, opened.batch
            assert batch is not None  # noqa: S101 - read=True
            subscription.after = after
            found = visible_documents(access, batch, after)
            ready = time.time()
            METRICS.since("open", arrived, ready)
            local.recent.came_back(request, access.table.id, arrived)
            with local.limits.slot(opened.user_id) as slot:
                slot.wakers.append(subscription.interrupt)
                until = time.monotonic() + spread(wait)
                # until there is news, or the game is over (a finished game gets no more)
                while not found and not slot.shed.is_set() and not access.finished:
                    remaining = until - time.monotonic()
                    if remaining <= 0:
                        break
                    news = await subscription.next(remaining)
                    if news is None:
                        continue
                    access, batch = _as_of(access, news), news
                    found = visible_documents(access, batch, after)
                    ready = handed(batch)
                    if not found and access.visible(batch.version) > after:
                        access, batch = await _catch_up(access, after)  # it fell behind
                        found = visible_documents(access, batch, after)
    except Exception as exc:
        return error_response(request, exc)
    visible = access.visible(batch.version)
    shown = found[:limit]
    delivered(batch, shown, ready)
    METRICS.count("answers" if shown else "empty_answers")
    local.recent.answered(request, access.table.id)
    response = JsonResponse(
        {
            "version": visible,
            "events": shown,
            "has_more": bool(shown) and shown[-1]["seq"] < visible,
            "revealed": access.finished,
            "finished": access.finished,
            "server_time": clock_ms(),
        }
    )
    response[REQUEST_ID_HEADER] = request_id(request)
    return response


# --- server-sent events --------------------------------------------------------------------


def message(document: dict[str, Any]) -> str:
    return f"id: {document['seq']}\ndata: {json.dumps(document, separators=(',', ':'))}\n\n"


async def feed_stream(request: HttpRequest, game_id: str) -> HttpResponseBase:
    """``GET /api/v1/games/<id>/events/stream`` (see ``FeedStreamView``)."""
    arrived = time.time()
    try:
        opened = await opened_feed(request, game_id, StreamQuerySerializer, read=False)
        state().limits.check(opened.user_id)
    except Exception as exc:
        return error_response(request, exc)
    # The stream subscribes, then reads, when it starts: a stream never started holds
    # nothing, and nothing appended in between is lost.
    response = StreamingHttpResponse(
        _stream(
            opened,
            lifetime=settings.FB_SSE_LIFETIME,
            heartbeat=settings.FB_SSE_HEARTBEAT,
            arrived=arrived,
        ),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: do not buffer the stream
    response[REQUEST_ID_HEADER] = request_id(request)
    return response


def _retry(low_ms: int, high_ms: int) -> str:
    """A ``retry:`` field: how long ``EventSource`` waits before it reconnects, spread so
    that streams ended together do not all come back together."""
    return f"retry: {random.randint(low_ms, high_ms)}\n"  # noqa: S311 - spreading load


def handover_message(after: int, seconds: float) -> str:
    """The stream is at its planned end: reconnect now (``retry``), or open the next
    stream from ``after`` and close this one, which keeps delivering for ``seconds``."""
    data = json.dumps({"after": after, "seconds": seconds})
    return f"{_retry(*HANDOVER_RETRY_MS)}event: handover\ndata: {data}\n\n"


async def _stream(
    opened: Opened, *, lifetime: float, heartbeat: float, arrived: float
) -> AsyncIterator[str]:
    """Everything after ``after`` the viewer may see, then each new event as it comes;
    ``: ping`` every ``heartbeat`` seconds; ``event: end`` once the game is over and all
    of it was sent. After ``lifetime`` seconds the stream hands over (``handover_message``)
    and ends ``HANDOVER_SECONDS`` later; when the server sheds it under load it ends at
    once, asking the client to come back later than usual."""
    access, after = opened.access, opened.query["after"]
    local = state()
    # spread like a long wait: streams opened together (a deploy, a client's restart) would
    # otherwise all hand over together, every lifetime, each opening a connection at once
    ends_at = time.monotonic() + spread(lifetime)
    handing_over = False
    ended = "gone"  # how the stream ended (``api.feed.metrics``' counters)
    yield "retry: 2000\n\n"
    try:
        with (
            local.limits.slot(opened.user_id, checked=True) as slot,
            local.hub.subscribe(access.table.id, after) as subscription,
        ):
            slot.wakers.append(subscription.interrupt)
            access, batch = await _catch_up(access, after)
            ready = time.time()
            METRICS.since("open", arrived, ready)
            while True:
                documents = visible_documents(access, batch, after)
                for document in documents:
                    text = batch.messages.get(id(document))
                    if text is None:
                        text = batch.messages[id(document)] = message(document)
                    yield text
                    after = subscription.after = document["seq"]
                delivered(batch, documents, ready)
                METRICS.count("frames", len(documents))
                visible = access.visible(batch.version)
                if after < visible:
                    access, batch = await _catch_up(access, after)  # more than one batch
                    ready = time.time()
                    continue
                if access.finished:
                    ended = "finished"
                    yield "event: end\ndata: {}\n\n"
                    return
                quiet_since = time.monotonic()
                news = None
                while news is None:
                    now = time.monotonic()
                    if slot.shed.is_set():
                        ended = "shed"
                        yield _retry(*SHED_RETRY_MS) + "\n"
                        return
                    if now >= ends_at:
                        if handing_over:
                            ended = "lifetime"
                            return
                        handing_over = True
                        ends_at = now + HANDOVER_SECONDS
                        yield handover_message(after, HANDOVER_SECONDS)
                        continue
                    news = await subscription.next(
                        min(ends_at - now, heartbeat - (now - quiet_since))
                    )
                    if news is None and time.monotonic() - quiet_since >= heartbeat - 0.001:
                        yield ": ping\n\n"
                        quiet_since = time.monotonic()
                access, batch = _as_of(access, news), news
                ready = handed(batch)
    finally:
        METRICS.count(f"stream_end_{ended}")
