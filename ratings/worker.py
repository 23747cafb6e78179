"""Where ratings are updated: a thread of each Celery worker, as the webhook relay is
(``webhooks.worker``): it LISTENs for the store's announcements (``events.notify``: every
append, and a ruling that ends or changes a game's result) and folds in the announced
games that are finished and ranked (``ratings.projector.catch_up``); every
``FB_RATINGS_SWEEP_SECONDS`` it catches up with everything (a lost announcement, a worker
that was down). Several workers may run it: the projector's lock makes them take turns,
and a game read once is not read again. ``FB_RATINGS_PROJECTOR=false`` keeps it out of
the workers (``manage.py recompute_ratings`` still rebuilds everything).
"""

from __future__ import annotations

import time
from typing import Any

import psycopg
from django.conf import settings

from events.followers import Follower, heard, worker_threads
from events.notify import CHANNEL

APPLICATION_NAME = "fbservice-ratings"


class Projector(Follower):
    application_name = APPLICATION_NAME
    what = "ratings projector"

    def __init__(self, interval: float | None = None) -> None:
        sweep = settings.FB_RATINGS_SWEEP_SECONDS if interval is None else interval
        super().__init__("fb-ratings", float(sweep))

    def follow(self, conn: psycopg.Connection[Any]) -> None:
        from ratings.projector import catch_up

        conn.execute(f"LISTEN {CHANNEL}")
        catch_up()  # what was announced while nobody listened
        next_sweep = time.monotonic() + self.interval
        while not self.stopping.is_set():
            streams = heard(conn, max(next_sweep - time.monotonic(), 0.01))
            if streams:
                catch_up(streams)
            if time.monotonic() >= next_sweep:
                catch_up()
                next_sweep = time.monotonic() + self.interval


connect_worker_signals = worker_threads(
    Projector, lambda: bool(settings.FB_RATINGS_PROJECTOR), "fb-ratings"
)
