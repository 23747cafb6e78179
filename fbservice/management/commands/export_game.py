from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import ServiceError
from games.models import Table
from games.record import game_export
from games.service import table_get


class Command(BaseCommand):
    help = "Export a finished game as one JSON record (verify it with verify_game)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id")
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")
        parser.add_argument(
            "--unfinished",
            action="store_true",
            help="export a game still in play (reveals its seed: staff only)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            table = table_get(options["game_id"])
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        if table.status != Table.Status.FINISHED and not options["unfinished"]:
            raise CommandError("The game is not finished; pass --unfinished to export it anyway.")
        text = json.dumps(game_export(table), indent=1)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as f:
                f.write(text + "\n")
            self.stdout.write(f"wrote {options['output']}")
        else:
            self.stdout.write(text)
