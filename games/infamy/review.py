"""What an Infamy replay steps and jumps by: each round (a Day or a Night, from
``RoundStarted``), the auctions won, the sector choices revealed, the jobs completed, each
round's end with the Infamy standings, and the end. Read from the events as a viewer sees
them (``games.core.Seen``): sealed sectors and scheme cards are never named before their
reveal, only what the events show that viewer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.core import Moment, ReviewMarks, Seen, TurnMark

from .cards import BOARD, CONTACTS, JOBS

TURN_NAME = "round"
MOMENT_KINDS: Mapping[str, str] = {
    "auction": "auction won",
    "reveal": "sectors revealed",
    "job": "job completed",
    "round_end": "round end",
    "end": "game end",
}


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def review_marks(events: Sequence[Seen]) -> ReviewMarks:
    names: list[str] = []
    infamy: list[int] = []
    turns: list[TurnMark] = []
    moments: list[Moment] = []
    round_no, day = 0, True

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"

    def mark(seq: int, kind: str, text: str) -> None:
        moments.append(Moment(seq, kind, f"Round {round_no}: {text}" if round_no else text))

    for seen in events:
        data = seen.data
        kind = data.get("type")
        if kind == "GameStarted":
            names = [str(n) for n in data.get("names", ())]
            infamy = [0] * len(names)
        elif kind == "RoundStarted":
            round_no, day = int(data["round"]), bool(data["day"])
            half = "Day" if day else "Night"
            turns.append(TurnMark(seen.seq, round_no, f"Round {round_no}: {half} {data['turn']}"))
        elif kind == "ContactWon":
            contact = CONTACTS.get(str(data["contact"]))
            won = contact.name if contact else str(data["contact"])
            mark(seen.seq, "auction", f"{name(data['seat'])} wins the {won} auction")
        elif kind == "SectorsRevealed":
            chosen = [
                f"{name(seat)} {sector} {BOARD[sector].name}" if sector in BOARD else name(seat)
                for seat, sector, _accomplice in data.get("choices", ())
            ]
            mark(seen.seq, "reveal", f"sectors revealed: {', '.join(chosen)}")
        elif kind == "JobCompleted":
            job = JOBS.get(str(data["job"]))
            done = job.name if job else str(data["job"])
            mark(seen.seq, "job", f"{name(data['seat'])} completes {done}")
        elif kind in ("Gained", "Lost") and data.get("what") == "infamy":
            seat = int(data["seat"])
            if 0 <= seat < len(infamy):
                infamy[seat] += int(data["n"]) if kind == "Gained" else -int(data["n"])
        elif kind == "HenchmenScored":  # I-8.2 (its Infamy field: ``i``, 3.3)
            seat = int(data["seat"])
            if 0 <= seat < len(infamy):
                infamy[seat] += int(data["i"])
        elif kind == "DayNightFlipped":
            standing = ", ".join(f"{name(s)} {n}" for s, n in enumerate(infamy))
            half = "Day" if day else "Night"
            mark(seen.seq, "round_end", f"the {half} ends; Infamy {standing}")
        elif kind == "GameEnded":
            winners = [name(s) for s in data.get("winners", ())]
            verb = "share the win" if len(winners) > 1 else "wins"
            who = _listed(winners) if winners else "nobody"
            why = " (the last seat left)" if data.get("reason") == "last_seat" else ""
            mark(seen.seq, "end", f"game over: {who} {verb}{why}")
    return ReviewMarks(tuple(turns), tuple(moments))
