"""Sending timer tasks never holds up a command while the broker is down.

A command sends its timer tasks after its commit, in the request. With the broker gone,
each send used to wait for kombu's connection retries before failing; the command was
already committed, so that wait was pure latency for the player. Now a failed send marks
the broker down in this process for ``FB_SEND_BACKOFF_SECONDS`` (doubling while it stays
down, up to 8 times that), and sends in that time are skipped at once: the clock loop
(``games.clock_loop``) acts on those deadlines from PostgreSQL. The first send after the
backoff tries again (one short attempt: see CELERY_TASK_PUBLISH_RETRY_POLICY and the
connect timeouts in settings) and, if it goes through, sending resumes.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

_lock = threading.Lock()
_down_since: float | None = None  # monotonic time of the first failure of this outage
_retry_at = 0.0
_backoff = 0.0
_skipped = 0


def down_since() -> float | None:
    """When (``time.monotonic()``) this process found the broker unreachable; None if it
    has not, or a send has gone through since."""
    return _down_since


def send(task: Any, args: list[Any], countdown: float | None) -> bool:
    """``task.apply_async(args, countdown)`` unless the broker is known down; False when
    the task was not sent (skipped, or the send failed: logged, never raised)."""
    global _down_since, _retry_at, _backoff, _skipped
    now = time.monotonic()
    with _lock:
        if _down_since is not None and now < _retry_at:
            _skipped += 1
            return False
    try:
        task.apply_async(args=args, countdown=countdown)
    except Exception as exc:
        base = float(settings.FB_SEND_BACKOFF_SECONDS)
        with _lock:
            first = _down_since is None
            if first:
                _down_since, _backoff = now, base
            else:
                _backoff = min(_backoff * 2, base * 8)
            _retry_at = time.monotonic() + _backoff
        if first:
            log.warning(
                "broker unreachable (%s: %s): timer tasks are not sent for %.1fs at a time; "
                "the clock loop acts on their deadlines",
                type(exc).__name__, exc, _backoff,
            )  # fmt: skip
        return False
    with _lock:
        if _down_since is not None:
            log.warning(
                "broker reachable again after %.1fs (%d timer task(s) not sent meanwhile)",
                time.monotonic() - _down_since, _skipped,
            )  # fmt: skip
            _down_since, _skipped = None, 0
    return True


def reset() -> None:
    """Forget any outage (tests)."""
    global _down_since, _retry_at, _backoff, _skipped
    with _lock:
        _down_since, _retry_at, _backoff, _skipped = None, 0.0, 0.0, 0
