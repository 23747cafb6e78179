"""What a feed process remembers so that a long-poll coming back costs no database work,
and when it must not trust it (api/feed/hub.py ``remembered``, api/feed/recent.py)."""

from __future__ import annotations

import asyncio
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, cast

from django.test import RequestFactory

from api.feed.hub import BATCH, Batch, Hub
from api.feed.recent import Recent
from games.feed import FeedRow
from games.reads import Access

GAME = uuid.uuid4()


def batch(since: int, upto: int, version: int | None = None) -> Batch:
    rows = [
        FeedRow(seq, "X", 1, {}, "system", datetime(2026, 1, 1, tzinfo=UTC))
        for seq in range(since + 1, upto + 1)
    ]
    return Batch(since, rows, upto if version is None else version, False)


def run(coroutine: Any) -> Any:
    # A thread of its own: in a full run the browser tests' Playwright loop may own this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def listening_hub() -> Hub:
    hub = Hub(threads=cast(Any, None))
    hub.listening.set()
    return hub


def test_a_batch_is_remembered_for_callers_it_covers() -> None:
    async def scenario() -> None:
        hub = listening_hub()
        with hub.subscribe(GAME):
            hub.remember(GAME, batch(4, 9), hub.epoch)
        # the subscriber left: the stream stays followed and remembered for a while
        assert hub.remembered(GAME, 9) is not None
        assert hub.remembered(GAME, 4) is not None
        assert hub.remembered(GAME, 3) is None  # it does not reach back to seq 4

    run(scenario())


def test_an_announcement_newer_than_the_batch_means_a_read() -> None:
    async def scenario() -> None:
        hub = listening_hub()
        with hub.subscribe(GAME):
            hub.remember(GAME, batch(4, 9), hub.epoch)
        hub.announced(GAME, 10)  # nobody waits: no read, but the batch is now stale
        assert hub.remembered(GAME, 9) is None

    run(scenario())


def test_nothing_is_trusted_once_the_listener_may_have_missed_announcements() -> None:
    async def scenario() -> None:
        hub = listening_hub()
        with hub.subscribe(GAME):
            epoch = hub.epoch
            hub.remember(GAME, batch(4, 9), epoch)
            hub._lost()  # the LISTEN connection failed
            assert hub.remembered(GAME, 9) is None
            hub.listening.set()  # even once listening again ...
            assert hub.remembered(GAME, 9) is None
            hub.remember(GAME, batch(4, 9), epoch)  # ... and a read begun before the loss
            assert hub.remembered(GAME, 9) is None

    run(scenario())


def test_a_batch_cut_at_its_limit_is_not_remembered() -> None:
    async def scenario() -> None:
        hub = listening_hub()
        with hub.subscribe(GAME):
            hub.remember(GAME, batch(0, BATCH, version=BATCH + 10), hub.epoch)
        assert hub.remembered(GAME, BATCH) is None

    run(scenario())


def test_an_unwatched_stream_is_forgotten() -> None:
    async def scenario() -> None:
        hub = listening_hub()
        hub.remember(GAME, batch(4, 9), hub.epoch)  # nobody subscribed: nothing kept
        assert hub.remembered(GAME, 9) is None

    run(scenario())


def _access(user_id: int) -> Access:
    user = SimpleNamespace(pk=user_id, is_authenticated=True)
    table = SimpleNamespace(id=GAME)
    return cast(Access, SimpleNamespace(user=user, table=table))


def test_only_header_tokens_are_remembered_and_only_for_their_game() -> None:
    factory = RequestFactory()
    recent = Recent(seconds=30)
    with_token = factory.get("/", HTTP_AUTHORIZATION="Token abc")
    recent.remember(with_token, _access(7))
    assert recent.access(factory.get("/", HTTP_AUTHORIZATION="Token abc"), GAME) is not None
    assert recent.access(factory.get("/", HTTP_AUTHORIZATION="Token abd"), GAME) is None
    assert recent.access(factory.get("/", HTTP_AUTHORIZATION="Token abc"), uuid.uuid4()) is None
    cookie_only = factory.get("/")
    recent.remember(cookie_only, _access(8))
    assert recent.access(cookie_only, GAME) is None


def test_remembered_entries_expire(monkeypatch) -> None:
    clock = [100.0]
    monkeypatch.setattr("api.feed.recent.time.monotonic", lambda: clock[0])
    recent = Recent(seconds=5)
    request = RequestFactory().get("/", HTTP_AUTHORIZATION="Bearer k")
    recent.remember(request, _access(7))
    clock[0] += 4.9
    assert recent.access(request, GAME) is not None
    clock[0] += 0.2
    assert recent.access(request, GAME) is None


def test_long_waits_end_at_a_random_point_of_their_last_fifth() -> None:
    from api.feed.views import spread

    assert spread(5.0) == 5.0  # short waits are kept exactly
    ends = {spread(25.0) for _ in range(200)}
    assert all(20.0 <= end <= 25.0 for end in ends)
    assert max(ends) - min(ends) > 2.0  # spread out, not one fixed cut
