from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.verify import verify_record


class Command(BaseCommand):
    help = "Verify an exported game record: hash chain, seed, and every event re-derived."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["record"], encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {options['record']}: {exc}") from exc
        report = verify_record(record)
        if not report.ok:
            raise CommandError("; ".join(report.problems))
        self.stdout.write(
            f"OK: {report.events_checked} events, {report.commands_checked} "
            "commands re-derived from the seed; hash chain intact"
        )
