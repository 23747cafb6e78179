"""The event feed as server-sent events (``text/event-stream``).

Each game event is one SSE message: ``id: <seq>`` and ``data: <the feed's JSON for the
event>`` (no ``event:`` name, so ``EventSource.onmessage`` receives it). The stream sends
``: ping`` comments as heartbeats, ``event: end`` once the game is over and every event has
been sent, and closes after its lifetime; ``EventSource`` then reconnects with
``Last-Event-ID`` and the feed resumes where it stopped. A stream holds one worker thread
while it is open: serve it from a threaded or async worker.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from django.http import StreamingHttpResponse
from rest_framework.renderers import BaseRenderer

from api.viewers import Access, events_document, refreshed
from games import selectors
from games.service import clock_ms, game_read

POLL_SECONDS = 0.2
BATCH = 500


class EventStreamRenderer(BaseRenderer):
    """Lets a client that accepts only ``text/event-stream`` be answered; errors are sent
    as one ``event: error`` message carrying the usual envelope."""

    media_type = "text/event-stream"
    format = "sse"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        return f"event: error\ndata: {json.dumps(data)}\n\n".encode()


def message(document: dict[str, Any]) -> str:
    return f"id: {document['seq']}\ndata: {json.dumps(document, separators=(',', ':'))}\n\n"


def _deadline(game_id: Any) -> int | None:
    window = getattr(game_read(game_id=game_id).state, "window", None)
    return None if window is None else int(window.deadline)


def stream(access: Access, *, after: int, lifetime: float, heartbeat: float) -> Iterator[str]:
    started = time.monotonic()
    last_sent = started
    game_id = access.table.id
    deadline = _deadline(game_id)
    seen_version = -1
    yield "retry: 2000\n\n"
    while True:
        version = selectors.stream_version(game_id)
        if version != seen_version:
            access, seen_version = refreshed(access), version
        visible = access.visible(version)
        if visible > after:
            rows = selectors.events_between(game_id, after=after, upto=visible, limit=BATCH)
            for document in events_document(access, rows, revealed=access.finished):
                yield message(document)
                after = document["seq"]
            last_sent = time.monotonic()
            if last_sent - started >= lifetime:
                return
            deadline = _deadline(game_id)
            continue
        if access.finished:
            yield "event: end\ndata: {}\n\n"
            return
        now = time.monotonic()
        if now - started >= lifetime:
            return
        if now - last_sent >= heartbeat:
            yield ": ping\n\n"
            last_sent = now
        time.sleep(POLL_SECONDS)
        if deadline is not None and clock_ms() >= deadline:
            deadline = _deadline(game_id)  # closes the overdue window


def event_stream_response(
    access: Access, *, after: int, lifetime: float, heartbeat: float
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        stream(access, after=after, lifetime=lifetime, heartbeat=heartbeat),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: do not buffer the stream
    return response
