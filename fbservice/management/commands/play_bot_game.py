from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.models import StoredEvent
from games.errors import ServiceError
from games.lobby import seat_add_bot, table_create, table_start
from games.models import Table
from games.record import game_export
from games.registry import DEFAULT_GAME, game_names
from games.service import game_load
from games.verify import verify_record


class Command(BaseCommand):
    help = "Play a whole bot game through the service and the event store; print the result."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--bots", default="heuristic,random", help="bot kinds seated in turn")
        parser.add_argument("--seed", default=None, help="a seed (makes it a sandbox table)")
        parser.add_argument("--game", choices=game_names(), default=DEFAULT_GAME)
        parser.add_argument(
            "--options", type=json.loads, default={}, help="the game's table options, as JSON"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        kinds = options["bots"].split(",")
        if not isinstance(options["options"], dict):
            raise CommandError("--options: a JSON object")
        try:
            table = table_create(
                created_by=None,
                game=options["game"],
                seats=options["players"],
                mode=Table.Mode.SANDBOX if options["seed"] else Table.Mode.CASUAL,
                seed=options["seed"],
                options=options["options"],
            )
            for i in range(options["players"]):
                seat_add_bot(table_id=table.id, bot=kinds[i % len(kinds)])
            started = time.perf_counter()
            table_start(table_id=table.id, run_bots=True)
        except ServiceError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        elapsed = time.perf_counter() - started
        loaded = game_load(game_id=table.id)
        events = StoredEvent.objects.filter(stream_id=table.id).count()
        report = verify_record(game_export(table_refresh(table)))
        self.stdout.write(f"game {table.id}")
        self.stdout.write(
            f"winners: {list(loaded.definition.status(loaded.state).winners)}   "
            f"events: {events}   "
            f"time: {elapsed:.2f} s ({events / elapsed:.0f} events/s)"
        )
        self.stdout.write(f"verified: {'OK' if report.ok else '; '.join(report.problems)}")


def table_refresh(table: Table) -> Table:
    table.refresh_from_db()
    return table
