"""What a Scarface replay steps and jumps by: each seat's turn (``TurnStarted``), and the
moments worth a jump: tiles taken, raids, Extra! Extra!, news, jobs completed and the end.
Read from the events as one viewer sees them (``games.core.Seen``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.core import Moment, ReviewMarks, Seen, TurnMark

from .content import STANDIN

TURN_NAME = "turn"
MOMENT_KINDS: Mapping[str, str] = {
    "take": "neighbourhood taken",
    "raid": "raid",
    "extra": "Extra! Extra!",
    "job": "job completed",
    "end": "game end",
}


def review_marks(events: Sequence[Seen]) -> ReviewMarks:
    names: list[str] = []
    turns: list[TurnMark] = []
    moments: list[Moment] = []
    turn = 0

    def name(seat: object) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def mark(seq: int, kind: str, text: str) -> None:
        moments.append(Moment(seq, kind, f"Turn {turn}: {text}" if turn else text))

    for seen in events:
        data = seen.data
        kind = data.get("type")
        if kind == "GameStarted":
            names = [str(n) for n in data.get("names", ())]
        elif kind == "TurnStarted":
            turn = int(data["turn"])
            what = "reorganization" if data.get("kind") == "reorganization" else "action turn"
            turns.append(TurnMark(seen.seq, turn, f"Turn {turn}: {name(data['seat'])}, {what}"))
        elif kind == "AttackResolved" and data.get("won"):
            tile = STANDIN.tiles.get(str(data["tile"]))
            mark(
                seen.seq,
                "take",
                f"{name(data['seat'])} takes {tile.name if tile else data['tile']}",
            )
        elif kind == "RaidStarted":
            raid = STANDIN.raids.get(str(data["card"]))
            mark(seen.seq, "raid", f"Raid: {raid.name if raid else data['card']}")
        elif kind == "NewsRevealed":
            news = STANDIN.news.get(str(data["card"]))
            mark(seen.seq, "extra", f"Extra! Extra! {news.name if news else data['card']}")
        elif kind == "JobCompleted":
            job = STANDIN.jobs.get(str(data["job"]))
            mark(
                seen.seq,
                "job",
                f"{name(data['seat'])} completes {job.name if job else data['job']}",
            )
        elif kind == "GameEnded":
            winners = [name(s) for s in data.get("winners", ())]
            mark(seen.seq, "end", "Game over: " + (" and ".join(winners) or "no winner") + " won")
    return ReviewMarks(tuple(turns), tuple(moments))
