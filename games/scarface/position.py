"""Scarface 1920's start positions (``Game.validate_position``, ``Game.position_of``).

A position is the game's state as JSON, field for field (``state.GameState``, its players
``state.PlayerState`` without seat and name, its tiles and dealer storages), but the names,
the seed and what only a finished game has (docs/rules-scarface.md, "Start positions"):
the turn, whose it is, its kind and the step awaited with the plan's totals, every seat's
money, cards (hand, deck in order, discard, plan, hat cards aside), jobs, thugs, vehicles,
dealers and upgrades, the tiles, the police, Ness and the time track, the market and every
deck in order, the discard piles, the news, the Ring, the business supply, and the deck
orders recorded at the deal (``stacked``, which later reshuffles of a sandbox read). Only
``players``, ``turn``, ``seat``, ``kind`` and ``step`` are required; a missing field takes
the state's default. Each card is in at most one place, the board is whole (18 tiles, the
market's slots) and the engine's invariants hold (``invariants.broken``). Pure.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any

from games.positions import (
    array,
    at,
    bad,
    dataclass_of,
    integer,
    obj,
    plain_of,
    text,
    typed,
)

from .content import (
    AREAS,
    BUSINESSES,
    COLUMNS,
    CONTENT_VERSION,
    CONTENT_VERSIONS,
    CONTENTS,
    DISTRICTS,
    END_NEWS,
    GANGS,
    THUG_BOXES,
    TILE_IDS,
    Content,
    gang_of,
)
from .events import GameStarted
from .invariants import broken
from .rng import seed_hash
from .setup import MAX_PLAYERS, MIN_PLAYERS
from .state import GameState, PlayerState
from .versions import RULES_VERSION, RULES_VERSIONS

# what a position does not say: the start's own (names, seed, the seat count) and a
# finished game's (winners, cash, final income)
LEFT_OUT = (
    "started", "over", "seed", "salt", "seed_hash", "names", "seats_at_start", "winners",
    "cash", "final_income",
)  # fmt: skip
PLAYER_LEFT_OUT = ("seat", "name")
REQUIRED = ("players", "turn", "seat", "kind", "step")
STEPS: dict[str, tuple[str, ...]] = {
    "action": ("plan", "actions", "choose"),
    "reorganization": ("reorg_sales", "reorg_recruit"),
}


def _fields() -> dict[str, Any]:
    hints = typing.get_type_hints(GameState)
    return {k: v for k, v in hints.items() if k not in LEFT_OUT}


def _stacked(value: Any) -> dict[str, list[str]] | None:
    """The deal's recorded deck orders (``GameState.stacked``, typed ``Any``): an object of
    lists of card ids, or null."""
    if value is None:
        return None
    if not isinstance(value, dict):
        bad("stacked", "An object of card-id lists (or null) is needed here.")
    out: dict[str, list[str]] = {}
    for key, cards in value.items():
        items = typed(cards, tuple[str, ...], at("stacked", key))
        out[key] = list(items)
    return out


def decoded(
    doc: Any, names: tuple[str, ...], seed: str = "", seed_hash: str = "", salt: str = ""
) -> GameState:
    """The state a position document describes, each field checked for its type (a
    refusal names its path); the game's sense is ``validate_position``'s."""
    hints = _fields()
    data = obj(doc, "", REQUIRED, [k for k in hints if k not in REQUIRED])
    players = data["players"]
    if not isinstance(players, list) or len(players) != len(names):
        bad("players", f"One entry per seat: {len(names)}.")
    _whole_parts(data)
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "players":
            values[key] = tuple(
                dataclass_of(
                    PlayerState,
                    p,
                    at("players", seat),
                    fixed={"seat": seat, "name": names[seat]},
                    required=("gang",),
                )
                for seat, p in enumerate(players)
            )
        elif key == "stacked":
            values[key] = _stacked(value)
        else:
            values[key] = typed(value, hints[key], key)
    return GameState(
        **values,
        started=True,
        seed=seed,
        salt=salt,
        seed_hash=seed_hash,
        names=names,
        seats_at_start=len(names),
    )


def _whole_parts(data: dict[str, Any]) -> None:
    """The fields a tile and a dealer storage cannot do without (``typed`` fills in the
    others' defaults)."""
    parts: list[tuple[str, Any, tuple[str, ...]]] = [("tiles", data.get("tiles", []), ("id",))]
    for seat, p in enumerate(data["players"]):
        if isinstance(p, dict):
            path = at(at("players", seat), "stored")
            parts.append((path, p.get("stored", []), ("dealer", "good")))
    for path, items, keys in parts:
        for i, item in enumerate(array(items, path)):
            if isinstance(item, dict):
                for key in keys:
                    if key not in item:
                        bad(at(at(path, i), key), f"{key} is required.")


def validate_position(document: Any, seats: int) -> dict[str, Any]:
    """The document as stored (every field filled in), or ``RuleViolation``
    ``bad_position`` naming the field."""
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        bad("players", f"Scarface 1920 is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    doc = dict(obj(document, "", REQUIRED, list(_fields())))
    doc.setdefault("rules_version", RULES_VERSION)
    doc.setdefault("content_version", CONTENT_VERSION)
    if doc["rules_version"] not in RULES_VERSIONS or isinstance(doc["rules_version"], bool):
        bad("rules_version", f"Rules versions played: {list(RULES_VERSIONS)}.")
    text(doc["content_version"], "content_version", CONTENT_VERSIONS)
    state = decoded(doc, tuple(f"seat{s}" for s in range(seats)))
    _check(state, CONTENTS[state.content_version])
    problems = broken(state)
    if problems:
        bad("position", f"The engine could not go on from this position: {problems[0]}.")
    return position_of(state)


def _seat(value: int | None, path: str, seats: int) -> None:
    if value is not None:
        integer(value, path, 0, seats - 1)


def _check(state: GameState, tables: Content) -> None:
    """What each field may hold, named by its path."""
    seats = len(state.players)
    gangs = [p.gang for p in state.players]
    for seat, gang in enumerate(gangs):
        text(gang, at(at("players", seat), "gang"), GANGS)
        if gang in gangs[:seat]:
            bad(at(at("players", seat), "gang"), f"{gang} is taken: one gang a seat.")
    integer(state.turn, "turn", 1, 10**6)
    _seat(state.seat, "seat", seats)
    _seat(state.first_seat, "first_seat", seats)
    _seat(state.ring, "ring", seats)
    text(state.kind, "kind", STEPS)
    text(state.step, "step", STEPS[state.kind])
    if not state.players[state.seat].in_game:
        bad("seat", f"Seat {state.seat} has left the game: it cannot be awaited.")
    if state.in_raid:
        bad("in_raid", "A raid resolves within a command: a position is never inside one.")
    integer(state.muscle, "muscle", 0, 10**6)
    integer(state.influence, "influence", 0, 10**6)
    integer(state.boss_uses, "boss_uses", 0, 3)
    integer(state.ness, "ness", 0, 10)
    integer(state.time, "time", 0, tables.extra_space)
    if (state.step == "choose") != bool(state.offered):
        bad("offered", "Cards are offered exactly while the step is 'choose'.")
    text(state.offered_deck, "offered_deck", ("jobs", "dealers") if state.offered else ("",))
    _board(state, tables)
    for seat, p in enumerate(state.players):
        _player(p, at("players", seat), tables)
    _cards(state, tables)


def _board(state: GameState, tables: Content) -> None:
    if [t.id for t in state.tiles] != list(TILE_IDS):
        bad("tiles", f"The {len(TILE_IDS)} tiles, in order: {TILE_IDS[0]} to {TILE_IDS[-1]}.")
    seats = len(state.players)
    for i, tile in enumerate(state.tiles):
        path = at("tiles", i)
        _seat(tile.owner, at(path, "owner"), seats)
        integer(tile.alcohol, at(path, "alcohol"), 0, 3)
        integer(tile.gun, at(path, "gun"), 0, 3)
        for j, business in enumerate(tile.businesses):
            text(business, at(at(path, "businesses"), j), BUSINESSES)
    for i, district in enumerate(state.police):
        text(district, at("police", i), DISTRICTS)
    for i, (business, n) in enumerate(state.business_supply):
        text(business, at(at("business_supply", i), 0), tables.business_counts)
        integer(n, at(at("business_supply", i), 1), 0, tables.business_counts[business])
    for i, tile_id in enumerate(state.sold):
        text(tile_id, at("sold", i), TILE_IDS)
    for row, slots in (("market_low", tables.low_slots), ("market_high", tables.high_slots)):
        if len(getattr(state, row)) != slots:
            bad(row, f"The row has {slots} slots (null: empty).")


def _player(p: PlayerState, path: str, tables: Content) -> None:
    for key in ("money", "hand_limit", "lawyer", "recruiter", "support", "reorgs"):
        integer(getattr(p, key), at(path, key), 0, 10**6)
    integer(p.crime, at(path, "crime"), 1, 11)
    integer(p.boss, at(path, "boss"), 0, tables.boss_track_end)
    if len(p.columns) != len(COLUMNS):
        bad(at(path, "columns"), f"One count per column: {', '.join(COLUMNS)}.")
    for i, (column, filled) in enumerate(zip(COLUMNS, p.columns, strict=True)):
        integer(filled, at(at(path, "columns"), i), 0, len(tables.slots[column]))
    places = (*THUG_BOXES, *AREAS, *DISTRICTS, *(f"row:{k}" for k in range(len(p.rows))))
    for i, (place, n) in enumerate(p.thugs):
        text(place, at(at(at(path, "thugs"), i), 0), places)
        integer(n, at(at(at(path, "thugs"), i), 1), 1, 12)
    if [place for place, _ in p.thugs] != sorted({place for place, _ in p.thugs}):
        bad(at(path, "thugs"), "One entry per place, sorted by place.")
    for key in ("cars", "trucks"):
        for i, district in enumerate(getattr(p, key)):
            text(district, at(at(path, key), i), DISTRICTS)
        if list(getattr(p, key)) != sorted(getattr(p, key)):
            bad(at(path, key), "The districts, sorted.")
    held = [d for row in p.rows for d in row]
    for i, s in enumerate(p.stored):
        where = at(at(path, "stored"), i)
        if s.dealer not in held:
            bad(at(where, "dealer"), f"{s.dealer} is not in one of the seat's dealer rows.")
        text(s.good, at(where, "good"), ("alcohol", "gun"))
    if sorted(s.dealer for s in p.stored) != sorted(held):
        bad(at(path, "stored"), "One storage for each dealer in the seat's rows.")
    gang = p.gang
    for key in ("hand", "deck", "discard", "plan", "aside"):
        for i, card in enumerate(getattr(p, key)):
            own = gang_of(card)
            if own is not None and own != gang:
                bad(at(at(path, key), i), f"{card} is another gang's card.")


def _cards(state: GameState, tables: Content) -> None:
    """Every card known, of the right kind where it lies, and in at most one place (a
    dealt game's cards may also be out of the game: a resigned seat's, refreshed ones)."""
    gang_cards = {*tables.gang_cards, *(f"{g}-boss" for g in GANGS)}
    low = {a for a, c in tables.associates.items() if c.stars <= 3}
    high = set(tables.associates) - low
    known_in_hand = gang_cards | set(tables.associates)
    places: list[tuple[str, Iterable[str | None], set[str]]] = []
    for seat, p in enumerate(state.players):
        path = at("players", seat)
        for key in ("hand", "deck", "discard", "plan", "aside"):
            places.append((at(path, key), getattr(p, key), known_in_hand))
        places.append((at(path, "jobs"), p.jobs, set(tables.jobs)))
        places.append((at(path, "done"), p.done, set(tables.jobs)))
        for r, row in enumerate(p.rows):
            places.append((at(at(path, "rows"), r), row, set(tables.dealers)))
    offered = set(tables.jobs) if state.offered_deck == "jobs" else set(tables.dealers)
    places += [
        ("market_low", state.market_low, low),
        ("market_high", state.market_high, high),
        ("low_deck", state.low_deck, low),
        ("high_deck", state.high_deck, high),
        ("job_deck", state.job_deck, set(tables.jobs)),
        ("job_discard", state.job_discard, set(tables.jobs)),
        ("offered", state.offered, offered),
        ("dealer_deck", state.dealer_deck, set(tables.dealers)),
        ("raid_deck", state.raid_deck, set(tables.raids)),
        ("raid_discard", state.raid_discard, set(tables.raids)),
        ("news_deck", state.news_deck, set(tables.news)),
        ("news_seen", state.news_seen, set(tables.news)),
    ]
    seen: dict[str, str] = {}
    for path, cards, known in places:
        for i, card in enumerate(cards):
            if card is None:
                continue
            if card not in known:
                bad(at(path, i), f"{card!r} cannot be here (unknown, or another kind of card).")
            if card in seen:
                bad(at(path, i), f"{card} is already at {seen[card]}: each card is in one place.")
            seen[card] = at(path, i)
    if state.news is not None:
        text(state.news, "news", state.news_seen)
    if not state.news_deck or state.news_deck[-1] != END_NEWS:
        bad("news_deck", f"{END_NEWS} (Prohibition Ends at Last) is at the bottom of the news.")


def position_of(state: GameState) -> dict[str, Any]:
    """The document of a running game's state (``decoded`` gives it back)."""
    if not state.started or state.over:
        bad("position", "Only a running game has a position to go on from.")
    doc: dict[str, Any] = plain_of(state, LEFT_OUT)
    doc["players"] = [plain_of(p, PLAYER_LEFT_OUT) for p in state.players]
    if state.stacked is not None:
        doc["stacked"] = {k: list(v) for k, v in state.stacked.items()}
    return doc


HIDDEN_DECKS = ("low_deck", "high_deck", "job_deck", "dealer_deck", "raid_deck", "news_deck")


def seen_by(doc: dict[str, Any], viewer: Any) -> dict[str, Any]:
    """What ``viewer`` may see of a position, as of a dealt game's view and events: another
    seat's money, hand and jobs (counts for hand and jobs) to staff only; every deck's
    order, a seat's own included (a count), to staff only; the cards offered to the seat
    choosing and staff; the deal's recorded deck orders to nobody."""
    out = {**doc, "stacked": None}
    if viewer == "staff":
        return out
    players = []
    for seat, p in enumerate(doc["players"]):
        shown = {**p, "deck": None, "deck_count": len(p["deck"])}
        if seat != viewer:
            shown |= {"money": None, "hand": None, "hand_count": len(p["hand"])}
            shown |= {"jobs": None, "jobs_count": len(p["jobs"])}
        players.append(shown)
    out["players"] = players
    for deck in HIDDEN_DECKS:
        out[deck] = None
        out[f"{deck}_count"] = len(doc[deck])
    if doc["seat"] != viewer:
        out["offered"] = None
        out["offered_count"] = len(doc["offered"])
    return out


def position_started(
    names: tuple[str, ...], doc: dict[str, Any], seed: str, salt: str
) -> tuple[GameStarted]:
    """The one event that starts a game from a (validated) position: it records it."""
    return (
        GameStarted(
            rules_version=doc["rules_version"],
            content_version=doc["content_version"],
            names=names,
            gangs=tuple(p["gang"] for p in doc["players"]),
            first_seat=doc["first_seat"],
            seed_hash=seed_hash(seed, salt),
            salt=salt,
            seed=seed,
            stacked={},
            position=doc,
        ),
    )
