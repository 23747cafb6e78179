"""How the Scarface 1920 position record was made: a sandbox table started from a position
(the state of a bot game on the engine alone, halfway through), played to its end by bots
through the service (lobby, command execution, event store), exported as ``manage.py
export_game`` exports it.

"Exported by the code of its time": run once, with the code that added Scarface's start
positions (rules version 1, content scarface/standin-0), never again afterwards. Usage,
with DATABASE_URL / CELERY_BROKER_URL set and migrated::

    python tests/games/records/make_scarface_position_record.py <out dir>
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
from games.registry import get_game  # noqa: E402
from games.verify import verify_record  # noqa: E402
from tests.generic.random_play import play  # noqa: E402

GAME = "scarface"


def main(out: Path) -> None:
    definition = get_game(GAME)
    seats = 3
    played = play(definition, seats, "golden-position-source", ["heuristic"] * seats, commands=400)
    running = [m for m in played.moves if not definition.status(played.state_after(m.last)).over]
    doc = definition.position_of(played.state_after(running[len(running) // 2].last))
    table = table_create(
        created_by=None, game=GAME, seats=seats, mode=Table.Mode.SANDBOX,
        seed="golden-position", options={"position": doc},
    )  # fmt: skip
    for kind in ("heuristic", "random", "heuristic")[:seats]:
        seat_add_bot(table_id=table.id, bot=kind)
    table_start(table_id=table.id, run_bots=False)
    bots_play(game_id=table.id)
    record = game_export(table_get(table.id))
    report = verify_record(record)
    assert report.ok, report.problems
    assert record["table"]["status"] == "finished", record["table"]["status"]
    path = out / f"{GAME}-rules1-standin-0-position.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}: {report.events_checked} events")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
