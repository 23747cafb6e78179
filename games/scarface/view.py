"""The only way state and events leave the engine: what one viewer may see (section 3.4).

A viewer is a seat number, ``"spectator"`` or ``"staff"``. Hidden until the end: a seat's
money total (its own view and staff's only), hands (counts for others), deck orders (staff
only, not even the owner), jobs in hand and the cards offered by Take a job / Get a dealer
(their seat and staff), the shared decks' orders (staff), and the seed (nobody). Stand-in
content is marked ``reconstructed``.
"""

from __future__ import annotations

from typing import Any, Literal

from .codec import event_dict
from .content import BOSS_NAMES, GANG_NAMES
from .events import (
    CardKept,
    CardsBottomed,
    CardsDrawn,
    CardsOffered,
    DeckShuffled,
    GameEnded,
    GameStarted,
    JobCompleted,
    JobKept,
    JobsDealt,
    MarketChanged,
    NewsRevealed,
    PlanLaidOut,
    RaidStarted,
)
from .evolve import content_of
from .flow import zone
from .game_status import outcome
from .legal import legal_options, may_complete
from .position import seen_by
from .state import GameState

Viewer = int | Literal["spectator", "staff"]


def step_key(state: GameState) -> str:
    """``t<turn>:<step>`` (SR-75): skills, jobs and the order of one action phase keep it."""
    return f"t{state.turn}:{state.step}"


def sees_own(viewer: Viewer, seat: int, state: GameState) -> bool:
    return state.over or viewer == "staff" or viewer == seat


def _player(state: GameState, seat: int, viewer: Viewer) -> dict[str, Any]:
    p = state.players[seat]
    own = sees_own(viewer, seat, state)
    out: dict[str, Any] = {
        "seat": seat, "name": p.name, "gang": p.gang, "gang_name": GANG_NAMES[p.gang],
        "boss_name": BOSS_NAMES[p.gang], "in_game": p.in_game, "crime": p.crime,
        "zone": zone(p.crime), "boss": p.boss, "level": 1 + p.boss // 3,
        "hand_limit": p.hand_limit, "lawyer": p.lawyer, "recruiter": p.recruiter,
        "dealer_support": p.support, "columns": dict(zip(
            ("hand_limit", "lawyer", "recruiter", "dealer_support", "car_dealer", "nightclub"),
            p.columns, strict=True)),
        "hand_count": len(p.hand), "deck_count": len(p.deck), "jobs_count": len(p.jobs),
        "discard": list(p.discard), "plan": list(p.plan), "aside": list(p.aside),
        "done_jobs": list(p.done), "thugs": dict(p.thugs), "cars": list(p.cars),
        "trucks": list(p.trucks), "rows": [list(r) for r in p.rows],
        "dealer_goods": [{"dealer": s.dealer, "good": s.good, "n": s.n} for s in p.stored],
        "reorganizations": p.reorgs, "ring": state.ring == seat,
    }  # fmt: skip
    if own:
        out["hand"] = list(p.hand)
        out["jobs"] = list(p.jobs)
        out["money"] = p.money
    if viewer == "staff" or state.over:
        out["deck"] = list(p.deck)
    return out


def _tiles(state: GameState) -> list[dict[str, Any]]:
    tables = content_of(state)
    out = []
    for t in state.tiles:
        card = tables.tiles[t.id]
        out.append({
            "id": t.id, "name": card.name, "district": card.district, "defence": card.defence,
            "sale": [{"good": g, "n": n} for g, n in card.sale], "money": card.money,
            "owner": t.owner, "alcohol": t.alcohol, "gun": t.gun,
            "businesses": list(t.businesses), "nightclub": t.nightclub, "reconstructed": True,
        })  # fmt: skip
    return out


def view(state: GameState, viewer: Viewer, *, now: int | None = None) -> dict[str, Any]:
    tables = content_of(state)
    out: dict[str, Any] = {
        "game": "scarface",
        "viewer": viewer,
        "rules_version": state.rules_version,
        "content_version": state.content_version,
        "reconstructed": True,
        "started": state.started,
        "over": state.over,
        "turn": state.turn,
        "seat": state.seat,
        "kind": state.kind,
        "step": state.step,
        "step_key": step_key(state),
        "awaiting": [state.seat] if state.step and not state.over else [],
        "first_seat": state.first_seat,
        "players": [_player(state, s, viewer) for s in range(len(state.players))],
        "tiles": _tiles(state),
        "districts": [{"id": d.id, "name": d.name, "adjacent": list(d.adjacent)}
                      for d in tables.districts.values()],  # fmt: skip
        "police": list(state.police),
        "ness": state.ness,
        "time": state.time,
        "extra_space": tables.extra_space,
        "ring": state.ring,
        "news": state.news,
        "news_seen": list(state.news_seen),
        "news_left": len(state.news_deck),
        "market": {"low": list(state.market_low), "high": list(state.market_high),
                   "low_deck": len(state.low_deck), "high_deck": len(state.high_deck)},
        "decks": {"jobs": len(state.job_deck), "dealers": len(state.dealer_deck),
                  "raids": len(state.raid_deck), "raid_discard": list(state.raid_discard),
                  "job_discard": list(state.job_discard)},
        "businesses_left": dict(state.business_supply),
        "plan": {"muscle": state.muscle, "influence": state.influence,
                 "skills_used": list(state.skills_used), "boss_uses": state.boss_uses,
                 "order_used": state.order_used},
        "offered_count": len(state.offered),
        "seed_hash": state.seed_hash,
    }  # fmt: skip
    if state.offered and sees_own(viewer, state.seat, state):
        out["offered"] = list(state.offered)
    if viewer == "staff" or state.over:
        out["decks"] |= {
            "job_deck": list(state.job_deck),
            "dealer_deck": list(state.dealer_deck),
            "raid_deck": list(state.raid_deck),
            "news_deck": list(state.news_deck),
            "low_deck": list(state.low_deck),
            "high_deck": list(state.high_deck),
        }
    if state.over:
        out["seed"] = state.seed
        out["winners"] = list(state.winners)
        out["cash"] = list(state.cash)
        out["final_income"] = list(state.final_income)
        result = outcome(state)
        if result is not None:
            out["outcome"] = result.as_json()
    if isinstance(viewer, int) and not state.over and 0 <= viewer < len(state.players):
        out["legal"] = legal_options(state, viewer)
        out["may_complete"] = may_complete(state, viewer)  # its own jobs: its view only
    return out


# --- events -------------------------------------------------------------------------------


def _hidden_cards(data: dict[str, Any], key: str = "cards") -> dict[str, Any]:
    """The hidden field null; hidden cards with their ``count`` (the contract's
    ``Redaction``: nulled and counted)."""
    shown = dict(data)
    if key == "cards":
        shown["count"] = len(data[key])
    shown[key] = None
    return shown


def redact_event(event: Any, viewer: Viewer, *, revealed: bool = False) -> dict[str, Any]:
    data = event_dict(event)
    if revealed:
        return data
    if isinstance(event, GameStarted):
        shown = {k: v for k, v in data.items() if k not in ("seed", "salt", "stacked")}
        if event.position is not None:
            shown["position"] = seen_by(event.position, viewer)
        return shown
    if viewer == "staff":
        return data
    if isinstance(event, DeckShuffled):
        return _hidden_cards(data)  # nobody but staff sees a deck's order, its owner neither
    if isinstance(event, CardsDrawn | JobsDealt | CardsOffered | CardsBottomed):
        return data if viewer == event.seat else _hidden_cards(data)
    if isinstance(event, JobKept) and viewer != event.seat:
        return _hidden_cards(data, "card")
    return data


def reveals(event: Any) -> set[int] | Literal["all"]:
    """The seats ``event`` shows hidden information to (the undo boundary, SR-76)."""
    if isinstance(event, JobsDealt | CardsDrawn | CardsOffered):
        return {event.seat}
    if isinstance(event, PlanLaidOut | CardKept | MarketChanged | JobCompleted | RaidStarted
                  | NewsRevealed | GameEnded):  # fmt: skip
        return "all"
    return set()
