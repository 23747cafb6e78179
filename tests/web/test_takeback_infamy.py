"""A takeback request on Infamy's page (issue 29): the page of the seat asked shows the
prompt; accepted there, the move is taken back. (Family Business's page: test_takeback.py.)"""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from events.models import StoredEvent
from games import takeback
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import TakebackRequest
from games.registry import get_game
from games.service import game_command_execute, game_load
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_asked_seat_accepts_a_takeback_on_the_infamy_page(new_page):
    alice, bob = new_page("alice"), new_page("bob")
    sign_up(alice, "alice")
    sign_up(bob, "bob", from_home=False)
    users = get_user_model().objects
    people = {0: users.get(username="alice"), 1: users.get(username="bob")}
    table = table_create(created_by=people[0], game="infamy", seats=3)
    for seat, user in people.items():
        seat_join(table_id=table.id, user=user, position=seat)
    seat_add_bot(table_id=table.id, bot="heuristic")
    table = table_start(table_id=table.id)
    game = get_game("infamy")
    request = None
    for n in range(200):  # people play the bot's moves until one passes the turn to a person
        state = game_load(game_id=table.id).state
        seat = next(s for s in game.status(state).awaiting if s in people)
        game_command_execute(
            game_id=table.id,
            seat=seat,
            actor=f"user:{people[seat].pk}",
            command=game.bot_command(state, seat, "heuristic", f"drive:{n}"),
            command_id=uuid.uuid4(),
        )
        if takeback.responders(table, seat):
            request = takeback.undo_or_request(
                game_id=table.id,
                seat=seat,
                actor=f"user:{people[seat].pk}",
                command_id=uuid.uuid4(),
            )
            break
    assert isinstance(request, TakebackRequest), "no move passed the turn to a person"
    (asked,) = request.responders
    pages = {0: alice, 1: bob}
    for page in pages.values():
        page.goto(f"/games/{table.id}")
    expect(pages[request.seat].get_by_test_id("takeback")).to_contain_text("You asked")
    prompt = pages[asked].get_by_test_id("takeback")
    expect(prompt).to_contain_text("asks to take back their last move")
    pages[asked].get_by_role("button", name="Accept the takeback").click()
    expect(pages[asked].get_by_test_id("takeback")).to_have_count(0)
    expect(pages[request.seat].get_by_test_id("takeback")).to_have_count(0)
    request.refresh_from_db()
    assert request.state == "accepted"
    assert StoredEvent.objects.filter(stream_id=table.id, type="stream.Undone").count() == 1
