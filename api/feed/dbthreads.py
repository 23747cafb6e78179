"""A few threads that do the feed's short database work for the event loop.

Django's ORM is synchronous. The feed's coroutines hand each unit of database work (sign
in, one read) to these threads and wait for it without holding a thread themselves; a
waiting subscriber holds neither a thread nor a connection. Each thread keeps its own
connection across units, recycled as Django does around a request (``CONN_MAX_AGE``,
health checks, a connection broken by a database restart), so a read costs no connect.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from asgiref.sync import AsyncToSync, sync_to_async
from django.db import close_old_connections, connections

P = ParamSpec("P")
T = TypeVar("T")


def _unit(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        close_old_connections()


class DatabaseThreads:
    def __init__(self, size: int) -> None:
        self.size = size
        self._executor = ThreadPoolExecutor(size, thread_name_prefix="feed-db")

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        if getattr(AsyncToSync.executors, "current", None) is not None:
            # Called from synchronous code that blocks its thread until we are done
            # (Django's test client, a WSGI server): that thread does the work, with its
            # connection and transaction (managed by its own request cycle), as asgiref's
            # thread-sensitive calls do.
            return await sync_to_async(functools.partial(fn, *args, **kwargs))()
        call = functools.partial(_unit, fn, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    def queued(self) -> int:
        """Units of work waiting for a thread."""
        return self._executor._work_queue.qsize()

    def close(self) -> None:
        """Close every thread's connections and stop the threads (a test database can
        then be dropped; a server shutting down leaves no connection behind)."""
        barrier = threading.Barrier(self.size)

        def close_mine() -> None:
            connections.close_all()
            barrier.wait(timeout=10)  # holds this thread so each one gets one of these

        for _ in range(self.size):
            self._executor.submit(close_mine)
        self._executor.shutdown(wait=True)
