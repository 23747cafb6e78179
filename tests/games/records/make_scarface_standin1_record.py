"""How the Scarface 1920 content-standin-1 record was made: a four-seat game played to its
end by bots through the service (lobby, command execution, event store) under rules
version 2 and content ``scarface/standin-1`` (the tuned stand-in data, issue 33), exported
as ``manage.py export_game`` exports them.

- ``scarface-rules2-standin-1-bots.json``: a sandbox table from the deal, every gang
  seated, the table options naming no content version (a new table gets standin-1).

The seats are heuristic bots with a random bot at seat 1, so the verifier re-decides the
targeted skills ``legal`` lists as well as the heuristic play standin-1 was tuned with.
The script checks the record names standin-1 and that its game took a tile standin-1
changed (moved to another district or given another defence or sale), so re-deciding it
reads standin-1's tables.

"Exported by the code of its time": run once, with the code that added content
scarface/standin-1, never again afterwards. Usage, with DATABASE_URL / CELERY_BROKER_URL
set and migrated::

    python tests/games/records/make_scarface_standin1_record.py <out dir>
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")

import django  # noqa: E402

django.setup()

from games.bots import bots_play  # noqa: E402
from games.loading import table_get  # noqa: E402
from games.lobby import seat_add_bot, table_create, table_start  # noqa: E402
from games.models import Table  # noqa: E402
from games.record import game_export  # noqa: E402
from games.scarface.content import STANDIN_1, TUNED_TILES  # noqa: E402
from games.verify import verify_record  # noqa: E402

GAME = "scarface"
OPTIONS = {"players": [{"gang": g} for g in ("gems", "outfit", "northside", "wolves")]}


def tuned_tiles_taken(record: dict[str, object]) -> set[str]:
    """The tiles standin-1 changed that the record's game took or sold."""
    out = set()
    for event in record["events"]:  # type: ignore[attr-defined]
        tile = event["payload"].get("tile")
        if tile in TUNED_TILES:
            out.add(str(tile))
    return out


def main(out: Path) -> None:
    seats = 4
    table = table_create(
        created_by=None, game=GAME, seats=seats, mode=Table.Mode.SANDBOX,
        seed="golden-standin-1", options=OPTIONS,
    )  # fmt: skip
    for kind in ("heuristic", "random", "heuristic", "heuristic"):
        seat_add_bot(table_id=table.id, bot=kind)
    table_start(table_id=table.id, run_bots=False)
    bots_play(game_id=table.id)
    record = game_export(table_get(table.id))
    report = verify_record(record)
    assert report.ok, report.problems
    assert (report.rules_version, report.content_version) == (2, STANDIN_1), report
    assert record["table"]["status"] == "finished", record["table"]["status"]
    tiles = tuned_tiles_taken(record)
    assert tiles, "the game never touched a tile standin-1 changed"
    path = out / f"{GAME}-rules2-standin-1-bots.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}: {report.events_checked} events; tuned tiles in play: {sorted(tiles)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
