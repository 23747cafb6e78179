"""Dependency probes for /healthz: each returns a JSON-able dict with an "ok" flag."""

from __future__ import annotations

import threading
import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone
from kombu import Connection as _Connection  # type: ignore[attr-defined]

Connection: Any = _Connection  # kombu is untyped


def check_database() -> dict[str, Any]:
    started = time.monotonic()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not ok"; the reason goes in the answer
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}".strip()}
    return {"ok": True, "vendor": connection.vendor, "ms": _ms_since(started)}


def check_clock() -> dict[str, Any]:
    """Deadlines (windows, turn limits, bot moves) more than HEALTH_OVERDUE_SECONDS past
    due: how many games have one, and how overdue the oldest is. Reported, never a 503:
    a web server cannot fix a late timer, and taking it out of rotation would not help."""
    from games.clock_loop import overdue
    from games.service import clock_ms

    tolerance = float(settings.HEALTH_OVERDUE_SECONDS)
    now = clock_ms()
    try:
        count, oldest = overdue(now, int(tolerance * 1000))
    except Exception as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}".strip()}
    return {
        "ok": count == 0,
        "overdue": count,
        "oldest_overdue_seconds": None if oldest is None else round((now - oldest) / 1000, 3),
        "tolerance_seconds": tolerance,
    }


def check_relay() -> dict[str, Any]:
    """Whether a webhook relay runs (some session, from any host, holds its lock) and how
    far behind it is: the games with events (or deciding rulings) it has not relayed yet
    and how long the oldest has waited, and the deliveries still waiting to be sent. ``ok``
    when one runs and nothing has waited longer than HEALTH_RELAY_LAG_SECONDS. Reported,
    never a 503: the relay runs in the workers, and taking a web server out of rotation
    would neither start one nor help anyone play."""
    from webhooks.delivery import backlog
    from webhooks.relay import lag
    from webhooks.worker import holder

    tolerance = float(settings.HEALTH_RELAY_LAG_SECONDS)
    now = timezone.now()
    try:
        relay = holder()
        behind, unrelayed = lag()
        pending, oldest_pending = backlog()
    except Exception as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}".strip()}
    late = _age(now, unrelayed)
    return {
        "ok": relay is not None and (late is None or late <= tolerance),
        "running": relay is not None,
        "holder": relay,
        "games_behind": behind,
        "oldest_unrelayed_seconds": late,
        "pending_deliveries": pending,
        "oldest_pending_seconds": _age(now, oldest_pending),
        "tolerance_seconds": tolerance,
    }


def _age(now: datetime, then: datetime | None) -> float | None:
    return None if then is None else max(round((now - then).total_seconds(), 3), 0.0)


def check_broker(url: str | None = None, timeout: float | None = None) -> dict[str, Any]:
    """Open (and close) one broker connection; answers within about ``timeout`` seconds.

    Socket timeouts bound each transport; the probe also runs in a daemon thread with a
    deadline, so a broker that accepts connections but never speaks cannot hang /healthz.
    """
    url = url or settings.CELERY_BROKER_URL
    timeout = settings.HEALTH_BROKER_TIMEOUT if timeout is None else timeout
    conn = Connection(
        url,
        connect_timeout=timeout,
        transport_options={
            # redis transport
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            # py-amqp transport
            "read_timeout": timeout,
            "write_timeout": timeout,
        },
    )
    redacted = conn.as_uri()  # masks the password
    result: dict[str, Any] = {"ok": False, "url": redacted, "error": "timed out"}
    started = time.monotonic()

    def probe() -> None:
        try:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0)
            result.update(ok=True, ms=_ms_since(started))
            result.pop("error")
        except Exception as exc:  # broker clients raise many kinds of errors
            result["error"] = f"{type(exc).__name__}: {exc}".strip()
        finally:
            conn.release()

    worker = threading.Thread(target=probe, name="healthz-broker", daemon=True)
    worker.start()
    worker.join(timeout + 0.5)
    return dict(result)


def _ms_since(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 1)
