"""How ``family_business-rules2-undo-reshuffle.json`` was made (issue 29, "Undo casual
players can use"): a casual table of two people played through the service; seat 0
discards (seat 1 draws at its turn's start), asks to take it back, seat 1 accepts: the
undo marker carries ``reshuffle_seed_hash`` and is followed by a ``DeckShuffled`` with
reason ``undo`` from that fresh seed; the game goes on a few turns, then seat 1 resigns.
The export reveals ``reseeds``. Run once, with the code of issue 29 (rules version 2),
with DATABASE_URL / CELERY_BROKER_URL set and migrated::

    python tests/games/records/make_undo_record.py <out dir>
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

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402

from games import takeback  # noqa: E402
from games.commands import execute  # noqa: E402
from games.loading import game_load, table_get  # noqa: E402
from games.lobby import seat_join, table_create, table_start  # noqa: E402
from games.models import Table, TakebackRequest  # noqa: E402
from games.record import game_export  # noqa: E402
from games.verify import verify_record  # noqa: E402


def _send(table: Table, seat: int, user: Any, command: dict[str, Any]) -> None:
    execute(
        game_id=table.id, seat=seat, actor=f"user:{user.pk}", command=command,
        command_id=uuid.uuid4(),
    )  # fmt: skip


def _discard(table: Table, seat: int, user: Any) -> None:
    card = game_load(game_id=table.id).state.players[seat].hand[0]
    _send(table, seat, user, {"type": "play", "card": card, "discard": True})


def main(out: Path) -> None:
    settings.FB_SCHEDULE_TASKS = False
    model = get_user_model()
    users = [model.objects.create(username=f"golden-{uuid.uuid4().hex[:8]}") for _ in range(2)]
    table = table_create(created_by=users[0], seats=2, mode=Table.Mode.CASUAL)
    for i, user in enumerate(users):
        seat_join(table_id=table.id, user=user, position=i, name=f"Player {i + 1}")
    table_start(table_id=table.id, run_bots=False)
    _discard(table, 0, users[0])
    request = takeback.undo_or_request(
        game_id=table.id, seat=0, actor=f"user:{users[0].pk}", command_id=uuid.uuid4()
    )
    assert isinstance(request, TakebackRequest) and request.responders == [1]
    takeback.answer(game_id=table.id, request_id=request.id, seat=1, accept=True)
    for _ in range(3):
        _discard(table, 0, users[0])
        _discard(table, 1, users[1])
    _send(table, 1, users[1], {"type": "resign"})
    record = game_export(table_get(table.id))
    report = verify_record(record)
    assert report.ok, report.problems
    assert len(record["reseeds"]) == 1
    path = out / "family_business-rules2-undo-reshuffle.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}: {report.events_checked} events")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
