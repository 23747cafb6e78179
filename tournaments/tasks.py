"""Celery tasks: a round's deadline and the sweep that makes rounds run themselves.

``advance`` is sent with a countdown to each round's deadline when the round starts; the
beat's ``tournaments.tasks.sweep`` (every FB_TOURNAMENT_SWEEP_SECONDS) advances every
running tournament, so a round ends within one interval of its last game's end (a
finished game, or a director's deciding ruling) and a lost countdown costs one interval.
Both are idempotent: ``tournaments.services.advance`` decides from the log under the
tournament's row lock.
"""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments import services

log = logging.getLogger(__name__)


@shared_task(name="tournaments.tasks.advance")
def advance(tournament_id: str) -> str:
    return services.advance(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.sweep")
def sweep() -> dict[str, int]:
    counts: dict[str, int] = {}
    for tournament_id in services.running_ids():
        try:
            outcome = services.advance(tournament_id=tournament_id)
        except Exception:  # one tournament's failure must not stop the others' rounds
            log.exception("tournament %s: advance failed", tournament_id)
            outcome = "failed"
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts
