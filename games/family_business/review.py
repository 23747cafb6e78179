"""What a Family Business replay steps and jumps by: each turn (``TurnStarted``), its
attacks, the counters played against them, Mob Wars, eliminations and the end. Read from
the events as a viewer sees them (``games.core.Seen``): only played cards are named, never
a hand or the deck."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Moment, ReviewMarks, Seen, TurnMark

from .cards import KIND_INFO, MOBSTER_FAMILY, MOBSTER_NAME, Category, Kind

TURN_NAME = "turn"
MOMENT_KINDS: Mapping[str, str] = {
    "attack": "attack",
    "counter": "counter",
    "mob_war": "Mob War",
    "elimination": "elimination",
    "end": "game end",
}

CAUSES = {
    "mob_war": "in the Mob War",
    "hit": "by a Hit",
    "massacre": "in a Massacre",
    "turncoat": "by a Turncoat",
    "resign": "as its player resigned",
}


def _kind_name(kind: str) -> str:
    try:
        return KIND_INFO[Kind(kind)].name
    except ValueError:
        return kind


def _is_attack(data: Mapping[str, Any]) -> bool:
    try:
        return not data.get("discard") and KIND_INFO[Kind(data["kind"])].category == (
            Category.ATTACK
        )
    except ValueError:
        return False


class _Namer:
    """Seats and mobsters by name, from the game's first event."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.families: list[str] = []

    def seat(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def mobster(self, mobster: str) -> str:
        name = MOBSTER_NAME.get(mobster, mobster)
        family = MOBSTER_FAMILY.get(mobster)
        if family in self.families:
            return f"{name} ({self.seat(self.families.index(family))}'s)"
        return name


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def review_marks(events: Sequence[Seen]) -> ReviewMarks:
    who = _Namer()
    turns: list[TurnMark] = []
    moments: list[Moment] = []
    turn = 0

    def mark(seq: int, kind: str, text: str) -> None:
        moments.append(Moment(seq, kind, f"Turn {turn}: {text}" if turn else text))

    for seen in events:
        data = seen.data
        kind = data.get("type")
        if kind == "GameStarted":
            who.names = [str(n) for n in data.get("names", ())]
            who.families = [str(f) for f in data.get("families", ())]
        elif kind == "TurnStarted":
            turn = int(data["turn"])
            turns.append(TurnMark(seen.seq, turn, f"Turn {turn}: {who.seat(data['seat'])}"))
        elif kind == "CardPlayed" and _is_attack(data):
            text = f"{who.seat(data['seat'])} plays {_kind_name(data['kind'])}"
            targets = [who.mobster(m) for m in data.get("targets") or ()]
            if targets:
                text += f" on {_listed(targets)}"
            elif data.get("player") is not None:
                text += f" against {who.seat(data['player'])}"
            mark(seen.seq, "attack", text)
        elif kind == "CounterPlayed":
            mark(seen.seq, "counter", f"{who.seat(data['seat'])} counters with "
                 f"{_kind_name(data['kind'])}")  # fmt: skip
        elif kind == "MobWarStarted":
            mark(seen.seq, "mob_war", f"a Mob War starts (rate {data['rate']})")
        elif kind == "MobsterEliminated":
            cause = CAUSES.get(str(data.get("cause")), "")
            mark(seen.seq, "elimination", f"{who.mobster(data['mobster'])} dies {cause}".strip())
        elif kind == "PlayerOut":
            mark(seen.seq, "elimination", f"{who.seat(data['seat'])} is out of the game")
        elif kind == "GameEnded":
            winners = [who.seat(s) for s in data.get("winners", ())]
            if not winners:
                mark(seen.seq, "end", "game over: nobody wins")
            else:
                verb = "wins" if len(winners) == 1 else "share the win"
                mark(seen.seq, "end", f"game over: {_listed(winners)} {verb}")
    return ReviewMarks(tuple(turns), tuple(moments))
