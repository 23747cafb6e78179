from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.verify import summary, verify_record


class Command(BaseCommand):
    help = (
        "Verify an exported game record: hash chain, seed, every event re-derived, and the "
        "rulings chain."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record")
        parser.add_argument(
            "--rulings-head",
            metavar="HASH",
            help="the hash of the game's latest ruling as published (the API, a webhook)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["record"], encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {options['record']}: {exc}") from exc
        report = verify_record(record, rulings_head=options["rulings_head"])
        if not report.ok:
            raise CommandError("; ".join(report.problems))
        self.stdout.write(summary(report))
