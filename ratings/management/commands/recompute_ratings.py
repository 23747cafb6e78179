"""``manage.py recompute_ratings [--game NAME]``: rebuild the ratings from the records."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.registry import game_names
from ratings.projector import rebuild


class Command(BaseCommand):
    help = (
        "Throw the ratings' read model away and fold every finished ranked game's record "
        "again, in the order the games ended (docs/ratings.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", action="append", help="only this game (repeatable)")

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["game"] or list(game_names())
        unknown = sorted(set(games) - set(game_names()))
        if unknown:
            raise CommandError(f"no such game: {', '.join(unknown)}")
        read = rebuild(games)
        self.stdout.write(f"ratings rebuilt from {read} finished ranked games ({', '.join(games)})")
