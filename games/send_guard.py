"""Sending timer tasks never holds up a command, or the clock loop, while the broker is down.

A command sends its timer tasks after its commit, in the request; the clock loop sends the
next task (a bot's next move) after acting. With the broker gone, a send used to wait for
kombu's connection retries (a second or two) before failing: pure latency for a command
already committed, and a stall of the clock loop just when it is the only one keeping time.

So sends go through a queue to a sender thread of this process, which makes them with the
time they waited taken off their countdown. A failed send marks the broker down for
``FB_SEND_BACKOFF_SECONDS`` (doubling while it stays down, up to 8 times that); sends in
that time are dropped at once (the clock loop acts on those deadlines from PostgreSQL).
The first send after the backoff tries again and, if it goes through, sending resumes.
Sends still queued when a process dies are lost like any unsent task: the clock loop
covers them too.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

QUEUE_LIMIT = 10_000  # sends waiting for the sender thread; beyond it they are dropped

_lock = threading.Lock()
_down_since: float | None = None  # monotonic time of the first failure of this outage
_retry_at = 0.0
_backoff = 0.0
_skipped = 0
_queue: queue.Queue[tuple[Any, list[Any], float]] | None = None
_pid = 0  # the process that started the sender thread (a fork starts its own)
_inline = False  # send in the caller's thread (see send_inline)


def down_since() -> float | None:
    """When (``time.monotonic()``) this process found the broker unreachable; None if it
    has not, or a send has gone through since."""
    return _down_since


def _skipping(now: float) -> bool:
    global _skipped
    with _lock:
        if _down_since is not None and now < _retry_at:
            _skipped += 1
            return True
    return False


def send_inline() -> None:
    """This process sends in the calling thread: a Celery prefork pool process, which has
    nothing but its task to hold up. (With a sender thread there, a bench run saw tasks
    sent by pool processes reach the broker up to a second late: the thread seemed to
    get its turn only with the process's next task.)"""
    global _inline
    _inline = True


def send(task: Any, args: list[Any], countdown: float | None) -> bool:
    """Queue ``task.apply_async(args, countdown)`` for the sender thread; False when it is
    dropped because the broker is known to be down (or the queue is full)."""
    now = time.monotonic()
    if _skipping(now):
        return False
    if _inline:
        return send_now(task, args, now + (countdown or 0.0))
    try:
        _sender().put_nowait((task, args, now + (countdown or 0.0)))
    except queue.Full:
        log.warning("%d timer task(s) waiting to be sent: dropping %s", QUEUE_LIMIT, task.name)
        return False
    return True


def _sender() -> queue.Queue[tuple[Any, list[Any], float]]:
    global _queue, _pid
    with _lock:
        if _queue is None or _pid != os.getpid():
            _queue, _pid = queue.Queue(QUEUE_LIMIT), os.getpid()
            thread = threading.Thread(
                target=_run, args=(_queue,), name="fb-task-sender", daemon=True
            )
            thread.start()
        return _queue


def _run(pending: queue.Queue[tuple[Any, list[Any], float]]) -> None:
    while True:
        task, args, eta = pending.get()
        try:
            if not _skipping(time.monotonic()):
                send_now(task, args, eta)
        finally:
            pending.task_done()


def send_now(task: Any, args: list[Any], eta: float) -> bool:
    """Send at once (in this thread), due at ``eta`` (monotonic); False if it failed."""
    global _down_since, _retry_at, _backoff, _skipped
    countdown = eta - time.monotonic()
    try:
        task.apply_async(args=args, countdown=countdown if countdown > 0 else None)
    except Exception as exc:
        base = float(settings.FB_SEND_BACKOFF_SECONDS)
        with _lock:
            first = _down_since is None
            if first:
                _down_since, _backoff = time.monotonic(), base
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


def flush(timeout: float = 10.0) -> bool:
    """Wait until this process's queued sends are made (tests, scripts about to exit)."""
    pending = _queue
    if pending is None or _pid != os.getpid():
        return True
    deadline = time.monotonic() + timeout
    while pending.unfinished_tasks:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def reset() -> None:
    """Forget any outage (tests)."""
    global _down_since, _retry_at, _backoff, _skipped
    with _lock:
        _down_since, _retry_at, _backoff, _skipped = None, 0.0, 0.0, 0
