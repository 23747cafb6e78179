"""Infamy's start positions (``Game.validate_position``, ``Game.position_of``).

A position is the game's state as JSON, field for field (``state.GameState``, its players
``state.PlayerState`` without seat and name, its auction and figures), but the names and
the seed (docs/rules-infamy.md, "Start positions"): the round and the step awaited (one of
``rules.STEP_COMMANDS``) with its ``actor``, every seat's tokens, bribes, Reputation,
Infamy, schemes and jobs, the board (Watchdogs, hazards, figures), the decks in order (jobs,
contacts, each faction's schemes), the discard piles, the track, the running auction, the
sealed sector choices. Only ``players``, ``round`` and ``step`` are required; a missing
field takes the state's default. Every job, scheme and contact is in one place (a scheme
in its own faction's deck or pile), and the engine's invariants hold
(``invariants.violations``). Pure.
"""

from __future__ import annotations

import typing
from typing import Any

from games.positions import at, bad, dataclass_of, each_once, integer, obj, plain_of, text, typed

from .cards import (
    BOARD,
    COLOURS,
    CONTACT_IDS,
    CONTENT_VERSION,
    FACTIONS,
    JOB_IDS,
    SCHEME_IDS,
    SUPPLY_SPACES,
    faction_schemes,
)
from .content import CONTENT_VERSIONS
from .events import GameStarted
from .invariants import violations
from .rng import seed_hash
from .rules import STEP_COMMANDS
from .setup import MAX_PLAYERS, MIN_PLAYERS
from .state import GameState, PlayerState
from .versions import RULES_VERSION, RULES_VERSIONS

# what a position does not say: the start's own (names, seed) and a finished game's
LEFT_OUT = ("started", "seed", "seed_hash", "over", "winners", "end_reason")
PLAYER_LEFT_OUT = ("seat", "name")
REQUIRED = ("players", "round", "step")


def _fields() -> dict[str, Any]:
    hints = typing.get_type_hints(GameState)
    return {k: v for k, v in hints.items() if k not in LEFT_OUT}


def decoded(doc: Any, names: tuple[str, ...], seed: str = "", seed_hash: str = "") -> GameState:
    """The state a position document describes, each field checked for its type (a
    refusal names its path); the game's sense is ``validate_position``'s."""
    hints = _fields()
    data = obj(doc, "", REQUIRED, [k for k in hints if k not in REQUIRED])
    players = data["players"]
    if not isinstance(players, list) or len(players) != len(names):
        bad("players", f"One entry per seat: {len(names)}.")
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "players":
            values[key] = tuple(
                dataclass_of(
                    PlayerState,
                    p,
                    at("players", seat),
                    fixed={"seat": seat, "name": names[seat]},
                    required=("colour",),
                )
                for seat, p in enumerate(players)
            )
        else:
            values[key] = typed(value, hints[key], key)
    if "choices" not in values:
        values["choices"] = (None,) * len(names)
    return GameState(**values, started=True, seed=seed, seed_hash=seed_hash)


def validate_position(document: Any, seats: int) -> dict[str, Any]:
    """The document as stored (every field filled in), or ``RuleViolation``
    ``bad_position`` naming the field."""
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        bad("players", f"Infamy is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    doc = dict(obj(document, "", REQUIRED, list(_fields())))
    doc.setdefault("rules_version", RULES_VERSION)
    doc.setdefault("content_version", CONTENT_VERSION)
    if doc["rules_version"] not in RULES_VERSIONS or isinstance(doc["rules_version"], bool):
        bad("rules_version", f"Rules versions played: {list(RULES_VERSIONS)}.")
    text(doc["content_version"], "content_version", CONTENT_VERSIONS)
    state = decoded(doc, tuple(f"seat{s}" for s in range(seats)))
    _check(state)
    broken = violations(state)
    if broken:
        bad("position", f"The engine could not go on from this position: {broken[0]}.")
    return position_of(state)


def _check(state: GameState) -> None:
    """What each field may hold, named by its path."""
    seats = len(state.players)
    colours = [p.colour for p in state.players]
    for seat, colour in enumerate(colours):
        text(colour, at(at("players", seat), "colour"), COLOURS)
        if colour in colours[:seat]:
            bad(at(at("players", seat), "colour"), f"{colour} is taken: one colour a seat.")
    integer(state.round, "round", 1, 10**6)
    text(state.step, "step", STEP_COMMANDS)
    if state.actor is not None:
        integer(state.actor, "actor", 0, seats - 1)
    for key in ("bodyguard", "accomplice", "chief", "smuggler", "informant"):
        value = getattr(state, key)
        if value is not None:
            integer(value, key, 0, seats - 1)
    for i, sector in enumerate(state.watchdogs):
        integer(sector, at("watchdogs", i), min(BOARD), max(BOARD))
    for i, space in enumerate(state.hazards):
        text(space, at("hazards", i), SUPPLY_SPACES)
    if len(state.choices) != seats:
        bad("choices", f"One entry per seat: {seats}.")
    for i, f in enumerate(state.figures):
        integer(f.seat, at(at("figures", i), "seat"), 0, seats - 1)
        text(f.figure, at(at("figures", i), "figure"), ("own", "accomplice"))
    if state.auction is not None:
        if len(state.auction.bids) != seats:
            bad("auction.bids", f"One entry per seat: {seats}.")
        text(state.auction.contact, "auction.contact", CONTACT_IDS)
    jobs = [("job_deck", state.job_deck), ("jobs", state.jobs)]
    jobs += [(at(at("players", s), "jobs"), p.jobs) for s, p in enumerate(state.players)]
    _known(jobs, JOB_IDS)
    each_once(jobs, JOB_IDS, "job_deck")
    schemes = [(at(at("players", s), "hand"), p.hand) for s, p in enumerate(state.players)]
    for i, faction in enumerate(FACTIONS):
        own = faction_schemes(faction)
        for pile in ("scheme_decks", "scheme_discards"):
            cards = getattr(state, pile)
            if len(cards) != len(FACTIONS):
                bad(pile, f"One pile per faction: {', '.join(FACTIONS)}.")
            path = at(pile, i)
            for j, card in enumerate(cards[i]):
                if card not in own:
                    bad(at(path, j), f"{card} is not a {faction} scheme.")
            schemes.append((path, cards[i]))
    _known(schemes, SCHEME_IDS)
    each_once(schemes, SCHEME_IDS, "scheme_decks")
    contacts = [("contact_deck", state.contact_deck), ("track", state.track)]
    _known(contacts, CONTACT_IDS)
    seen: set[str] = set()
    for path, cards in contacts:
        for j, card in enumerate(cards):
            if card in seen:
                bad(at(path, j), f"{card} is in two places.")
            seen.add(card)


def _known(places: list[tuple[str, tuple[str, ...]]], known: tuple[str, ...]) -> None:
    for path, cards in places:
        for j, card in enumerate(cards):
            if card not in known:
                bad(at(path, j), f"Unknown id {card!r}.")


def position_of(state: GameState) -> dict[str, Any]:
    """The document of a running game's state (``decoded`` gives it back)."""
    if not state.started or state.over:
        bad("position", "Only a running game has a position to go on from.")
    doc: dict[str, Any] = plain_of(state, LEFT_OUT)
    doc["players"] = [plain_of(p, PLAYER_LEFT_OUT) for p in state.players]
    return doc


def seen_by(doc: dict[str, Any], viewer: Any) -> dict[str, Any]:
    """What ``viewer`` may see of a position, as of a dealt game's events: other seats'
    schemes (a count) and the decks' order (a count) to staff only; the sealed sector
    choices to their own seat only, staff included (``chosen`` says who has chosen); a
    sandbox's stacked contacts to nobody."""
    out = {**doc, "stacked_contacts": None}
    choices = doc.get("choices") or []
    if doc.get("step") == "sector" and not doc.get("revealed"):
        out["choices"] = [c if seat == viewer else None for seat, c in enumerate(choices)]
        out["chosen"] = [c is not None for c in choices]
    if viewer == "staff":
        return out
    out["players"] = [
        p if seat == viewer else {**p, "hand": None, "hand_count": len(p["hand"])}
        for seat, p in enumerate(doc["players"])
    ]
    for deck in ("job_deck", "contact_deck"):
        out[deck] = None
        out[f"{deck}_count"] = len(doc[deck])
    out["scheme_decks"] = None
    out["scheme_decks_count"] = [len(d) for d in doc["scheme_decks"]]
    return out


def position_started(
    names: tuple[str, ...], doc: dict[str, Any], seed: str, salt: str
) -> tuple[GameStarted]:
    """The one event that starts a game from a (validated) position: it records it."""
    colours = tuple(p["colour"] for p in doc["players"])
    return (
        GameStarted(
            doc["rules_version"],
            doc["content_version"],
            names,
            colours,
            doc["sector_seconds"],
            doc["turn_seconds"],
            seed,
            seed_hash(seed, salt),
            {},
            salt,
            doc,
        ),
    )
