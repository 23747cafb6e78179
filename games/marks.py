"""A replay's marks: where a game's turns start and its notable moments happen, as one
viewer may see them. The game declares both (``Game.review_marks``) from the events
redacted for that viewer, so a mark can tell them nothing the events do not: a running
game's marks never name another seat's hidden cards or sealed choice; a finished game's
name everything, as its replay shows everything. A spectator of a delayed table sees the
marks of the events it may see."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from events.store import read_tail, stream_version, undone_seqs
from games.core import Seen
from games.loading import from_row
from games.reads import Access


def marks_document(access: Access) -> dict[str, Any]:
    """The game's turns and moments up to the last event this viewer may see; each moment
    with the turn it falls in (None before the first)."""
    access.require_started()
    definition = access.definition
    visible = access.visible(stream_version(access.table.id))
    rows = read_tail(access.table.id, since=0, upto=visible) if visible else []
    skipped = undone_seqs(rows)
    seen = [
        Seen(
            row.seq,
            definition.redact_event(
                from_row(definition, row), access.viewer, revealed=access.finished
            ),
        )
        for row in rows
        if row.seq not in skipped
    ]
    marks = definition.review_marks(seen)
    turns = sorted(marks.turns, key=lambda t: t.seq)
    starts = [t.seq for t in turns]

    def turn_of(seq: int) -> int | None:
        index = bisect_right(starts, seq)
        return turns[index - 1].number if index else None

    return {
        "game_id": str(access.table.id),
        "game": definition.name,
        "version": visible,
        "turn_name": definition.turn_name,
        "kinds": [{"kind": k, "name": n} for k, n in definition.moment_kinds.items()],
        "turns": [{"seq": t.seq, "number": t.number, "label": t.label} for t in turns],
        "moments": [
            {"seq": m.seq, "kind": m.kind, "label": m.label, "turn": turn_of(m.seq)}
            for m in sorted(marks.moments, key=lambda m: m.seq)
        ],
    }
