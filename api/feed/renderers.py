"""The event stream's media type, for the OpenAPI schema (``FeedStreamView``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer


class EventStreamRenderer(BaseRenderer):
    """``text/event-stream``: errors are sent as one ``event: error`` message carrying the
    usual envelope (``api.feed.views.error_response`` answers the same way)."""

    media_type = "text/event-stream"
    format = "sse"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        return f"event: error\ndata: {json.dumps(data)}\n\n".encode()
