"""The Django admin for staff: stored events and the command log, read-only, searchable by
game (stream id), by user (a username finds that user's ``user:<id>`` actor) and by type
or code. Event data is shown as staff may see it (``redact_event`` for ``"staff"``: every
hand and the deck, never the seed before the end)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from events.models import CommandRecord, StoredEvent
from games.admin import ReadOnlyAdmin


def _user_actors(term: str) -> list[str]:
    users = get_user_model()._default_manager.filter(username__iexact=term.strip())
    return [f"user:{pk}" for pk in users.values_list("pk", flat=True)[:5]]


class _ByUserSearch(ReadOnlyAdmin):
    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        actors = _user_actors(search_term) if search_term else []
        if actors:
            found = found | queryset.filter(Q(actor__in=actors))
        return found, duplicates


@admin.register(StoredEvent)
class StoredEventAdmin(_ByUserSearch):
    list_display = ("stream_id", "seq", "type", "actor", "recorded_at")
    list_filter = ("type",)
    search_fields = ("stream_id", "command_id", "type", "=actor")
    ordering = ("-position",)
    exclude = ("payload",)
    readonly_fields = ("shown",)

    @admin.display(description="data (as staff see it)")
    def shown(self, event: StoredEvent) -> str:
        return format_html("<pre>{}</pre>", json.dumps(staff_view(event), indent=2))


def staff_view(event: StoredEvent) -> dict[str, Any]:
    """The event's data as the staff viewer sees it while the game runs (no seed)."""
    from games.registry import get_game

    name, _, kind = event.type.partition(".")
    try:
        definition = get_game(name)
        decoded = definition.decode_event({"type": kind, **event.payload})
        return definition.redact_event(decoded, "staff")
    except (KeyError, TypeError, ValueError):  # not a game's event (an undo marker)
        return {k: v for k, v in event.payload.items() if k not in ("seed", "salt")}


@admin.register(CommandRecord)
class CommandRecordAdmin(_ByUserSearch):
    list_display = (
        "stream_id",
        "command_id",
        "actor",
        "seat",
        "outcome",
        "error_code",
        "first_seq",
        "last_seq",
        "recorded_at",
    )
    list_filter = ("outcome", "error_code")
    search_fields = ("stream_id", "command_id", "=actor", "error_code")
    ordering = ("-id",)
