"""Family Business's start positions (``Game.validate_position``, ``Game.position_of``).

A position says everything a game's state holds but the players' names and the seed
(docs/rules.md, "Start positions")::

    {"rules_version": 1, "advanced": false, "reaction_seconds": 10,
     "players": [{"family": "...", "hand": [...], "crew": [...], "out": false}, ...],
     "deck": [...top first], "discard": [...top last], "hit_list": [...], "graveyard": [...],
     "mob_war": 0, "turn_seat": 0, "turn": 3, "window": null, ...}

Every card is in exactly one place (a hand, the deck, the discard pile, under a mobster),
every mobster of the seated families in one (a crew, the Hit List, the graveyard), a
mobster only in its own family's crew, and the engine's invariants hold
(``invariants.violations``). Optional fields default to a game's start: ``advanced``
false, ``reaction_seconds`` 10, no window, no abilities, counters 0. Pure.
"""

from __future__ import annotations

import re
from typing import Any

from games.positions import (
    array,
    at,
    bad,
    boolean,
    cards,
    each_once,
    integer,
    obj,
    optional_integer,
    text,
)

from .cards import CARD_KIND, FAMILY_BY_ID, MOBSTER_FAMILY, deck_cards
from .invariants import violations
from .revisions import RULES_VERSION, RULES_VERSIONS
from .setup import MAX_PLAYERS, MIN_PLAYERS
from .state import GameState, PlayerState, Window, WindowOutcome

REQUIRED = ("players", "deck", "discard", "hit_list", "graveyard", "turn_seat", "turn")
OPTIONAL = (
    "rules_version",
    "advanced",
    "reaction_seconds",
    "mob_war",
    "window",
    "windows_opened",
    "last_window",
    "shuffles",
    "abilities",
    "unforgiving",
    "butcher_turn",
    "temper_turn",
)
PLAYER = ("family", "hand", "crew")
WINDOW = ("id", "seat", "card", "kind", "targets", "eligible", "passed", "counters", "deadline")
WINDOW_OPTIONAL = ("decision", "count", "then")
DECISIONS = ("", "draw", "unforgiving", "short_tempered")
THEN = re.compile(r"^(|play|(turn|draw|extra):[0-9])$")
BIG = 10**15  # counters and deadlines (ms since the epoch) are below this


def validate_position(document: Any, seats: int) -> dict[str, Any]:
    """The document as stored (every optional field filled in), or ``RuleViolation``
    ``bad_position`` naming the field."""
    doc = obj(document, "", REQUIRED, OPTIONAL)
    version = doc.get("rules_version", RULES_VERSION)
    if isinstance(version, bool) or version not in RULES_VERSIONS:
        bad("rules_version", f"Rules versions played: {list(RULES_VERSIONS)}.")
    advanced = boolean(doc.get("advanced", False), "advanced")
    reaction = integer(doc.get("reaction_seconds", 10), "reaction_seconds", 1, 300)
    known = deck_cards(advanced)
    mobsters = list(MOBSTER_FAMILY)
    players = array(doc["players"], "players", seats)
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        bad("players", f"Family Business is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    out_players: list[dict[str, Any]] = []
    families: list[str] = []
    for seat, value in enumerate(players):
        path = at("players", seat)
        p = obj(value, path, PLAYER, ("out", "resigned"))
        family = text(p["family"], at(path, "family"), FAMILY_BY_ID)
        if family in families:
            bad(at(path, "family"), f"{family} is seated twice: each player a different family.")
        families.append(family)
        hand = cards(p["hand"], at(path, "hand"), known)
        crew = cards(p["crew"], at(path, "crew"), mobsters)
        for i, m in enumerate(crew):
            if MOBSTER_FAMILY[m] != family:
                bad(at(at(path, "crew"), i), f"{m} is not of the {family} family.")
        out = boolean(p.get("out", False), at(path, "out"))
        resigned = boolean(p.get("resigned", False), at(path, "resigned"))
        if resigned and not out:
            bad(at(path, "out"), "A player who resigned is out.")
        entry = {"family": family, "hand": hand, "crew": crew, "out": out, "resigned": resigned}
        out_players.append(entry)
    deck = cards(doc["deck"], "deck", known)
    discard = cards(doc["discard"], "discard", known)
    hit_list = cards(doc["hit_list"], "hit_list", mobsters)
    graveyard = cards(doc["graveyard"], "graveyard", mobsters)
    abilities = _abilities(doc.get("abilities", []), known)
    each_once(
        [
            *((at(at("players", s), "hand"), p["hand"]) for s, p in enumerate(out_players)),
            ("deck", deck),
            ("discard", discard),
            ("abilities", [card for _, card in abilities]),
        ],
        known,
        "deck",
    )
    seated = [m for f in families for m, _ in FAMILY_BY_ID[f].members]
    for i, m in enumerate([*hit_list, *graveyard]):
        where = "hit_list" if i < len(hit_list) else "graveyard"
        if m not in seated:
            index = i if i < len(hit_list) else i - len(hit_list)
            bad(at(where, index), f"{m}'s family is not at this table.")
    each_once(
        [
            *((at(at("players", s), "crew"), p["crew"]) for s, p in enumerate(out_players)),
            ("hit_list", hit_list),
            ("graveyard", graveyard),
        ],
        seated,
        "graveyard",
    )
    unforgiving = cards(doc.get("unforgiving", []), "unforgiving", mobsters)
    stored: dict[str, Any] = {
        "rules_version": version,
        "advanced": advanced,
        "reaction_seconds": reaction,
        "players": out_players,
        "deck": deck,
        "discard": discard,
        "hit_list": hit_list,
        "graveyard": graveyard,
        "mob_war": integer(doc.get("mob_war", 0), "mob_war", 0, 2),
        "turn_seat": integer(doc["turn_seat"], "turn_seat", 0, seats - 1),
        "turn": integer(doc["turn"], "turn", 1, BIG),
        "window": _window(doc.get("window"), seats, known),
        "windows_opened": integer(doc.get("windows_opened", 0), "windows_opened", 0, BIG),
        "last_window": _last_window(doc.get("last_window"), seats, known),
        "shuffles": integer(doc.get("shuffles", 0), "shuffles", 0, BIG),
        "abilities": [list(pair) for pair in abilities],
        "unforgiving": unforgiving,
        "butcher_turn": integer(doc.get("butcher_turn", 0), "butcher_turn", 0, BIG),
        "temper_turn": integer(doc.get("temper_turn", 0), "temper_turn", 0, BIG),
    }
    if stored["window"] is not None and stored["windows_opened"] < 1:
        bad("windows_opened", "A window is open: at least one was opened.")
    # what the engine relies on beyond each card's place: whose turn, who is out, the war
    broken = violations(state_of(tuple(f"seat{s}" for s in range(seats)), "", "", stored))
    if broken:
        bad("position", f"The engine could not go on from this position: {broken[0]}.")
    return stored


def _abilities(value: Any, known: tuple[str, ...]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for i, pair in enumerate(array(value, "abilities")):
        path = at("abilities", i)
        array(pair, path, 2)
        mobster = text(pair[0], at(path, 0), MOBSTER_FAMILY)
        card = text(pair[1], at(path, 1), known)
        out.append((mobster, card))
    return out


def _window(value: Any, seats: int, known: tuple[str, ...]) -> dict[str, Any] | None:
    if value is None:
        return None
    w = obj(value, "window", WINDOW, WINDOW_OPTIONAL)
    card = text(w["card"], "window.card", known)
    kind = text(w["kind"], "window.kind")
    if kind != CARD_KIND[card]:
        bad("window.kind", f"{card} is a {CARD_KIND[card]}.")
    decision = text(w.get("decision", ""), "window.decision", DECISIONS)
    then = text(w.get("then", ""), "window.then")
    if not THEN.match(then):
        bad("window.then", "Play resumes at play, turn:<seat>, draw:<seat> or extra:<seat>.")
    seat_lists = {}
    for key in ("eligible", "passed"):
        items = array(w[key], f"window.{key}")
        for i, s in enumerate(items):
            integer(s, at(f"window.{key}", i), 0, seats - 1)
        seat_lists[key] = items
    return {
        "id": text(w["id"], "window.id"),
        "seat": integer(w["seat"], "window.seat", 0, seats - 1),
        "card": card,
        "kind": kind,
        "targets": cards(w["targets"], "window.targets", MOBSTER_FAMILY),
        "eligible": seat_lists["eligible"],
        "passed": seat_lists["passed"],
        "counters": [
            text(c, at("window.counters", i))
            for i, c in enumerate(array(w["counters"], "window.counters"))
        ],
        "deadline": integer(w["deadline"], "window.deadline", 0, BIG),
        "decision": decision,
        "count": integer(w.get("count", 0), "window.count", 0, 60),
        "then": then,
    }


def _last_window(value: Any, seats: int, known: tuple[str, ...]) -> dict[str, Any] | None:
    if value is None:
        return None
    w = obj(value, "last_window", ("id", "reason"), ("countered_by", "counter_card"))
    counter = w.get("counter_card")
    return {
        "id": text(w["id"], "last_window.id"),
        "reason": text(w["reason"], "last_window.reason"),
        "countered_by": optional_integer(
            w.get("countered_by"), "last_window.countered_by", 0, seats - 1
        ),
        "counter_card": None
        if counter is None
        else text(counter, "last_window.counter_card", known),
    }


def state_of(names: tuple[str, ...], seed: str, seed_hash: str, doc: dict[str, Any]) -> GameState:
    """The state a (validated) position document describes."""
    w, last = doc["window"], doc["last_window"]
    window = None
    if w is not None:
        window = Window(
            id=w["id"],
            seat=w["seat"],
            card=w["card"],
            kind=w["kind"],
            targets=tuple(w["targets"]),
            eligible=tuple(w["eligible"]),
            passed=tuple(w["passed"]),
            counters=tuple(w["counters"]),
            deadline=w["deadline"],
            decision=w["decision"],
            count=w["count"],
            then=w["then"],
        )
    return GameState(
        rules_version=doc["rules_version"],
        started=True,
        players=tuple(
            PlayerState(
                seat=seat,
                name=names[seat],
                family=p["family"],
                hand=tuple(p["hand"]),
                crew=tuple(p["crew"]),
                out=p["out"],
                resigned=p["resigned"],
            )
            for seat, p in enumerate(doc["players"])
        ),
        deck=tuple(doc["deck"]),
        discard=tuple(doc["discard"]),
        hit_list=tuple(doc["hit_list"]),
        graveyard=tuple(doc["graveyard"]),
        mob_war=doc["mob_war"],
        turn_seat=doc["turn_seat"],
        turn=doc["turn"],
        window=window,
        windows_opened=doc["windows_opened"],
        last_window=None if last is None else WindowOutcome(**last),
        shuffles=doc["shuffles"],
        reaction_seconds=doc["reaction_seconds"],
        advanced=doc["advanced"],
        abilities=tuple((m, c) for m, c in doc["abilities"]),
        unforgiving=tuple(doc["unforgiving"]),
        butcher_turn=doc["butcher_turn"],
        temper_turn=doc["temper_turn"],
        seed=seed,
        seed_hash=seed_hash,
    )


def position_of(state: GameState) -> dict[str, Any]:
    """The document of a running game's state (``state_of`` gives it back)."""
    if not state.started or state.over:
        bad("position", "Only a running game has a position to go on from.")
    w, last = state.window, state.last_window
    return {
        "rules_version": state.rules_version,
        "advanced": state.advanced,
        "reaction_seconds": state.reaction_seconds,
        "players": [
            {
                "family": p.family,
                "hand": list(p.hand),
                "crew": list(p.crew),
                "out": p.out,
                "resigned": p.resigned,
            }
            for p in state.players
        ],
        "deck": list(state.deck),
        "discard": list(state.discard),
        "hit_list": list(state.hit_list),
        "graveyard": list(state.graveyard),
        "mob_war": state.mob_war,
        "turn_seat": state.turn_seat,
        "turn": state.turn,
        "window": None
        if w is None
        else {
            "id": w.id,
            "seat": w.seat,
            "card": w.card,
            "kind": w.kind,
            "targets": list(w.targets),
            "eligible": list(w.eligible),
            "passed": list(w.passed),
            "counters": list(w.counters),
            "deadline": w.deadline,
            "decision": w.decision,
            "count": w.count,
            "then": w.then,
        },
        "windows_opened": state.windows_opened,
        "last_window": None
        if last is None
        else {
            "id": last.id,
            "reason": last.reason,
            "countered_by": last.countered_by,
            "counter_card": last.counter_card,
        },
        "shuffles": state.shuffles,
        "abilities": [[m, c] for m, c in state.abilities],
        "unforgiving": list(state.unforgiving),
        "butcher_turn": state.butcher_turn,
        "temper_turn": state.temper_turn,
    }


def seen_by(doc: dict[str, Any], viewer: Any) -> dict[str, Any]:
    """What ``viewer`` may see of a position, as of a dealt game's events: every hand to
    its own seat and staff (a count to others), the deck's order to staff (a count)."""
    if viewer == "staff":
        return doc
    players = [
        p if seat == viewer else {**p, "hand": None, "hand_count": len(p["hand"])}
        for seat, p in enumerate(doc["players"])
    ]
    return {**doc, "players": players, "deck": None, "deck_count": len(doc["deck"])}
