"""Goofspiel's start positions (``Game.validate_position``, ``Game.position_of``).

A position is a round in progress (docs/rules-goofspiel.md, "Start positions")::

    {"rules_version": 1, "cards": 5, "round": 3, "prize": 4, "prizes_left": [2, 5],
     "hands": [[1, 2, 5], [3, 4, 5]], "bids": [null, 3], "scores": [4, 0],
     "history": [{"round": 1, "prize": 1, "bids": [4, 1], "winner": 0},
                 {"round": 2, "prize": 3, "bids": [3, 2], "winner": 0}]}

``hands`` are each seat's cards as of the last reveal (public: every revealed bid is
shown), ``bids`` the round's sealed bids so far (each from its seat's hand; not every
seat's: the last bid would have revealed them), ``prizes_left`` the prize deck under the
shown ``prize``, top first (hidden), ``history`` every round before this one as it was
revealed and ``scores`` what it gives. Pure.
"""

from __future__ import annotations

from typing import Any

from games.positions import at, bad, integer, obj, optional_integer

from .rules import (
    MAX_CARDS,
    MAX_PLAYERS,
    MIN_CARDS,
    MIN_PLAYERS,
    RULES_VERSION,
    BidsRevealed,
    GameState,
)

RULES_VERSIONS: tuple[int, ...] = (RULES_VERSION,)  # the versions a position may name
FIELDS = ("cards", "round", "prize", "prizes_left", "hands", "bids", "scores", "history")


def validate_position(document: Any, seats: int) -> dict[str, Any]:
    """The document as stored (``rules_version`` filled in, hands sorted), or
    ``RuleViolation`` ``bad_position`` naming the field."""
    doc = obj(document, "", FIELDS, ("rules_version",))
    version = doc.get("rules_version", RULES_VERSION)
    if isinstance(version, bool) or version not in RULES_VERSIONS:
        bad("rules_version", f"Rules versions played: {list(RULES_VERSIONS)}.")
    cards = integer(doc["cards"], "cards", MIN_CARDS, MAX_CARDS)
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        bad("hands", f"Goofspiel is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    rnd = integer(doc["round"], "round", 1, cards)
    history = _history(doc["history"], seats, cards, rnd)
    shown = [h["prize"] for h in history]
    prize = integer(doc["prize"], "prize", 1, cards)
    if prize in shown:
        bad("prize", f"The prize {prize} was already won in an earlier round.")
    left = _list(doc["prizes_left"], "prizes_left", cards - rnd)
    for i, p in enumerate(left):
        integer(p, at("prizes_left", i), 1, cards)
        if p in shown or p == prize or p in left[:i]:
            bad(at("prizes_left", i), f"The prize {p} is already shown or listed.")
    hands = _list(doc["hands"], "hands", seats)
    spent: list[set[int]] = [set() for _ in range(seats)]
    for h in history:
        for seat, b in enumerate(h["bids"]):
            spent[seat].add(b)
    for seat, hand in enumerate(hands):
        path = at("hands", seat)
        _list(hand, path, cards - rnd + 1)
        for i, card in enumerate(hand):
            integer(card, at(path, i), 1, cards)
            if card in hand[:i]:
                bad(at(path, i), f"The card {card} is in this hand twice.")
            if card in spent[seat]:
                bad(at(path, i), f"Seat {seat} bid its {card} in an earlier round.")
    bids = _list(doc["bids"], "bids", seats)
    for seat, b in enumerate(bids):
        optional_integer(b, at("bids", seat), 1, cards)
        if b is not None and b not in hands[seat]:
            bad(at("bids", seat), f"Seat {seat}'s bid {b} is not in its hand.")
    if all(b is not None for b in bids):
        bad("bids", "Every seat has bid: the bids would have been revealed. Leave one open.")
    scores = _list(doc["scores"], "scores", seats)
    won = [0] * seats
    for h in history:
        if h["winner"] is not None:
            won[h["winner"]] += h["prize"]
    for seat, score in enumerate(scores):
        integer(score, at("scores", seat), 0, cards * (cards + 1) // 2)
        if score != won[seat]:
            bad(at("scores", seat), f"The history gives seat {seat} {won[seat]} points.")
    return {
        "rules_version": version,
        "cards": cards,
        "round": rnd,
        "prize": prize,
        "prizes_left": list(left),
        "hands": [sorted(hand) for hand in hands],
        "bids": list(bids),
        "scores": list(scores),
        "history": history,
    }


def _list(value: Any, path: str, length: int) -> list[Any]:
    if not isinstance(value, list | tuple):
        bad(path, "A list is needed here.")
    if len(value) != length:
        bad(path, f"A list of {length} is needed here, not {len(value)}.")
    return list(value)


def _history(value: Any, seats: int, cards: int, rnd: int) -> list[dict[str, Any]]:
    rounds = _list(value, "history", rnd - 1)
    out: list[dict[str, Any]] = []
    prizes: set[int] = set()
    used: list[set[int]] = [set() for _ in range(seats)]
    for i, item in enumerate(rounds):
        path = at("history", i)
        h = obj(item, path, ("round", "prize", "bids", "winner"))
        if integer(h["round"], at(path, "round"), 1, cards) != i + 1:
            bad(at(path, "round"), f"The history lists rounds 1 to {rnd - 1} in order.")
        prize = integer(h["prize"], at(path, "prize"), 1, cards)
        if prize in prizes:
            bad(at(path, "prize"), f"The prize {prize} was shown in an earlier round.")
        prizes.add(prize)
        bids = _list(h["bids"], at(path, "bids"), seats)
        for seat, b in enumerate(bids):
            integer(b, at(at(path, "bids"), seat), 1, cards)
            if b in used[seat]:
                bad(at(at(path, "bids"), seat), f"Seat {seat} bid its {b} twice.")
            used[seat].add(b)
        top = max(bids)
        winner = bids.index(top) if bids.count(top) == 1 else None
        if h["winner"] != winner:
            bad(at(path, "winner"), f"The single highest bid gives the winner {winner}.")
        out.append({"round": i + 1, "prize": prize, "bids": list(bids), "winner": winner})
    return out


def state_of(names: tuple[str, ...], seed: str, doc: dict[str, Any]) -> GameState:
    """The state a (validated) position document describes."""
    history = tuple(
        BidsRevealed(h["round"], tuple(h["bids"]), h["winner"], h["prize"]) for h in doc["history"]
    )
    bids = tuple(doc["bids"])
    return GameState(
        started=True,
        names=names,
        cards=doc["cards"],
        seed=seed,
        prizes=(*(h.prize for h in history), doc["prize"], *doc["prizes_left"]),
        round=doc["round"],
        prize=doc["prize"],
        hands=tuple(
            tuple(c for c in hand if c != bids[seat]) for seat, hand in enumerate(doc["hands"])
        ),
        bids=bids,
        scores=tuple(doc["scores"]),
        history=history,
    )


def position_of(state: GameState) -> dict[str, Any]:
    """The document of a running game's state (``state_of`` gives it back)."""
    if not state.started or state.over:
        bad("position", "Only a running game has a position to go on from.")
    return {
        "rules_version": RULES_VERSION,
        "cards": state.cards,
        "round": state.round,
        "prize": state.prize,
        "prizes_left": list(state.prizes[state.round :]),
        "hands": [
            sorted((*hand, bid) if bid is not None else hand)
            for hand, bid in zip(state.hands, state.bids, strict=True)
        ],
        "bids": list(state.bids),
        "scores": list(state.scores),
        "history": [
            {"round": h.round, "prize": h.prize, "bids": list(h.bids), "winner": h.winner}
            for h in state.history
        ],
    }


def seen_by(doc: dict[str, Any], viewer: Any) -> dict[str, Any]:
    """What ``viewer`` may see of a position (as of the view): the prize deck's order to
    staff only, a sealed bid to its seat (and staff) only; ``has_bid`` says who has bid."""
    if viewer == "staff":
        return doc
    bids = [b if seat == viewer else None for seat, b in enumerate(doc["bids"])]
    return {
        **doc,
        "prizes_left": None,
        "prizes_left_count": len(doc["prizes_left"]),
        "bids": bids,
        "has_bid": [b is not None for b in doc["bids"]],
    }
