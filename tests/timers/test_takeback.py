"""A takeback request's deadline on a real Celery worker and broker (see conftest.py): the
timer task expires an unanswered request at its deadline with no client; a request whose
task was lost is expired by the sweeper; either way nothing is appended to the game."""

from __future__ import annotations

import time
import uuid

import pytest

from events.models import StoredEvent
from games import takeback
from games.models import Table, TakebackRequest
from games.service import clock_ms
from tests.service.helpers import CAST, human_table, run, state

pytestmark = pytest.mark.django_db(transaction=True)


def asked(table: Table) -> TakebackRequest:
    """Seat 0 discards (seat 1 draws at its turn's start) and asks to take it back."""
    card = state(table).state.players[0].hand[0]
    run(table, 0, {"type": "play", "card": card, "discard": True})
    request = takeback.undo_or_request(
        game_id=table.id, seat=0, actor=f"user:{CAST[0]}", command_id=uuid.uuid4()
    )
    assert isinstance(request, TakebackRequest) and request.responders == [1]
    return request


def wait_decided(request: TakebackRequest, timeout: float) -> TakebackRequest:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        request.refresh_from_db()
        if request.state != TakebackRequest.State.OPEN:
            return request
        time.sleep(0.05)
    pytest.fail(f"the takeback request still open {timeout:.0f}s on")


def test_an_unanswered_takeback_expires_at_its_deadline_by_its_timer(workers, settings) -> None:
    settings.FB_TAKEBACK_SECONDS = 2
    workers()
    table = human_table(2)
    request = asked(table)
    count = StoredEvent.objects.filter(stream_id=table.id).count()
    assert request.deadline_ms - clock_ms() > 1500  # nobody but the timer expires it
    decided = wait_decided(request, 15)
    assert decided.state == TakebackRequest.State.EXPIRED
    late = int(decided.decided_at.timestamp() * 1000) - request.deadline_ms
    print(f"expired {late} ms after its deadline")
    # the timer, not the sweeper (which waits FB_SWEEP_GRACE_SECONDS = 1 s past it)
    assert 0 <= late < 1000
    assert StoredEvent.objects.filter(stream_id=table.id).count() == count
    assert state(table).state.turn_seat == 1  # nothing changed: bob's turn, as before


def test_a_takeback_whose_timer_was_lost_is_expired_by_the_sweeper(workers, settings) -> None:
    settings.FB_TAKEBACK_SECONDS = 1
    settings.FB_SCHEDULE_TASKS = False  # the timer is never sent: as if the broker lost it
    workers()
    table = human_table(2)
    request = asked(table)
    decided = wait_decided(request, 15)
    assert decided.state == TakebackRequest.State.EXPIRED
    late = int(decided.decided_at.timestamp() * 1000) - request.deadline_ms
    assert late >= 1000  # past the sweeper's grace
