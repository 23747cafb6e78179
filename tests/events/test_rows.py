"""events.rows: model instances read by one statement of text are the ORM's own, JSON
fields parsed as the ORM parses them."""

from __future__ import annotations

import uuid

import pytest
from django.forms.models import model_to_dict

from events import rows
from events.models import CommandRecord

pytestmark = pytest.mark.django_db


def test_rows_read_by_text_equal_the_orms() -> None:
    stream = uuid.uuid4()
    for n, seat in enumerate((0, 1, None)):
        CommandRecord.objects.create(
            stream_id=stream,
            command_id=uuid.uuid4(),
            actor=f"user:{n}",
            seat=seat,
            command={"type": "pass", "nested": {"list": [1, "two", None]}},
            outcome=CommandRecord.ACCEPTED,
            now_ms=1000 + n,
            metadata={"sealed": "w1", "deadline": 5000, "origin": "manual"},
        )
    orm = list(CommandRecord.objects.filter(stream_id=stream).order_by("id"))
    text = rows.select(CommandRecord, "WHERE stream_id = %s ORDER BY id", [stream])
    assert [model_to_dict(r) | {"id": r.id} for r in text] == [
        model_to_dict(r) | {"id": r.id} for r in orm
    ]
    assert text[0].metadata["deadline"] == 5000 and text[0].command["nested"]["list"][1] == "two"
    assert not text[0]._state.adding  # as loaded by the ORM: saving updates, not inserts
    one = rows.select_one(CommandRecord, "WHERE stream_id = %s AND seat = %s LIMIT 1", [stream, 1])
    assert one is not None and one.pk == orm[1].pk
    assert rows.select_one(CommandRecord, "WHERE stream_id = %s LIMIT 1", [uuid.uuid4()]) is None
