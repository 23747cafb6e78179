"""How the Infamy golden records were made: games played through the service (lobby, command
execution, event store), exported as ``manage.py export_game`` exports them.

Each record is "exported by the code of its time": run this script with the code of the
version the record names, never again afterwards (a record made by newer code would prove
nothing about the old). Usage, with DATABASE_URL / CELERY_BROKER_URL set and migrated::

    python tests/games/records/make_infamy_records.py rules1 <out dir>
    python tests/games/records/make_infamy_records.py rules2 <out dir>

``rules1`` was run at 7c5ea75 (rules version 1, content labelled infamy/standin-0):

- ``resign``: the high bidder resigns mid-auction after a lower bid that everyone else has
  passed since (spec 3.8.3; rules 1 keeps the auction open and asks again), then the
  game is played out by bots to the end.
- ``bots``: a plain heuristic/random bot game to its end.

``rules2`` was run with the code of issue 28 (rules version 2, event schema 2):

- ``resign`` (content infamy/standin-1): the same moves; the auction now ends at once.
- ``bots`` (infamy/standin-1) and ``bots`` with the table option ``content_version``
  infamy/standin-0 (the specification's numbers), three seats each.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from games.bots import bots_play  # noqa: E402
from games.commands import execute  # noqa: E402
from games.loading import game_load, table_get  # noqa: E402
from games.lobby import seat_add_bot, seat_join, table_create, table_start  # noqa: E402
from games.models import Table  # noqa: E402
from games.record import game_export  # noqa: E402
from games.verify import verify_record  # noqa: E402


def _users(n: int) -> list[Any]:
    model = get_user_model()
    return [model.objects.create(username=f"golden-{uuid.uuid4().hex[:8]}") for _ in range(n)]


def _send(table: Table, seat: int, user: Any, command: dict[str, Any]) -> None:
    execute(
        game_id=table.id,
        seat=seat,
        actor=f"user:{user.pk}",
        command=command,
        command_id=uuid.uuid4(),
    )


def _export(table: Table, path: Path) -> None:
    table = table_get(table.id)
    record = game_export(table)
    report = verify_record(record)
    assert report.ok, report.problems
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}: {report.events_checked} events")


def resign_case(out: Path, prefix: str, options: dict[str, Any] | None = None) -> None:
    """Seat 0 bids 1, seats 1 and 2 pass, seat 3 bids 2; seat 3 resigns while seat 0 is
    asked: seat 0's bid is the high bid again, and everyone else passed since it."""
    users = _users(4)
    stacked = {
        "first_seat": 0,
        "watchdog_sector": 3,
        "contacts": [["c02", "c06", "c03", "c04", "c08"]],
    }
    table = table_create(
        created_by=users[0], game="infamy", seats=4, mode=Table.Mode.SANDBOX,
        seed="golden-resign", options={**(options or {}), "stacked": stacked},
    )  # fmt: skip
    for i, user in enumerate(users):
        seat_join(table_id=table.id, user=user, position=i, name=f"Player {i + 1}")
    table_start(table_id=table.id, run_bots=False)
    _send(table, 0, users[0], {"type": "bid", "total": 1})
    _send(table, 1, users[1], {"type": "pass"})
    _send(table, 2, users[2], {"type": "pass"})
    _send(table, 3, users[3], {"type": "bid", "total": 2})
    _send(table, 3, users[3], {"type": "resign"})
    state = game_load(game_id=table.id).state
    print("after the resignation:", state.step, state.actor, state.auction)
    # the rest of the game: seat 0 plays on by the heuristic bot's moves, the others resign
    for seat in (1, 2):
        _send(table, seat, users[seat], {"type": "resign"})
    _export(table, out / f"{prefix}-resign-high-bidder.json")


def bot_game(
    out: Path, prefix: str, seed: str, seats: int = 4, options: dict[str, Any] | None = None
) -> None:
    table = table_create(
        created_by=None, game="infamy", seats=seats, mode=Table.Mode.SANDBOX, seed=seed,
        options=options or {},
    )  # fmt: skip
    for kind in ("heuristic", "random", "heuristic", "random")[:seats]:
        seat_add_bot(table_id=table.id, bot=kind)
    table_start(table_id=table.id, run_bots=False)
    bots_play(game_id=table.id)
    _export(table, out / f"{prefix}-bots.json")


if __name__ == "__main__":
    which, where = sys.argv[1], Path(sys.argv[2])
    if which == "rules1":
        resign_case(where, "infamy-rules1-standin-0")
        bot_game(where, "infamy-rules1-standin-0", "golden-bots-1")
    elif which == "rules2":
        resign_case(where, "infamy-rules2-standin-1")
        bot_game(where, "infamy-rules2-standin-1", "golden-bots-2", seats=3)
        spec = {"content_version": "infamy/standin-0"}
        bot_game(where, "infamy-rules2-standin-0", "golden-bots-2-spec", 3, spec)
    else:
        raise SystemExit(f"unknown set {which!r}")
