"""Set-ups shared by the browser tests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.lobby import seat_join, table_create, table_start
from games.models import Table
from tests.factories import UserFactory
from tests.web.conftest import PHONE
from tests.web.test_play import sign_up


def bob_at_a_sandbox_table(new_page: Any, **options: Any) -> tuple[Any, Table]:
    """bob signs up on a phone-sized page; a started two-seat sandbox table of alice (seat
    0, a new user) and bob (seat 1), made with ``options`` (seed, stacked_deck, ...); his
    page, open on it, and the table."""
    bob = new_page("bob")
    bob.set_viewport_size(PHONE)
    sign_up(bob, "bob")
    alice = UserFactory(username="alice")
    table = table_create(created_by=alice, seats=2, mode="sandbox", **options)
    seat_join(table_id=table.id, user=alice)
    seat_join(table_id=table.id, user=get_user_model().objects.get(username="bob"))
    table = table_start(table_id=table.id)
    bob.goto(f"/games/{table.id}")
    return bob, table
