from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from api.errors import code_table


class Command(BaseCommand):
    help = "Print the table of error codes docs/api.md holds (from api.errors.ERRORS)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(code_table())
