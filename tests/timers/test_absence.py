"""The abandonment rule on a real Celery worker (docs/rules.md, "Absent players"), for
every registered game with a resign command: nobody plays at a table of three people with
a turn clock; the worker's timeouts count, each seat that reaches ``abandon_after`` in a
row is put out through the game's own resign (``origin: abandon``), and when the game's
rules end it there, its result says abandonment. Asked only through ``games.core.Game``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from events.models import CommandRecord
from games.absence import has_resign
from games.models import Table
from games.reads import table_document
from games.registry import game_names, get_game
from tests.generic.helpers import loaded, started
from tests.timers.test_workers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

RESIGNING = [g for g in game_names() if has_resign(get_game(g))]


def test_some_game_has_the_rule_and_one_without_resign_is_left_out() -> None:
    assert RESIGNING and set(RESIGNING) < set(game_names())


@pytest.mark.parametrize("game", RESIGNING)
def test_absent_seats_are_put_out_until_the_game_ends_by_abandonment(workers, game) -> None:
    workers()
    table = started(game, humans=3, turn_seconds=1, abandon_after=2)

    def finished() -> bool:
        return Table.objects.filter(id=table.id, status=Table.Status.FINISHED).exists()

    wait_until(finished, 60, "the game ended by abandonment", table)
    out = list(
        CommandRecord.objects.filter(
            stream_id=table.id, metadata__origin="abandon", outcome="accepted"
        ).order_by("id")
    )
    assert [r.command for r in out] == [{"type": "resign"}] * len(out)
    assert len(out) == 2  # two of the three seats put out; the last one left wins
    for record in out:  # each after two timeouts of its own in a row
        own = list(
            CommandRecord.objects.filter(stream_id=table.id, seat=record.seat, id__lt=record.id)
            .order_by("-id")
            .values_list("metadata", flat=True)[:2]
        )
        assert [m.get("timeout") for m in own] == [True, True]
    table.refresh_from_db()
    document = table_document(table, AnonymousUser())
    assert document["result"]["decided_by"] == "abandonment"
    assert document["result"]["abandoned"] == [out[-1].seat]
    left = {0, 1, 2} - {r.seat for r in out}
    final = loaded(table)
    assert list(final.definition.status(final.state).winners) == sorted(left)
