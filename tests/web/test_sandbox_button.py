"""Issue 28, a director's sandbox from the replay page: an unseated staff user's replay of
a recorded game offers "Open a sandbox here", which opens a new sandbox table of the game
at the event shown and goes to it; a player's replay page does not offer it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from events.models import CommandRecord
from games.lobby import seat_add_bot, table_create, table_start
from games.models import Table
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_director_opens_a_sandbox_at_the_event_shown(new_page, settings):
    settings.FB_BOTS_INLINE = True
    settings.FB_SCHEDULE_TASKS = False
    director = new_page("director")
    sign_up(director, "td")
    get_user_model().objects.filter(username="td").update(is_staff=True)
    table = table_create(created_by=None, game="goofspiel", seats=2)
    for _ in range(2):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table_start(table_id=table.id)  # the bots play it to its end
    ends = sorted(
        c.last_seq for c in CommandRecord.objects.filter(stream_id=table.id) if c.last_seq
    )
    at = ends[len(ends) // 2]
    director.goto(f"/games/{table.id}/replay?at={at}")
    expect(director.get_by_test_id("position")).to_contain_text(f"event {at} of")
    expect(director.get_by_test_id("sandbox-panel")).to_be_visible()
    director.get_by_test_id("open-sandbox").click()
    expect(director).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    sandbox = Table.objects.get(mode=Table.Mode.SANDBOX)
    assert director.url.endswith(f"/games/{sandbox.id}")
    assert sandbox.game == "goofspiel" and sandbox.status == Table.Status.OPEN
    assert sandbox.options["position"]["round"] >= 1

    player = new_page("alice")
    sign_up(player, "alice", from_home=False)
    player.goto(f"/games/{table.id}/replay?at={at}")
    expect(player.get_by_test_id("position")).to_contain_text(f"event {at} of")
    expect(player.get_by_test_id("sandbox-panel")).to_be_hidden()
