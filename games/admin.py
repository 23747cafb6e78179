"""The Django admin for staff: tables (each is its game: status, version, event count) and
seats, and the event store's stored events and command log, read-only, searchable by table
(game) id, by user (a username finds that user's ``user:<id>`` actor) and by type or code.
Event data is shown as staff may see it (the game's ``redact_event`` for ``"staff"``: every
hand and the deck, never the seed before the end), except to staff seated at the game:
until it ends they are players there and its events and commands are not listed. Nothing
here changes a game: games change only through commands."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Count, IntegerField, Max, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from events.models import CommandRecord, StoredEvent
from games import selectors
from games.models import Ruling, Seat, Table
from games.registry import get_game

if TYPE_CHECKING:  # the stubs' admin classes are generic in their model
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
else:
    ModelAdmin = admin.ModelAdmin
    TabularInline = admin.TabularInline


class ReadOnlyAdmin(ModelAdmin):
    """View only: the event store is append-only and tables follow their games."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(TabularInline):
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


def _last_event(field: str) -> Subquery:
    """A field of the stream's last event (its end, once the game is over)."""
    last = StoredEvent.objects.filter(stream_id=OuterRef("pk")).order_by("-seq")
    return Subquery(last.values(field)[:1])


def _seats(seats: list[int], names: dict[int, str]) -> str:
    return ", ".join(names.get(s, str(s)) for s in seats)


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
        "result",
        "rulings_list",
        "replay",
    )
    list_filter = ("status", "mode", "game")
    # by table (game) id, by a seated user's or the creator's name
    search_fields = ("id", "seat_set__user__username", "seat_set__name", "created_by__username")
    # The seed stays secret until the game ends, from staff too (docs/api.md).
    exclude = ("seed",)
    readonly_fields = ("event_count", "version", "result", "rulings_list", "replay")
    inlines = (SeatInline,)
    date_hierarchy = "created_at"
    list_select_related = ("created_by",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        tables: QuerySet[Table] = (
            super()
            .get_queryset(request)
            .annotate(
                fb_events=_stream("count"),
                fb_version=_stream("max"),
                fb_last_origin=_last_event("metadata__origin"),
                fb_last_abandoned=_last_event("metadata__abandoned"),
            )
            .prefetch_related(
                "seat_set__user",
                Prefetch("rulings", queryset=Ruling.objects.order_by("id")),
            )
        )
        return tables

    @admin.display(description="result")
    def result(self, table: Table) -> str:
        """How the game ended: a ruling's result, an abandonment, or its own end."""
        if table.status != Table.Status.FINISHED:
            return "–" if table.status == Table.Status.OPEN else "running"
        names = {s.position: f"{s.position} {s.display_name}" for s in table.seat_set.all()}
        deciding = [r for r in table.rulings.all() if r.kind != Ruling.Kind.NOTE]
        if deciding:
            last = deciding[-1]
            if last.kind == Ruling.Kind.VOID:
                return f"void by ruling {last.id}"
            return f"won by {_seats(last.winners, names)} (ruling {last.id})"
        winners = selectors.winners_of([table]).get(table.id, [])
        won = f"won by {_seats(winners, names)}" if winners else "no winner"
        if getattr(table, "fb_last_origin", None) == "abandon":
            out = int(getattr(table, "fb_last_abandoned", -1))
            return f"{won} (abandonment: seat {names.get(out, out)} out)"
        return won

    @admin.display(description="rulings")
    def rulings_list(self, table: Table) -> str:
        """Each ruling: its id, kind, winners and reason (shortened)."""
        rows = []
        for r in table.rulings.all():
            what = f"award to {r.winners}" if r.kind == Ruling.Kind.AWARD else str(r.kind)
            reason = r.reason if len(r.reason) <= 60 else r.reason[:59] + "…"
            rows.append(f"#{r.id} {what}: {reason}")
        return "; ".join(rows) or "–"

    @admin.display(description="replay")
    def replay(self, table: Table) -> str:
        if table.status == Table.Status.OPEN:
            return "–"
        return format_html('<a href="{}">replay</a>', reverse("web:replay", args=[table.id]))

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


# --- the event store's models, shown as staff may see a game's events -----------------
# (here, not in events/: the event store knows no game)


def _user_actors(term: str) -> list[str]:
    users = get_user_model()._default_manager.filter(username__iexact=term.strip())
    return [f"user:{pk}" for pk in users.values_list("pk", flat=True)[:5]]


def _playing(request: HttpRequest) -> QuerySet[Seat]:
    """The running games the signed-in staff user holds a seat at: there they are a player
    and read the game as their seat does (the API), so the admin shows none of its events
    or commands until it ends."""
    seats = Seat.objects.filter(user=request.user.pk or 0)  # (a signed-in admin: always a pk)
    return seats.exclude(table__status=Table.Status.FINISHED)


class _ByUserSearch(ReadOnlyAdmin):
    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows: QuerySet[Any] = super().get_queryset(request)
        return rows.exclude(stream_id__in=_playing(request).values("table_id"))

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
    name, _, kind = event.type.partition(".")
    try:
        definition = get_game(name)
        payload = definition.upcast_event(kind, event.payload, event.schema_version)
        decoded = definition.decode_event({"type": kind, **payload})
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
