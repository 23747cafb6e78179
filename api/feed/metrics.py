"""Where a feed's latency goes: the stages of each delivery, the event loop's lag and the
pools' queues, counted per process and shown to operators (``GET /metrics``, Prometheus'
text format; ``FB_METRICS_LOG_SECONDS``: a summary line in the log).

The stages of one event's way to one subscriber, in milliseconds (``STAGES``). Each is
timed where it happens, with a wall clock (the first stage starts at the event's
``recorded_at``, taken by the appending process just before its commit):

- ``commit``: recorded -> its announcement heard by this process's listener;
- ``queued``: heard -> the stream's read begun in a feed database thread (the loop
  scheduling the read, then a free thread);
- ``read``: the read itself (one query);
- ``handed``: read done -> a subscriber holds its viewer's documents (the loop waking it
  among the stream's other subscribers, then the redaction, shared per viewer);
- ``written``: -> the frame handed to the server (stream) or the answer returned (long-poll);
- ``total``: recorded -> written, for every delivered event, whether it came announced or
  from a read on (re)opening;
- ``reopen``: a long-poll answered -> the same caller's next long-poll of that game (an
  event appended in between waits for it);
- ``open``: a feed request arrived -> it holds what it missed (sign-in, access, read).

Histograms have fixed buckets, so observing is a bisection and an increment, and
processes' histograms add up. Each process writes its figures to ``FB_METRICS_DIR`` once a
second; ``/metrics`` adds up the files of the processes alive (gunicorn's workers share
the directory ``docker/gunicorn.conf.py`` makes). Without the directory it shows its own
process only.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import json
import logging
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# Upper bounds in ms; a last, open bucket holds the rest.
BUCKETS_MS: tuple[float, ...] = (
    0.5, 1, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750,
    1000, 1500, 2000, 3000, 5000, 7500, 10_000, 20_000, 60_000,
)  # fmt: skip

STAGES: dict[str, str] = {
    "commit": "event recorded -> its announcement heard by this process",
    "queued": "announcement heard -> the stream's read begun in a feed database thread",
    "read": "the stream's read (one query)",
    "handed": "read done -> a subscriber holds its viewer's documents",
    "written": "documents held -> frame handed to the server or long-poll answered",
    "total": "event recorded -> written to its subscriber",
    "reopen": "a long-poll answered -> the same caller's next long-poll of the game",
    "open": "a feed request arrived -> it holds what it missed",
}
# Sampled every SAMPLE_SECONDS: how late the loop's timer fired (ms), and the length of
# each pool's queue (work waiting for a thread), as registered by ``watch_queue``.
GAUGES: dict[str, str] = {
    "loop_lag": "how late a timer of the event loop fired, ms",
    "feed_db_queue": "feed reads waiting for a feed database thread",
    "web_queue": "requests waiting for a web (WSGI) thread",
    # not sampled: every full collection of the cyclic garbage collector, which holds the
    # GIL (every thread of the process, the loop's too, waits it out)
    "gc_pause": "a full (generation 2) garbage collection, ms",
    "gc_cpu": "the CPU time of that collection, ms (less than its pause: its thread was "
    "preempted, or a finalizer gave up the GIL)",
}
SAMPLE_SECONDS = 0.1
WRITE_SECONDS = 1.0
STALE_SECONDS = 30.0  # a process whose figures are older than this has gone


class Histogram:
    __slots__ = ("counts", "total")

    def __init__(self, counts: Iterable[int] | None = None, total: float = 0.0) -> None:
        self.counts = list(counts) if counts is not None else [0] * (len(BUCKETS_MS) + 1)
        self.total = total

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS_MS, value)] += 1
        self.total += value

    @property
    def count(self) -> int:
        return sum(self.counts)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile, interpolated within its bucket (NaN when empty)."""
        count = self.count
        if count == 0:
            return float("nan")
        rank = q * count
        seen = 0
        for index, n in enumerate(self.counts):
            if n and seen + n >= rank:
                low = BUCKETS_MS[index - 1] if index > 0 else 0.0
                if index == len(BUCKETS_MS):
                    return low  # the open bucket: at least its lower bound
                return low + (BUCKETS_MS[index] - low) * (rank - seen) / n
            seen += n
        return BUCKETS_MS[-1]

    def minus(self, earlier: Histogram) -> Histogram:
        return Histogram(
            (a - b for a, b in zip(self.counts, earlier.counts, strict=True)),
            self.total - earlier.total,
        )

    def plus(self, other: Histogram) -> Histogram:
        return Histogram(
            (a + b for a, b in zip(self.counts, other.counts, strict=True)),
            self.total + other.total,
        )


class Metrics:
    """One process's figures."""

    def __init__(self) -> None:
        self.stages = {name: Histogram() for name in STAGES}
        self.gauges = {name: Histogram() for name in GAUGES}
        self.counters: Counter[str] = Counter()  # frames, answers, refusals, stream ends

    def observe(self, stage: str, ms: float) -> None:
        self.stages[stage].observe(max(ms, 0.0))

    def since(self, stage: str, started: float, now: float | None = None) -> None:
        """Observe ``stage`` as the time from ``started`` (``time.time()``) to now."""
        self.observe(stage, ((time.time() if now is None else now) - started) * 1000)

    def count(self, name: str, n: int = 1) -> None:
        self.counters[name] += n

    def snapshot(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "at": time.time(),
            "stages": {k: [h.counts, h.total] for k, h in self.stages.items()},
            "gauges": {k: [h.counts, h.total] for k, h in self.gauges.items()},
            "counters": dict(self.counters),
        }


METRICS = Metrics()


def merged(snapshots: Iterable[Mapping[str, Any]]) -> Metrics:
    """The figures of several processes added up."""
    total = Metrics()
    for snap in snapshots:
        for field in ("stages", "gauges"):
            mine: dict[str, Histogram] = getattr(total, field)
            for name, (counts, summed) in snap.get(field, {}).items():
                if name in mine and len(counts) == len(BUCKETS_MS) + 1:
                    mine[name] = mine[name].plus(Histogram(counts, summed))
        total.counters.update(snap.get("counters", {}))
    return total


def read_all(folder: str | None) -> Metrics:
    """This process's figures and those the other live processes wrote to ``folder``."""
    snapshots: dict[int, Mapping[str, Any]] = {}
    if folder:
        now = time.time()
        for path in Path(folder).glob("*.json"):
            with contextlib.suppress(OSError, ValueError):
                snap = json.loads(path.read_text())
                if now - float(snap["at"]) < STALE_SECONDS:
                    snapshots[int(snap["pid"])] = snap
    snapshots[os.getpid()] = METRICS.snapshot()  # fresher than its file
    return merged(snapshots.values())


def write(folder: str) -> None:
    path = Path(folder, f"{os.getpid()}.json")
    partial = path.with_suffix(".tmp")
    partial.write_text(json.dumps(METRICS.snapshot()))
    partial.replace(path)  # readers never see half a file


# --- Prometheus' text format ----------------------------------------------------------------


def _bound(ms: float) -> str:
    return f"{ms / 1000:g}"


def _histogram_lines(name: str, label: str, key: str, hist: Histogram, scale: float) -> list[str]:
    lines = []
    running = 0
    for bound, n in zip(BUCKETS_MS, hist.counts, strict=False):
        running += n
        lines.append(f'{name}_bucket{{{label}="{key}",le="{bound * scale:g}"}} {running}')
    lines.append(f'{name}_bucket{{{label}="{key}",le="+Inf"}} {hist.count}')
    lines.append(f'{name}_sum{{{label}="{key}"}} {hist.total * scale:g}')
    lines.append(f'{name}_count{{{label}="{key}"}} {hist.count}')
    return lines


def prometheus(metrics: Metrics) -> str:
    """The figures in Prometheus' text exposition format (seconds, as it prefers)."""
    lines = [
        "# HELP fb_feed_stage_seconds Time an event spends in each stage of its delivery "
        "to a feed subscriber: " + "; ".join(f"{k}: {v}" for k, v in STAGES.items()),
        "# TYPE fb_feed_stage_seconds histogram",
    ]
    for stage, hist in metrics.stages.items():
        lines += _histogram_lines("fb_feed_stage_seconds", "stage", stage, hist, 0.001)
    lines += [
        "# HELP fb_feed_loop_lag_seconds How late a timer of the event loop fired.",
        "# TYPE fb_feed_loop_lag_seconds histogram",
        *_histogram_lines("fb_feed_loop_lag_seconds", "loop", "asgi", metrics.gauges["loop_lag"], 0.001),
        "# HELP fb_pool_queue Work waiting for a thread of a pool, sampled every "
        f"{SAMPLE_SECONDS:g} s.",
        "# TYPE fb_pool_queue histogram",
    ]  # fmt: skip
    for pool in ("feed_db_queue", "web_queue"):
        lines += _histogram_lines("fb_pool_queue", "pool", pool, metrics.gauges[pool], 1.0)
    lines += [
        "# HELP fb_gc_pause_seconds Full garbage collections (every thread waits them out).",
        "# TYPE fb_gc_pause_seconds histogram",
        *_histogram_lines("fb_gc_pause_seconds", "generation", "2", metrics.gauges["gc_pause"], 0.001),
        "# HELP fb_gc_cpu_seconds The CPU time of those collections.",
        "# TYPE fb_gc_cpu_seconds histogram",
        *_histogram_lines("fb_gc_cpu_seconds", "generation", "2", metrics.gauges["gc_cpu"], 0.001),
    ]  # fmt: skip
    lines += [
        "# HELP fb_feed_total Feed frames, answers, refusals and stream ends, by kind.",
        "# TYPE fb_feed_total counter",
    ]
    lines += [f'fb_feed_total{{kind="{k}"}} {n}' for k, n in sorted(metrics.counters.items())]
    return "\n".join(lines) + "\n"


def summary(metrics: Metrics) -> str:
    """One line: p50/p99 of each stage that saw anything, the loop's lag, the queues."""
    parts = [
        f"{name} {hist.quantile(0.5):.1f}/{hist.quantile(0.99):.1f}"
        for name, hist in {**metrics.stages, **metrics.gauges}.items()
        if hist.count
    ]
    counted = " ".join(f"{k}={n}" for k, n in sorted(metrics.counters.items()))
    return f"feed p50/p99 (ms; queues: items): {', '.join(parts)}; {counted}"


# --- the sampler (one per event loop) -------------------------------------------------------

_queues: dict[str, Callable[[], int]] = {}


def watch_queue(name: str, length: Callable[[], int]) -> None:
    """Sample ``length()`` as the gauge ``name`` (one of ``GAUGES``)."""
    _queues[name] = length


async def sample(folder: str | None, log_seconds: float) -> None:
    """Until cancelled: the loop's lag and the queues every SAMPLE_SECONDS; the figures
    to ``folder`` every WRITE_SECONDS; a summary to the log every ``log_seconds`` (0: no)."""
    written = logged = time.monotonic()
    last_logged = Metrics()
    while True:
        before = time.monotonic()
        await asyncio.sleep(SAMPLE_SECONDS)
        now = time.monotonic()
        METRICS.gauges["loop_lag"].observe(max(0.0, (now - before - SAMPLE_SECONDS) * 1000))
        for name, length in _queues.items():
            with contextlib.suppress(Exception):
                METRICS.gauges[name].observe(length())
        if folder and now - written >= WRITE_SECONDS:
            written = now
            try:
                write(folder)
            except OSError as exc:
                log.warning("metrics: cannot write to %s (%s)", folder, exc)
        if log_seconds > 0 and now - logged >= log_seconds:
            logged = now
            current = merged([METRICS.snapshot()])
            delta = Metrics()
            delta.stages = {k: h.minus(last_logged.stages[k]) for k, h in current.stages.items()}
            delta.gauges = {k: h.minus(last_logged.gauges[k]) for k, h in current.gauges.items()}
            delta.counters = current.counters - last_logged.counters
            last_logged = current
            if delta.stages["total"].count:
                log.info("%s", summary(delta))


_gc_started = (0.0, 0.0)


def _time_collections(phase: str, info: dict[str, int]) -> None:
    global _gc_started
    if info.get("generation") != 2:
        return
    if phase == "start":
        _gc_started = (time.perf_counter(), time.thread_time())
    else:
        METRICS.gauges["gc_pause"].observe((time.perf_counter() - _gc_started[0]) * 1000)
        METRICS.gauges["gc_cpu"].observe((time.thread_time() - _gc_started[1]) * 1000)


_sampler: dict[int, asyncio.Task[None]] = {}


def start_sampler(folder: str | None, log_seconds: float) -> None:
    """Start this loop's sampler once (the server's start, or the first feed request)."""
    if _time_collections not in gc.callbacks:
        gc.callbacks.append(_time_collections)
    loop = asyncio.get_running_loop()
    task = _sampler.get(id(loop))
    if task is None or task.done():
        _sampler[id(loop)] = loop.create_task(sample(folder, log_seconds), name="metrics")


async def stop_sampler() -> None:
    task = _sampler.pop(id(asyncio.get_running_loop()), None)
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
