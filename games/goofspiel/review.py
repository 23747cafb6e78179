"""What a Goofspiel replay steps and jumps by: each round (from its prize shown), the bids
revealed and who took the prize, and the end. Read from the events as a viewer sees them
(``games.core.Seen``): a sealed bid is never named, only the revealed ones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.core import Moment, ReviewMarks, Seen, TurnMark

TURN_NAME = "round"
MOMENT_KINDS: Mapping[str, str] = {
    "prize": "prize shown",
    "reveal": "bids revealed",
    "end": "game end",
}


def review_marks(events: Sequence[Seen]) -> ReviewMarks:
    names: list[str] = []
    turns: list[TurnMark] = []
    moments: list[Moment] = []

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"

    for seen in events:
        data = seen.data
        kind = data.get("type")
        if kind == "GameStarted":
            names = [str(n) for n in data.get("names", ())]
        elif kind == "PrizeShown":
            r, prize = int(data["round"]), data["prize"]
            turns.append(TurnMark(seen.seq, r, f"Round {r}: prize {prize}"))
            moments.append(Moment(seen.seq, "prize", f"Round {r}: the prize is {prize}"))
        elif kind == "BidsRevealed":
            r, prize, winner = int(data["round"]), data["prize"], data.get("winner")
            bids = ", ".join(f"{name(s)} {b}" for s, b in enumerate(data["bids"]))
            took = (
                f"{name(winner)} takes the {prize}"
                if winner is not None
                else f"a tie: nobody takes the {prize}"
            )
            moments.append(Moment(seen.seq, "reveal", f"Round {r}: bids {bids}; {took}"))
        elif kind == "GameEnded":
            scores = list(data.get("scores", ()))
            winners = [name(s) for s in data.get("winners", ())]
            said = ", ".join(f"{name(s)} {p}" for s, p in enumerate(scores))
            who = " and ".join(winners) if winners else "nobody"
            verb = "share the win" if len(winners) > 1 else "wins"
            moments.append(Moment(seen.seq, "end", f"Game over: {who} {verb} ({said})"))
    return ReviewMarks(tuple(turns), tuple(moments))
