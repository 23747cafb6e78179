"""The admin: what staff reach for first, read-only, searchable by table, user and game."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model

from events.models import CommandRecord, StoredEvent
from games.service import game_command_execute
from tests.service.helpers import human_table, state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_password_hashing")]


@pytest.fixture
def staff_client(client):
    get_user_model().objects.create_superuser("boss", password="x" * 12)
    client.login(username="boss", password="x" * 12)
    return client


@pytest.fixture
def game():
    table = human_table(2)
    alice = get_user_model().objects.get(username="alice")
    game_command_execute(
        game_id=table.id,
        seat=0,
        actor=f"user:{alice.pk}",  # as the API records a user's command
        command={"type": "play", "card": state(table).state.players[0].hand[0], "discard": True},
        command_id=uuid.uuid4(),
    )
    return table


def page(client, path: str, **query: str) -> str:
    response = client.get(path, query)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def test_tables_show_their_games_status_and_event_count(staff_client, game) -> None:
    events = StoredEvent.objects.filter(stream_id=game.id).count()
    listing = page(staff_client, "/admin/games/table/", q=str(game.id))
    assert str(game.id) in listing and "started" in listing.lower()
    assert f'<td class="field-event_count">{events}</td>' in listing
    assert str(game.id) in page(staff_client, "/admin/games/table/", q="alice")  # a seated user
    detail = page(staff_client, f"/admin/games/table/{game.id}/change/")
    assert game.seed not in detail  # secret until the end, from staff too
    assert "bob" in detail  # the seats
    assert str(game.id) not in page(staff_client, "/admin/games/table/", q="nobody-like-this")


def test_events_and_commands_are_searchable_by_game_and_user(staff_client, game) -> None:
    listing = page(staff_client, "/admin/events/storedevent/", q=str(game.id))
    assert "family_business.CardPlayed" in listing
    record = CommandRecord.objects.get(stream_id=game.id, seat=0)
    commands = page(staff_client, "/admin/events/commandrecord/", q="alice")
    assert str(record.command_id) in commands  # a username finds its user's commands
    assert "family_business.CardPlayed" in page(
        staff_client, "/admin/events/storedevent/", q="alice"
    )
    assert str(record.command_id) in page(
        staff_client, "/admin/events/commandrecord/", q=str(game.id)
    )
    started = StoredEvent.objects.get(stream_id=game.id, seq=1)
    detail = page(staff_client, f"/admin/events/storedevent/{started.pk}/change/")
    assert "GameStarted" in detail and game.seed not in detail
    page(staff_client, "/admin/games/seat/", q="alice")


@pytest.mark.parametrize(
    "path", ["/admin/games/table/add/", "/admin/events/storedevent/add/", "/admin/games/seat/add/"]
)
def test_nothing_can_be_added_or_changed(staff_client, path) -> None:
    assert staff_client.get(path).status_code == 403


def test_staff_seated_at_a_running_game_see_none_of_its_events_until_it_ends(client, game) -> None:
    """Staff who sit at a table are players there: the admin, which shows every hand, lists
    none of their running game's events or commands (the API reads it as their seat)."""
    alice = get_user_model().objects.get(username="alice")
    alice.is_staff = alice.is_superuser = True
    alice.set_password("x" * 12)
    alice.save()
    client.login(username="alice", password="x" * 12)
    drawn = StoredEvent.objects.filter(stream_id=game.id, type="family_business.CardsDrawn")
    event = drawn.order_by("seq").last()  # bob's draw: his card, which alice may not see
    record = CommandRecord.objects.get(stream_id=game.id, seat=0)
    assert "family_business.CardPlayed" not in page(
        client, "/admin/events/storedevent/", q=str(game.id)
    )
    assert str(record.command_id) not in page(client, "/admin/events/commandrecord/", q="alice")
    assert client.get(f"/admin/events/storedevent/{event.pk}/change/").status_code == 302
    assert page(client, "/admin/games/table/", q=str(game.id))  # the table itself is public

    game_command_execute(
        game_id=game.id,
        seat=1,
        actor="system",
        command={"type": "resign"},
        command_id=uuid.uuid4(),
    )  # bob resigns: alice wins, the game is over
    game.refresh_from_db()
    assert game.status == game.Status.FINISHED
    assert "family_business.CardPlayed" in page(
        client, "/admin/events/storedevent/", q=str(game.id)
    )
    assert str(record.command_id) in page(client, "/admin/events/commandrecord/", q="alice")
    page(client, f"/admin/events/storedevent/{event.pk}/change/")


def test_the_table_list_shows_results_rulings_and_replays(staff_client, game) -> None:
    """Issue 29: each table's result, its rulings and a link to its replay."""
    from games import reviews
    from games.models import Table

    boss = get_user_model().objects.get(username="boss")
    listing = page(staff_client, "/admin/games/table/", q=str(game.id))
    assert '<td class="field-result">running</td>' in listing
    assert f'href="/games/{game.id}/replay"' in listing
    reviews.ruling_record(table=game, user=boss, kind="note", reason="Watching seat 1.")
    reviews.ruling_record(
        table=Table.objects.get(id=game.id),
        user=boss,
        kind="award",
        winners=[1],
        reason="alice left the hall.",
    )
    listing = page(staff_client, "/admin/games/table/", q=str(game.id))
    assert "won by 1 bob (ruling" in listing
    assert "note: Watching seat 1." in listing and "award to [1]: alice left the hall." in listing
    detail = page(staff_client, f"/admin/games/table/{game.id}/change/")
    assert "won by 1 bob (ruling" in detail and f"/games/{game.id}/replay" in detail


def test_the_table_list_says_a_game_ended_by_abandonment(staff_client) -> None:
    from games import absence
    from games.models import Table

    table = human_table(2)
    Table.objects.filter(id=table.id).update(turn_seconds=30, abandon_after=1)
    absence.abandon(Table.objects.get(id=table.id), 0, now=0, timeouts=1)
    listing = page(staff_client, "/admin/games/table/", q=str(table.id))
    assert "won by 1 bob (abandonment: seat 0 alice out)" in listing
