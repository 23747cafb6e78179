"""How the Scarface 1920 rules-2 records were made: three-seat games played to their end by
bots through the service (lobby, command execution, event store) under rules version 2
(the targeted skills, issue 33), exported as ``manage.py export_game`` exports them.

- ``scarface-rules2-standin-0-bots.json``: a sandbox table from the deal.
- ``scarface-rules2-standin-0-position.json``: a sandbox table from a start position, the
  deal with cards with a target at the top of each seat's hand and deck (the Hitman, the
  Rail Baron, the Warehouse Keeper, the Croupier, the Union Boss, the Street Captain, the
  Torpedo, the Lookout, the Chauffeurs, the Truck Boss, the Rumrunner, the Wheelmen).

The seats are a heuristic bot, a random bot and a heuristic bot: the random bot plays any
legal option, so the targets ``legal`` lists for the targeted skills (moves, sends,
business markers, the Warehouse Keeper, ...) are played and re-decided by the verifier.
The sandbox table stacks the associates with a target on top of the market's decks so the
bots recruit them; the script checks the record holds targeted card and boss skills.

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
from games.scarface import position  # noqa: E402
from games.scarface.evolve import replay  # noqa: E402
from games.scarface.setup import setup_events  # noqa: E402
from games.scarface.skills import TARGETED  # noqa: E402
from games.scarface.state import with_changes  # noqa: E402
from games.verify import verify_record  # noqa: E402

GAME = "scarface"
# The associates with a target on top of the market's decks (SR-74), so the bots meet them.
OPTIONS = {
    "players": [{"gang": g} for g in ("outfit", "wolves", "northside")],
    "stacked": {
        "associates.low": ["a18", "a22", "a26", "a33", "a35", "a52", "a19", "a23", "a34", "a36"],
        "associates.high": ["a29", "a44", "a30", "a45"],
    },
}


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


GANGS = ("outfit", "wolves", "northside")
# seat -> cards put on top of its hand and deck (none of them in the market at the deal)
TARGETED_CARDS = {
    0: ["a29", "a44", "a35", "outfit-h4", "a52", "outfit-h1"],
    1: ["wolves-h3", "a26", "a18", "wolves-h1", "a30", "a36"],
    2: ["northside-h3", "a34", "a45", "northside-h1", "a23", "a22"],
}


def targeted_position() -> dict[str, object]:
    """The deal of a three-seat game with ``TARGETED_CARDS`` in hand and on top of the
    decks (taken from the associates' decks and the hat cards aside)."""
    names = ["A", "B", "C"]
    state = replay(setup_events(names, {"gangs": list(GANGS)}, "golden-rules2-position"))
    taken = {c for cards in TARGETED_CARDS.values() for c in cards}
    assert not taken & {*state.market_low, *state.market_high}
    players = []
    for p in state.players:
        cards = [*TARGETED_CARDS[p.seat], *p.hand, *p.deck]
        aside = tuple(c for c in p.aside if c not in taken)
        players.append(with_changes(p, hand=tuple(cards[:3]), deck=tuple(cards[3:]), aside=aside))
    state = with_changes(
        state,
        players=tuple(players),
        low_deck=tuple(c for c in state.low_deck if c not in taken),
        high_deck=tuple(c for c in state.high_deck if c not in taken),
    )
    return position.position_of(state)


def main(out: Path) -> None:
    play(out, "bots", OPTIONS, "golden-rules2-targeted")
    play(out, "position", {"position": targeted_position()}, "golden-rules2-position")


def play(out: Path, what: str, options: dict[str, object], seed: str) -> None:
    seats = 3
    table = table_create(
        created_by=None, game=GAME, seats=seats, mode=Table.Mode.SANDBOX,
        seed=seed, options=options,
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
    path = out / f"{GAME}-rules2-standin-0-{what}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {path}: {report.events_checked} events, {cards} targeted card skills, "
          f"{bosses} targeted boss skills")  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]))
