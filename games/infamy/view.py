"""The only way state and events leave the engine: what one viewer may see.

A viewer is a seat number, ``"spectator"`` or ``"staff"``. Schemes in hand are shown to
their owner (and staff); deck orders to staff; the seed to nobody until the game ends, when
everything is revealed to everyone. The sealed sector choices are shown to their owner only
until ``SectorsRevealed``: staff included (issue 17: nobody learns another seat's choice).
Stand-in content is marked ``reconstructed`` everywhere it appears.
"""

from __future__ import annotations

from typing import Any, Literal

from .cards import (
    CONTACTS,
    CONTENT_VERSION,
    FACTION_NAMES,
    FACTIONS,
    HAZARDS,
    JOB_REWARDS,
    TOKENS,
    WATCHDOGS,
)
from .codec import event_dict
from .content import CONTENT_VERSIONS, CONTENTS, TUNED, Content, content_of
from .events import (
    ContactDeckShuffled,
    ContactsRevealed,
    Event,
    GameEnded,
    GameStarted,
    JobDeckShuffled,
    JobsRefilled,
    PlayerResigned,
    SchemeDeckShuffled,
    SchemeDiscarded,
    SchemePlayed,
    SchemesDrawn,
    SchemeStolen,
    SectorChosen,
    SectorsRevealed,
)
from .position import seen_by
from .state import GameState
from .state import with_changes as replace

Viewer = int | Literal["spectator", "staff"]
HIDDEN = "?"  # a placeholder for a card a bot's observation may not see


def contact(contact_id: str) -> dict[str, Any]:
    c = CONTACTS[contact_id]
    return {"id": c.id, "name": c.name, "factions": list(c.factions), "text": c.text}


def job(job_id: str, tables: Content = TUNED) -> dict[str, Any]:
    j = tables.jobs[job_id]
    return {
        "id": j.id, "name": j.name, "type": j.type, "sector": j.sector,
        "requires": dict(j.requires), "reward": JOB_REWARDS[j.reward], "infamy": j.infamy,
        "rep": j.rep, "factions": list(j.factions), "reconstructed": True,
    }  # fmt: skip


def scheme(card: str, tables: Content = TUNED) -> dict[str, Any]:
    d = tables.schemes[card]
    return {"id": card, "faction": d.faction, "name": d.name, "round": d.round,
            "text": d.text, "reconstructed": True}  # fmt: skip


def board(tables: Content = TUNED) -> list[dict[str, Any]]:
    return [
        {"sector": s.number, "name": s.name, "hq": s.hq, "supply": s.supply,
         "reconstructed": True}
        for s in tables.board.values()
    ]  # fmt: skip


def perks(tables: Content = TUNED) -> dict[str, list[dict[str, Any]]]:
    return {
        f: [
            {"level": i + 1, "name": p.name, "gains": dict(p.gains), "draw": p.draw,
             "income": p.income or None, "reconstructed": not (f == "trust" and i == 0)}
            for i, p in enumerate(tables.perks[f])
        ]
        for f in FACTIONS
    }  # fmt: skip


def catalogue(content_version: str = CONTENT_VERSION) -> dict[str, Any]:
    """Everything a client needs to draw cards and the board (G-10), in a content version
    (default: the newest; a game's own numbers are in its view)."""
    tables = CONTENTS[content_version]
    return {
        "content_version": content_version,
        "content_versions": list(CONTENT_VERSIONS),
        "reconstructed": True,
        "factions": FACTION_NAMES,
        "board": board(tables),
        "contacts": [contact(c) for c in CONTACTS],
        "jobs": [job(j, tables) for j in tables.jobs],
        "schemes": [scheme(c, tables) for c in tables.schemes],
        "perks": perks(tables),
    }


def sees_hand(viewer: Viewer, seat: int, state: GameState) -> bool:
    return state.over or viewer == "staff" or viewer == seat


def sees_choice(viewer: Viewer, seat: int, state: GameState) -> bool:
    return state.over or state.revealed or viewer == seat


def step_key(state: GameState) -> str:
    """One key per decision point (G-4), e.g. ``r7:sector:212``."""
    return f"r{state.round}:{state.step}:{state.steps}"


def view(state: GameState, viewer: Viewer, *, now: int | None = None) -> dict[str, Any]:
    """The game as ``viewer`` may see it, as plain JSON-ready data."""
    from .legal import legal_commands
    from .rules import awaiting

    tables = content_of(state)  # the numbers this game is played with
    players = []
    for p in state.players:
        entry: dict[str, Any] = {
            "seat": p.seat,
            "name": p.name,
            "colour": p.colour,
            "resources": {t: p.count(t) for t in TOKENS[:3]},
            "henchmen": p.henchman,
            "favors": p.favor,
            "bribes": {"available": p.available, "spent": p.spent, "on_contacts": p.on_contacts},
            "reputation": dict(zip(FACTIONS, p.rep, strict=True)),
            "infamy": p.infamy,
            "jobs": [job(j, tables) for j in p.jobs],
            "hand_size": len(p.hand),
            "out": p.out,
            "resigned": p.resigned,
        }
        if sees_hand(viewer, p.seat, state):
            entry["hand"] = [scheme(c, tables) for c in p.hand]
        if state.step == "sector" or state.revealed:
            chosen = state.choices[p.seat] if p.seat < len(state.choices) else None
            entry["chosen"] = chosen is not None
            if chosen is not None and sees_choice(viewer, p.seat, state):
                entry["sector"] = chosen[0]
                if chosen[1]:
                    entry["accomplice_sector"] = chosen[1]
        players.append(entry)
    a = state.auction
    waiting = awaiting(state)
    out: dict[str, Any] = {
        "game": "infamy",
        "rules_version": state.rules_version,
        "content_version": state.content_version,
        "reconstructed": True,
        "viewer": viewer,
        "players": players,
        "round": state.round,
        "turn": state.turn,
        "day": state.day,
        "step": state.step,
        "step_key": step_key(state),
        "awaiting": list(waiting),
        "deadline": state.deadline if waiting else None,
        "bodyguard": state.bodyguard,
        "board": board(tables),
        "perks": perks(tables),
        "in_play": scheme(state.in_play, tables) if state.in_play else None,
        "watchdogs": list(state.watchdogs),
        "watchdogs_in_supply": WATCHDOGS - len(state.watchdogs),
        "hazards": list(state.hazards),
        "hazards_in_supply": HAZARDS - len(state.hazards),
        "supply": dict(zip(TOKENS, state.supply, strict=True)),
        "figures": [{"space": f.space, "seat": f.seat, "figure": f.figure}
                    for f in state.figures],  # fmt: skip
        "jobs": [job(j, tables) for j in state.jobs],
        "job_deck_size": len(state.job_deck),
        "contact_track": [
            {**contact(c), "position": i,
             "result": ("won" if state.results[i] is not None else "unclaimed")
             if i < len(state.results) else "pending",
             "winner": state.results[i] if i < len(state.results) else None}
            for i, c in enumerate(state.track)
        ],  # fmt: skip
        "contact_deck_size": len(state.contact_deck),
        "auction": None if a is None else {
            "position": a.position, "contact": a.contact, "bids": list(a.bids),
            "high": a.high, "passes": list(a.passes), "bidders": list(a.bidders),
        },  # fmt: skip
        "thug": None if state.thug is None else {"rival": state.thug[0],
                                                   "resource": state.thug[1]},
        "this_round": {"accomplice": state.accomplice, "sector_chief": state.chief,
                       "smuggler": state.smuggler, "informant": state.informant,
                       "smuggler_forgone": state.forgone},
        "order": list(state.order),
        "done": list(state.done),
        "scheme_decks": {f: len(d) for f, d in zip(FACTIONS, state.scheme_decks, strict=True)},
        "scheme_discards": {f: [scheme(c, tables) for c in d]
                            for f, d in zip(FACTIONS, state.scheme_discards, strict=True)},
        "seed_hash": state.seed_hash,
        "over": state.over,
        "winners": list(state.winners),
    }  # fmt: skip
    if state.over or viewer == "staff":
        out["decks"] = {
            "jobs": list(state.job_deck),
            "contacts": list(state.contact_deck),
            "schemes": {f: list(d) for f, d in zip(FACTIONS, state.scheme_decks, strict=True)},
        }
    if state.over:
        out["seed"] = state.seed
    if isinstance(viewer, int):
        out["legal"] = [o.as_dict() for o in legal_commands(state, viewer, now=now)]
    return out


def redact_event(event: Event, viewer: Viewer, *, revealed: bool = False) -> dict[str, Any]:
    """``event`` as ``viewer`` may see it; ``revealed`` once the game has ended."""
    data = event_dict(event)
    if revealed or isinstance(event, GameEnded):
        return data
    if isinstance(event, GameStarted):
        data.pop("seed")
        data.pop("stacked")
        data.pop("salt")
        if event.position is not None:
            data["position"] = seen_by(event.position, viewer)
    elif isinstance(event, JobDeckShuffled | SchemeDeckShuffled | ContactDeckShuffled):
        if viewer != "staff":
            data["cards"] = None
            data["count"] = len(event.cards)
    elif isinstance(event, SchemesDrawn) and viewer not in ("staff", event.seat):
        data["cards"] = None
        data["count"] = len(event.cards)
    elif isinstance(event, SchemeStolen) and viewer not in ("staff", event.source, event.target):
        data["card"] = None
    elif isinstance(event, SectorChosen) and viewer != event.seat:
        data["sector"] = None
        data["accomplice"] = None
    return data


def reveals(event: Event) -> frozenset[int] | Literal["all"]:
    """The seats ``event`` shows hidden information to (G-5: undo must not retract it)."""
    if isinstance(event, SchemesDrawn):
        return frozenset({event.seat})
    if isinstance(event, SchemeStolen):
        return frozenset({event.source, event.target})
    if isinstance(
        event,
        SectorsRevealed | ContactsRevealed | JobsRefilled | SchemeDiscarded | SchemePlayed
        | PlayerResigned | GameEnded,
    ):  # fmt: skip
        return "all"
    return frozenset()


def observe(state: GameState, seat: int) -> GameState:
    """``state`` with everything ``seat`` may not see replaced by placeholders: the deck
    orders, other seats' schemes and sealed choices (G-12: bots decide from this). Scheme
    placeholders keep their faction's prefix, so a draw from an observed deck still folds."""
    if state.over:
        return state

    def hide(cards: tuple[str, ...], prefix: str = HIDDEN) -> tuple[str, ...]:
        return tuple(f"{prefix}{HIDDEN}{i}" for i in range(len(cards)))

    players = tuple(p if p.seat == seat else replace(p, hand=hide(p.hand)) for p in state.players)
    choices = tuple(
        c if i == seat or state.revealed or c is None else (0, 0)
        for i, c in enumerate(state.choices)
    )
    return replace(
        state,
        seed="",
        players=players,
        choices=choices,
        job_deck=hide(state.job_deck),
        contact_deck=hide(state.contact_deck),
        scheme_decks=tuple(hide(d, "htm"[i]) for i, d in enumerate(state.scheme_decks)),
        stacked_contacts=(),
    )
