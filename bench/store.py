"""Event store appends/s against a bare psycopg INSERT of one row per event, same run.

    python -m bench.store [--events 400]

Each writer appends to its own game, one event per transaction, with 1 and 8 writers:
``append`` (the ORM path: undo, the lobby's deal), ``append_command`` (what every game
command uses: the event and the command's record in one statement), and a bare INSERT.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
import uuid
from collections.abc import Callable

from bench._setup import machine, setup

setup()

import psycopg  # noqa: E402
from django.db import connection  # noqa: E402

from events.chain import GENESIS  # noqa: E402
from events.store import NewEvent, append, append_command  # noqa: E402

PAYLOAD = {"seat": 1, "card": "c07", "kind": "CONTRACT", "discard": False, "targets": ["x"]}


def store_writer(n: int) -> None:
    stream = uuid.uuid4()
    for version in range(n):
        append(
            stream_id=stream,
            expected_version=version,
            actor="bench",
            events=[NewEvent("bench.Appended", PAYLOAD)],
        )
    connection.close()


def command_writer(n: int) -> None:
    stream = uuid.uuid4()
    prev = GENESIS
    for version in range(n):
        rows, _ = append_command(
            stream_id=stream,
            expected_version=version,
            prev_hash=prev,
            events=[NewEvent("bench.Appended", PAYLOAD)],
            actor="bench",
            command_id=uuid.uuid4(),
            seat=1,
            command={"type": "play", "card": "c07"},
            expected_by_client=None,
            now_ms=int(time.time() * 1000),
        )
        prev = rows[-1].hash
    connection.close()


def bare_writer(dsn: str, n: int) -> None:
    stream = uuid.uuid4()
    with psycopg.connect(dsn, autocommit=True) as conn:
        for seq in range(1, n + 1):
            conn.execute(
                "INSERT INTO bench_bare_event (stream_id, seq, payload) VALUES (%s, %s, %s)",
                (stream, seq, json.dumps(PAYLOAD)),
            )


def rate(writers: int, n: int, work: Callable[[], None]) -> float:
    threads = [threading.Thread(target=work) for _ in range(writers)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return writers * n / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=400, help="events per writer")
    args = parser.parse_args()
    params = connection.get_connection_params()
    dsn = psycopg.conninfo.make_conninfo(
        **{k: v for k, v in params.items() if k in ("dbname", "user", "password", "host", "port")}
    )
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_bare_event (id bigserial PRIMARY KEY, "
            "stream_id uuid, seq int, payload jsonb, UNIQUE (stream_id, seq))"
        )
    print(f"machine: {machine()}")
    print(
        f"{'writers':>8} {'append/s':>9} {'append_command/s':>17} {'bare INSERT/s':>14} "
        f"{'ratios':>12}"
    )
    try:
        for writers in (1, 8):
            store = rate(writers, args.events, lambda: store_writer(args.events))
            command = rate(writers, args.events, lambda: command_writer(args.events))
            bare = rate(writers, args.events, lambda: bare_writer(dsn, args.events))
            print(
                f"{writers:>8} {store:>9.0f} {command:>17.0f} {bare:>14.0f} "
                f"{store / bare:>5.2f} {command / bare:>5.2f}"
            )
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS bench_bare_event")


if __name__ == "__main__":
    main()
