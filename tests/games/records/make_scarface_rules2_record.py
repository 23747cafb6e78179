"""How the Scarface 1920 rules-2 record was made: a three-seat game played to its end by bots
through the service (lobby, command execution, event store) under rules version 2 (the
targeted skills, issue 33), exported as ``manage.py export_game`` exports it.

The seats are a heuristic bot, a random bot and a heuristic bot: the random bot plays any
legal option, so the targets ``legal`` lists for the targeted skills (moves, sends,
business markers, the Warehouse Keeper, ...) are played and re-decided by the verifier;
the script checks the record holds targeted card and boss skills with their effects.

"Exported by the code of its time": run once, with the code that added rules version 2
(content scarface/standin-0), never again afterwards. Usage, with DATABASE_URL /
CELERY_BROKER_URL set and migrated::

    python tests/games/records/make_scarface_rules2_record.py <out dir>
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
from games.scarface.skills import TARGETED  # noqa: E402
from games.verify import verify_record  # noqa: E402

GAME = "scarface"


def targeted_uses(record: dict[str, object]) -> tuple[int, int]:
    """(card skills, boss skills) with a target in the record's events."""
    cards = bosses = 0
    for event in record["events"]:  # type: ignore[attr-defined]
        payload = event["payload"]
        skill = (payload.get("detail") or {}).get("skill")
        kind = event["type"].rsplit(".", 1)[-1]
        if skill in TARGETED:
            if kind == "SkillUsed":
                cards += 1
            elif kind == "BossSkillUsed":
                bosses += 1
    return cards, bosses


def main(out: Path) -> None:
    seats = 3
    table = table_create(
        created_by=None, game=GAME, seats=seats, mode=Table.Mode.SANDBOX,
        seed="golden-rules2-targeted", options={"players": [{"gang": g} for g in ("outfit", "wolves", "northside")]},
    )  # fmt: skip
    for kind in ("heuristic", "random", "heuristic"):
        seat_add_bot(table_id=table.id, bot=kind)
    table_start(table_id=table.id, run_bots=False)
    bots_play(game_id=table.id)
    record = game_export(table_get(table.id))
    report = verify_record(record)
    assert report.ok, report.problems
    assert report.rules_version == 2, report.rules_version
    assert record["table"]["status"] == "finished", record["table"]["status"]
    cards, bosses = targeted_uses(record)
    assert cards and bosses, (cards, bosses)
    path = out / f"{GAME}-rules2-standin-0-bots.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}: {report.events_checked} events, {cards} targeted card skills, "
          f"{bosses} targeted boss skills")  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]))
