"""Run the webhook relay in the foreground (instead of, or besides, the workers' thread)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from webhooks.worker import Relay


class Command(BaseCommand):
    help = "Relay committed game events to webhook deliveries (one relay at a time)."

    def handle(self, *args: Any, **options: Any) -> None:
        relay = Relay()
        relay.start()
        try:
            while relay.is_alive():
                relay.join(1.0)
        except KeyboardInterrupt:
            relay.stop()
            relay.join(5.0)
