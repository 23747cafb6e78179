"""Django setup and machine facts for the benchmarks (they are scripts, not tests)."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable

import django


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")
    django.setup()


def machine() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg = cursor.fetchone()[0]
    return (
        f"{platform.node()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, PostgreSQL {pg}"
    )


def timed(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``fn`` in milliseconds."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)
