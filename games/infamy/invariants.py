"""Facts that hold in every reachable state; the simulator and property tests check them
(docs/rules-infamy.md "Invariants")."""

from __future__ import annotations

from collections import Counter

from .cards import (
    BRIBES,
    CONTACT_IDS,
    HAZARDS,
    JOB_IDS,
    SCHEME_IDS,
    SUPPLY,
    SUPPLY_SPACES,
    TOKENS,
    WATCHDOGS,
    WIN_REPUTATION,
)
from .state import GameState

_SCHEMES = sorted(SCHEME_IDS)


def violations(state: GameState, *, settled: bool = True) -> list[str]:
    """Every broken invariant of ``state``, in words (empty when all hold). ``settled``
    adds what holds once a command's events are all applied."""
    if not state.started:
        return []
    found: list[str] = []
    for p in state.players:
        total = p.available + p.spent + p.on_contacts
        if min(p.available, p.spent, p.on_contacts) < 0 or total != (0 if p.out else BRIBES):
            found.append(f"seat {p.seat} has {total} bribes ({p.available}/{p.spent}/"
                         f"{p.on_contacts})")  # fmt: skip
        if any(not 0 <= r <= WIN_REPUTATION for r in p.rep):
            found.append(f"seat {p.seat} has Reputation {p.rep}")
        if p.out and (p.hand or any(p.count(t) for t in TOKENS)):
            found.append(f"seat {p.seat} resigned but holds tokens or schemes")
    for i, what in enumerate(TOKENS):
        held = sum(p.count(what) for p in state.players)
        if state.supply[i] < 0 or held < 0 or state.supply[i] + held != SUPPLY[what]:
            found.append(f"{what}: supply {state.supply[i]} + held {held} != {SUPPLY[what]}")
    if len(state.watchdogs) > WATCHDOGS or not set(state.watchdogs) <= set(range(1, 7)):
        found.append(f"Watchdogs at {state.watchdogs}")
    if len(state.hazards) > HAZARDS or len(set(state.hazards)) != len(state.hazards):
        found.append(f"hazards at {state.hazards}")
    if any(h not in SUPPLY_SPACES for h in state.hazards):
        found.append("a hazard lies on a job space")
    spaces = [f.space for f in state.figures]
    if len(set(spaces)) != len(spaces):
        found.append("two figures share a space")
    if any(f.space in state.hazards for f in state.figures):
        found.append("a figure stands on a hazard")
    jobs = [*state.job_deck, *state.jobs, *(j for p in state.players for j in p.jobs)]
    if sorted(jobs) != sorted(JOB_IDS):
        found.append("jobs not each in one place")
    schemes = [c for pile in (*state.scheme_decks, *state.scheme_discards) for c in pile]
    schemes += [c for p in state.players for c in p.hand]
    schemes += [state.in_play] if state.in_play else []  # rules 2: resolving (I-8.1)
    if sorted(schemes) != _SCHEMES:
        doubled = [c for c, n in Counter(schemes).items() if n > 1]
        found.append(f"schemes not each in one place (doubled {doubled})")
    contacts = [*state.contact_deck, *state.track]
    if len(set(contacts)) != len(contacts) or not set(contacts) <= set(CONTACT_IDS):
        found.append("contacts doubled")
    if not settled:
        return found
    if state.in_play and state.step != "scheme":
        found.append("a scheme in play outside the scheme step")
    if state.over:
        if not state.winners:
            found.append("the game is over without a winner")
    else:
        if len(state.in_game()) < 2:
            found.append("fewer than two seats remain but the game is not over")
        if not state.step:
            found.append("the game waits on no step")
        if state.step != "sector" and (state.actor is None or state.players[state.actor].out):
            found.append(f"step {state.step} awaits no seat in the game")
        if state.step == "sector" and all(state.choices[s] for s in state.in_game()):
            found.append("every seat has chosen but the sectors are not revealed")
    return found
