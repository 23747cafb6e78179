"""Issue 30, where a feed's seconds go, against the production shape (gunicorn with uvicorn
workers, docker/gunicorn.conf.py): every delivery is traced stage by stage and the figures
of all workers are added up at ``GET /metrics`` (staff, or a scraper's token; nobody
else); a stream at its planned end hands over instead of leaving its viewer seconds
behind; and a loop that is late while its own thread idles (a machine busy elsewhere, a
garbage collection) sheds nothing."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User
from django.test import override_settings

from api.feed import limits as feed_limits
from api.feed.limits import Limits
from api.feed.metrics import STAGES
from tests.faults.conftest import Web
from tests.feed.helpers import FEED_ENV, discard, started_game, token_headers, waiting_long_poll

pytestmark = pytest.mark.django_db(transaction=True)

SCRAPER = "scraper-token-for-the-tests"


def figures(web: Web, headers: dict[str, str]) -> dict[str, float]:
    """``GET /metrics`` as {sample name with labels: value}."""
    response = requests.get(f"{web.url}/metrics", headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("text/plain")
    found = {}
    for line in response.text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            found[name] = float(value)
    return found


def stage_count(found: dict[str, float], stage: str) -> float:
    return found.get(f'fb_feed_stage_seconds_count{{stage="{stage}"}}', 0.0)


def test_a_delivery_is_traced_stage_by_stage_across_the_workers(webs) -> None:
    web = webs(workers=2, FB_METRICS_TOKEN=SCRAPER, **FEED_ENV)
    scraper = {"Authorization": f"Bearer {SCRAPER}"}
    game_id, version = started_game()
    before = figures(web, scraper)
    # one waiting long-poll per worker (likely: two connections), woken by a move
    polls = [waiting_long_poll(web, name, game_id, version, wait=20) for name in ("bob", "carol")]
    time.sleep(1.5)
    moved = discard("alice", game_id)
    for answer, waiter in polls:
        waiter.join(timeout=30)
        assert [e["seq"] for e in answer["response"].json()["events"]][-1] == moved
    time.sleep(1.5)  # each worker writes its figures once a second
    after = figures(web, scraper)
    delivered = moved - version
    for stage in ("commit", "queued", "read", "handed", "written", "total"):
        assert stage_count(after, stage) > stage_count(before, stage), stage
    assert stage_count(after, "total") - stage_count(before, "total") >= 2 * delivered
    assert (
        after['fb_feed_total{kind="answers"}'] >= before.get('fb_feed_total{kind="answers"}', 0) + 2
    )
    # a move is heard within a second here, so the whole way takes less than that
    total = 'fb_feed_stage_seconds_bucket{stage="total",le="1"}'
    assert after[total] - before.get(total, 0) >= 2 * delivered
    assert set(STAGES) <= {k.split('"')[1] for k in after if k.startswith("fb_feed_stage")}
    assert any(k.startswith("fb_feed_loop_lag_seconds_count") for k in after)
    assert 'fb_pool_queue_count{pool="web_queue"}' in after


def test_the_figures_are_for_staff_and_the_scrapers_token_only(webs) -> None:
    web = webs(FB_METRICS_TOKEN=SCRAPER, **FEED_ENV)
    started_game()  # alice, bob and carol exist
    url = f"{web.url}/metrics"
    anonymous = requests.get(url, timeout=10)
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")
    wrong = requests.get(url, headers={"Authorization": "Bearer not-the-token"}, timeout=10)
    assert (wrong.status_code, wrong.json()["code"]) == (401, "authentication_failed")
    player = requests.get(url, headers=token_headers("alice"), timeout=10)
    assert (player.status_code, player.json()["code"]) == (403, "forbidden")
    User.objects.filter(username="alice").update(is_staff=True)
    assert (
        "fb_feed_stage_seconds"
        in requests.get(url, headers=token_headers("alice"), timeout=10).text
    )
    # a proxy's header claiming another client changes nothing (the token decides)
    spoofed = requests.get(url, headers={"X-Forwarded-For": "127.0.0.1"}, timeout=10)
    assert spoofed.status_code == 401


def read_messages(lines: Iterator[str], until: Any) -> list[dict[str, Any]]:
    """Server-sent messages of a stream's ``lines`` (their fields; ``at``: when each
    came) until ``until(msg)`` or the stream ends."""
    messages: list[dict[str, Any]] = []
    fields: dict[str, Any] = {}
    for line in lines:
        if line:
            if not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value
            continue
        if fields:
            fields["at"] = time.monotonic()
            messages.append(fields)
            if until(fields):
                break
            fields = {}
    return messages


def test_a_stream_hands_over_at_its_planned_end_and_keeps_delivering_meanwhile(webs) -> None:
    web = webs(FB_SSE_LIFETIME="2", **FEED_ENV)
    game_id, version = started_game()
    headers = {**token_headers("carol"), "Accept": "text/event-stream"}
    url = f"{web.url}/api/v1/games/{game_id}/events/stream"
    with requests.get(url, headers=headers, stream=True, timeout=30) as old:
        opened = time.monotonic()
        old_lines = old.iter_lines(decode_unicode=True)  # one iterator: it buffers
        first = read_messages(old_lines, lambda m: m.get("event") == "handover")
        handover = first[-1]
        assert handover["event"] == "handover" and 1.8 < handover["at"] - opened < 4
        assert 50 <= int(handover["retry"]) <= 250  # a plain EventSource comes back at once
        said = json.loads(handover["data"])
        assert said == {"after": version, "seconds": 5.0}
        # carol's client opens the next stream from there; a move made meanwhile comes on
        # the old one too (the client keeps each seq once)
        with requests.get(
            url, headers={**headers, "Last-Event-ID": str(said["after"])}, stream=True, timeout=30
        ) as successor:
            moved = discard("alice", game_id)
            rest = read_messages(old_lines, lambda m: False)  # until the server closes it
            assert [int(m["id"]) for m in rest if "id" in m] == list(range(version + 1, moved + 1))
            assert time.monotonic() - handover["at"] < 7  # it ended after its grace
            caught = read_messages(
                successor.iter_lines(decode_unicode=True), lambda m: int(m.get("id", 0)) >= moved
            )
            assert [int(m["id"]) for m in caught if "id" in m] == list(
                range(version + 1, moved + 1)
            )


def _spin(seconds: float = 0.3) -> None:
    """The loop's own work: its thread on the CPU."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


@override_settings(FB_FEED_SHED_LAG_MS=100)
def test_a_loop_late_with_work_of_its_own_sheds(monkeypatch) -> None:
    monkeypatch.setattr(feed_limits, "LAG_PROBE_SECONDS", 0.05)
    shed = asyncio.run(_shed_slots(_spin))
    assert shed, "a loop busy with its own work ends streams"


@override_settings(FB_FEED_SHED_LAG_MS=100)
def test_a_loop_late_while_its_thread_idles_sheds_nothing(monkeypatch) -> None:
    """Late because its thread waits (here: sleeps, as it would for the GIL or the CPU):
    ending streams would give nothing back."""
    monkeypatch.setattr(feed_limits, "LAG_PROBE_SECONDS", 0.05)
    shed = asyncio.run(_shed_slots(lambda: time.sleep(0.3)))
    assert not shed


async def _shed_slots(block: Any) -> bool:
    """Whether the loop, blocked by ``block`` for 3 s, ended its open slot."""
    limits = Limits()
    limits.check_capacity()  # starts the lag probe
    until = time.monotonic() + 3.0
    with limits.slot(1) as slot:
        while time.monotonic() < until and not slot.shed.is_set():
            block()
            await asyncio.sleep(0.001)  # (a bare yield would starve asyncio's timers)
        overloaded = limits.overloaded
    # a new feed is refused exactly when it sheds
    assert overloaded == slot.shed.is_set()
    return slot.shed.is_set()


def test_the_figures_can_be_read_while_the_loop_writes_them() -> None:
    """The loop's thread keeps the figures and a web thread reads them (``/metrics``)."""
    from api.feed.metrics import METRICS, prometheus, read_all

    stop = threading.Event()

    def write() -> None:
        while not stop.is_set():
            METRICS.observe("total", 3.0)
            METRICS.count("frames")

    writer = threading.Thread(target=write)
    writer.start()
    try:
        for _ in range(200):
            assert "fb_feed_stage_seconds" in prometheus(read_all(None))
    finally:
        stop.set()
        writer.join()


def test_the_feed_skips_request_signals_only_while_django_alone_receives_them() -> None:
    """The feed's requests send no ``request_started`` / ``request_finished`` while their
    receivers are Django's own, which have nothing to do on the event loop; a receiver of
    another app's would make them sent again."""
    from django.core import signals

    from fbservice import asgi

    asgi._signals_matter.cache_clear()
    assert not asgi._signals_matter()

    def ours(**kwargs: Any) -> None:
        pass

    signals.request_finished.connect(ours)
    try:
        asgi._signals_matter.cache_clear()
        assert asgi._signals_matter()
    finally:
        signals.request_finished.disconnect(ours)
        asgi._signals_matter.cache_clear()
