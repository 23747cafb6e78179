"""The Django admin for staff: tables (each is its game: status, version, event count) and
seats, read-only, searchable by table (game) id and by user. Events and command records are
in events/admin.py. Nothing here changes a game: games change only through commands."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, IntegerField, Max, OuterRef, QuerySet, Subquery
from django.http import HttpRequest

from events.models import StoredEvent
from games.models import Seat, Table


class ReadOnlyAdmin(admin.ModelAdmin):
    """View only: the event store is append-only and tables follow their games."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("position", "user", "bot", "name", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _stream(field: str) -> Subquery:
    events = StoredEvent.objects.filter(stream_id=OuterRef("pk")).values("stream_id")
    aggregate = Count("seq") if field == "count" else Max("seq")
    return Subquery(events.annotate(v=aggregate).values("v")[:1], output_field=IntegerField())


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    """A table and its game (same id): status, events, seats."""

    list_display = (
        "id",
        "game",
        "mode",
        "status",
        "seats",
        "event_count",
        "version",
        "created_by",
        "created_at",
        "started_at",
    )
    list_filter = ("status", "mode", "game")
    # by table (game) id, by a seated user's or the creator's name
    search_fields = ("id", "seat_set__user__username", "seat_set__name", "created_by__username")
    # The seed stays secret until the game ends, from staff too (docs/api.md).
    exclude = ("seed",)
    readonly_fields = ("event_count", "version")
    inlines = (SeatInline,)
    date_hierarchy = "created_at"
    list_select_related = ("created_by",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return (
            super()
            .get_queryset(request)
            .annotate(fb_events=_stream("count"), fb_version=_stream("max"))
        )

    @admin.display(description="events", ordering="fb_events")
    def event_count(self, table: Table) -> int:
        return int(getattr(table, "fb_events", 0) or 0)

    @admin.display(description="version", ordering="fb_version")
    def version(self, table: Table) -> int:
        return int(getattr(table, "fb_version", 0) or 0)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "position", "user", "bot", "name", "joined_at")
    list_filter = ("bot",)
    search_fields = ("table__id", "user__username", "name")
    list_select_related = ("table", "user")
