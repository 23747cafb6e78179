from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from events.models import CommandRecord, StoredEvent
from games.restore import RestoreRefused, restore_record
from webhooks.relay import mark_relayed


class Command(BaseCommand):
    help = (
        "Restore an exported game record (export_game's JSON) into the store: its table, "
        "seats, events with their hashes, command log and reviews, in one transaction. "
        "Refuses a record that does not verify or whose game is already here."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="the JSON file written by `manage.py export_game`")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["record"], encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError) as exc:
            raise CommandError(f"bad_record: cannot read {options['record']}: {exc}") from exc
        try:
            with transaction.atomic():
                table = restore_record(record)
                mark_relayed(table.id)  # history, not news: no webhook notices for it
        except RestoreRefused as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        events = StoredEvent.objects.filter(stream_id=table.id).count()
        commands = CommandRecord.objects.filter(stream_id=table.id).count()
        rulings = table.rulings.count()
        self.stdout.write(
            f"imported game {table.id} ({table.game}): {events} events, {commands} commands, "
            f"{rulings} rulings"
        )
