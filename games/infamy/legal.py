"""What a seat may do now, for clients and bots: every legal concrete command, grouped into
options by command type."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from typing import Any

from . import labels
from .cards import (
    BOARD,
    FACTIONS,
    INFORMANT,
    JOBS,
    LIAISON,
    NON_FACTION_SPACES,
    PEDDLER,
    RESOURCES,
    SABOTEUR,
    SCHEMES,
    SECTOR_CHIEF,
    THUG,
)
from .commands import (
    Bid,
    ChooseSector,
    Command,
    Discard,
    Forgo,
    MoveWatchdog,
    Pass,
    Place,
    PlayScheme,
    RemoveWatchdog,
    Reward,
    ThugResponse,
    UseFavor,
)
from .errors import RuleViolation
from .flow import can_favor, legal_spaces, may_forgo, payable, pending_figures, phase
from .rules import awaiting, decide
from .schemes import scheme_rule
from .state import GameState


@dataclass(frozen=True)
class Option:
    """One kind of thing a seat may do: ``command`` is the JSON type, ``variants`` every
    legal form of it (the command's other fields)."""

    command: str
    variants: tuple[dict[str, Any], ...] = ()
    label: str = ""  # what it is and gives, for people (``labels``)
    variant_labels: tuple[str, ...] = ()  # one per variant, when there are several

    def as_dict(self) -> dict[str, Any]:
        """As the view lists it (docs/api.md, legal options): ``send``, a command ready to
        send, and, when there is more than one form, ``variants``: every legal form, each
        a whole command (with its ``type``), so any of them is sent as it is."""
        forms = [{"type": self.command, **v} for v in self.variants] or [{"type": self.command}]
        out: dict[str, Any] = {"command": self.command, "send": forms[0], "ready": True}
        if forms != [{"type": self.command}]:
            out["variants"] = forms
            if self.variant_labels:
                out["variant_labels"] = list(self.variant_labels)
        out["label"] = self.label or labels.COMMANDS.get(self.command, self.command)
        return out


def _moves(state: GameState) -> list[tuple[int, int]]:
    return [(a, b) for a in sorted(set(state.watchdogs)) for b in BOARD if b != a]


def legal_sectors(state: GameState, seat: int) -> list[int]:
    return [s for s in BOARD if s not in state.watchdogs or state.chief == seat]


def _drawable(state: GameState) -> list[str]:
    return [f for f in FACTIONS if state.can_draw(f)]


def _job_variants(state: GameState, job: str) -> list[dict[str, Any]]:
    reward = JOBS[job].reward
    if reward == "draw":
        return [{"deck": f} for f in _drawable(state)] or [{}]
    if reward == "remove_hazard":
        return [{"hazard": h} for h in state.hazards] or [{}]
    if reward == "sabotage":
        return [{"sabotage": None}] + [{"sabotage": j} for j in state.jobs if j != job]
    if reward == "hazard":
        free = state.free_supply_spaces() if state.hazards_left() else ()
        return [{"hazard": sp} for sp in free] or [{}]
    if reward == "move_watchdog":
        return [{"from": a, "to": b} for a, b in _moves(state)]
    return [{}]


def _scheme_values(state: GameState, seat: int, card: str, key: str) -> list[Any]:
    design = SCHEMES[card]
    rivals = [r for r in state.in_game() if r != seat]
    if key == "rival":
        return rivals
    if key == "resource":
        return ["weapon", "compound"] if design.faction == "pkd" else list(RESOURCES)
    if key == "space":
        if design.name in ("Cut the Supply", "Bombing"):
            free = state.free_supply_spaces() if state.hazards_left() else ()
            return list(free) or [None]
        return [None, *state.hazards] if design.name == "Cut the Lines" else (
            list(state.hazards) or [None])  # fmt: skip
    if key == "jobs":
        singles: list[Any] = [[j] for j in state.jobs]
        if design.name == "Audit":
            pairs = [[a, b] for a in state.jobs for b in state.jobs if a != b]
            return [[], *singles, *pairs]
        return [[], *singles]
    if key == "decks":
        able = _drawable(state) or ["harada"]
        return [list(c) for c in combinations_with_replacement(able, 2)]
    if key == "deck":
        return _drawable(state) or [None]
    raise KeyError(key)  # pragma: no cover


def _scheme_variants(state: GameState, seat: int, card: str) -> list[dict[str, Any]]:
    rule = scheme_rule(state, card)
    keys = [k for k in rule.keys if k not in ("from", "to", "give", "take")]
    base = [dict(zip(keys, values, strict=True)) for values in
            product(*(_scheme_values(state, seat, card, k) for k in keys))]  # fmt: skip
    if "from" in rule.keys:
        return [{"from": a, "to": b} for a, b in _moves(state)]
    if "give" in rule.keys:
        out: list[dict[str, Any]] = []
        for n in (0, 1, 2):
            for give in combinations_with_replacement(RESOURCES, n):
                for take in combinations_with_replacement(RESOURCES, n):
                    if set(give) & set(take):
                        continue  # swapping a type for itself changes nothing
                    out.append({"give": list(give), "take": list(take)})
        return out
    return base


def _raw(state: GameState, seat: int) -> list[Command]:
    step = phase(state)
    p = state.players[seat]
    out: list[Command] = []
    if step == "watchdog":
        out.extend(MoveWatchdog(a, b) for a, b in _moves(state))
    elif step == "auction":
        a = state.auction
        assert a is not None
        out.append(Pass())
        if can_favor(state, seat):
            out.append(UseFavor())
        high = a.bids[a.high] if a.high is not None else 0
        own = a.bids[seat]
        out.extend(Bid(t) for t in range(max(1, high + 1, own + 1), own + p.available))
    elif step == "reward":
        contact = state.track[len(state.results) - 1]
        if contact == LIAISON:
            out.append(Reward(choice="infamy"))
            out.extend(Reward(choice="rep", faction=f) for f in FACTIONS)
        elif contact == PEDDLER:
            out.extend(Reward(resource=r) for r in RESOURCES)
        elif contact == INFORMANT:
            out.extend(Reward(deck=f) for f in FACTIONS)
        elif contact == SABOTEUR:
            spaces = [None, *(s for s in NON_FACTION_SPACES)]
            out.extend(Reward(job=j, hazard=h) for j in [None, *state.jobs] for h in spaces)
        elif contact == SECTOR_CHIEF:
            out.extend(Reward(sector=s) for s in BOARD)
        elif contact == THUG:
            out.append(Reward())
            rivals = [r for r in state.in_game() if r != seat]
            out.extend(Reward(rival=r, resource=x) for r in rivals for x in RESOURCES)
    elif step in ("discard", "scheme_discard"):
        out.extend(Discard(c) for c in dict.fromkeys(p.hand))
    elif step == "thug_response":
        out.extend((ThugResponse(False), ThugResponse(True)))
    elif step == "sector":
        sectors = legal_sectors(state, seat)
        if state.accomplice == seat:
            out.extend(ChooseSector(a, b) for a in sectors for b in sectors)
        else:
            out.extend(ChooseSector(a) for a in sectors)
    elif step == "place":
        for figure in pending_figures(state, seat):
            for space in legal_spaces(state, seat, figure):
                sector, kind = int(space[0]), space[2:]
                if kind != "job":
                    out.append(Place(figure, kind))
                    continue
                for job in state.jobs:
                    if JOBS[job].sector != sector or not payable(state, seat, job):
                        continue
                    factions: list[str | None] = list(JOBS[job].factions)
                    for faction in factions:
                        for choices in _job_variants(state, job):
                            out.append(Place(figure, "job", job, faction, choices))
            if may_forgo(state, seat):
                decks = _drawable(state) or ["harada"]
                out.extend(Forgo(figure, r, d) for r in RESOURCES for d in decks)
    elif step == "scheme":
        out.append(Pass())
        for card in dict.fromkeys(p.hand):
            out.extend(PlayScheme(card, c) for c in _scheme_variants(state, seat, card))
    elif step == "chief_remove":
        out.extend(RemoveWatchdog(s) for s in sorted(set(state.watchdogs)))
    return out


def between_steps(state: GameState) -> bool:
    """Whether the step's subject is gone (the auction won, the Thug answered) and the next
    step not yet started: a replay stopped between two events of one command. Nothing is
    legal there (its step is the one that just ended)."""
    return (state.step == "auction" and state.auction is None) or (
        state.step == "thug_response" and state.thug is None
    )


def candidates(state: GameState, seat: int) -> list[Command]:
    """Every legal concrete command of ``seat`` now (resigning aside). The sealed sector
    choice is checked without folding (a bot's observation hides the others' cards); the
    rest are checked by ``decide`` itself, so this list never disagrees with it."""
    if seat not in awaiting(state) or between_steps(state):
        return []
    raw = _raw(state, seat)
    if state.step == "sector":
        return raw
    out = []
    for command in raw:
        try:
            decide(state, seat, command)
        except RuleViolation:
            continue
        out.append(command)
    return out


def legal_commands(
    state: GameState, seat: int | None, *, now: int | None = None
) -> tuple[Option, ...]:
    """Everything ``seat`` may do now, grouped by command (``None``: the system, which may
    play a step's timeout once its deadline has passed)."""
    from .codec import encode_command

    if state.over or not state.started:
        return ()
    if seat is None:
        due = state.deadline is not None and now is not None and now >= state.deadline
        return (Option("timeout"),) if due and awaiting(state) else ()
    if not 0 <= seat < len(state.players) or state.players[seat].out:
        return ()
    grouped: dict[str, list[dict[str, Any]]] = {}
    for command in candidates(state, seat):
        data = encode_command(command)
        name = data.pop("type")
        grouped.setdefault(name, []).append(data)
    options = []
    for name, variants in grouped.items():
        forms = [{"type": name, **v} for v in variants]
        options.append(
            Option(
                name,
                tuple(variants),
                labels.option(state, seat, name, forms),
                tuple(labels.variant(state, seat, f) for f in forms),
            )
        )
    options.append(Option("resign", label=labels.COMMANDS["resign"]))
    return tuple(options)
