"""What a seat may do now, for clients and bots: the uniform list of pending decisions."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from random import Random
from typing import Any

from .abilities import butcher_ready, cleaner_draws, unforgiving_choices
from .cards import ABILITY, CARD_KIND, KIND_INFO, Category, Kind
from .commands import (
    CloseWindow,
    Command,
    Counter,
    Draw,
    EndTurn,
    Pass,
    PlayCard,
    Resign,
    Unforgiving,
    UseButcher,
)
from .plays import PLAYS, mob_power_choices
from .state import GameState

# The commands that name their window (draw and end_turn answer the one pending decision).
_NAMES_WINDOW = frozenset({"counter", "pass", "close_window", "unforgiving"})


_LABELS = {
    "pass": "Pass: let the card take effect",
    "close_window": "Close the window: the card takes effect",
    "resign": "Resign: leave the game; your mobsters leave play",
    "draw": "Draw the cards still to draw this turn",
    "use_butcher": "Use BUTCHER: discard cards face up, then draw as many",
    "unforgiving": "Unforgiving: name a mobster to put on the Hit List (or none)",
    "end_turn": "End your turn",
}


@dataclass(frozen=True)
class Option:
    """One thing a seat may do: ``command`` is play, discard, counter, pass, close_window or
    resign (advanced rules: also draw, use_butcher, unforgiving, end_turn); ``choices`` says
    what the command must name (see docs/rules.md)."""

    command: str
    card: str | None = None
    kind: str | None = None
    window: str | None = None
    choices: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"command": self.command}
        for key in ("card", "kind", "window"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.choices:
            out["choices"] = self.choices
        out["send"], out["ready"] = self.send()
        out["label"] = self.label()
        return out

    def label(self) -> str:
        """What the option is and what it gives, for people (``Game.view``)."""
        info = KIND_INFO[Kind(self.kind)] if self.kind is not None else None
        if info is not None and self.command == "play":
            return f"Play {info.name}: {info.text}"
        if info is not None and self.command == "discard":
            return f"Discard {info.name}: no effect, the card is gone"
        if info is not None and self.command == "counter":
            return f"Counter with {info.name}: {info.text}"
        return _LABELS.get(self.command, self.command.replace("_", " ").capitalize())

    def send(self) -> tuple[dict[str, Any], bool]:
        """The option as a command a client can send (``codec.decode_command``'s form),
        and whether it is accepted as it is: false when ``choices`` names something the
        command must still be given (targets, a player, MOB POWER's mobster, cards)."""
        command = "play" if self.command == "discard" else self.command
        out: dict[str, Any] = {"type": command}
        if self.window is not None and command in _NAMES_WINDOW:
            out["window"] = self.window
        if self.card is not None:
            out["card"] = self.card
        if self.command == "discard":
            out["discard"] = True
        ready = True
        if command == "play":
            ready = not self.choices
        elif command == "counter":
            ready = "mobster" not in self.choices
        elif command == "unforgiving":
            out["mobster"] = None  # allowed: no effect; choices lists the mobsters
        elif command == "use_butcher":
            out["cards"], ready = [], False
        return out, ready


def awaiting(state: GameState) -> tuple[int, ...]:
    """The seats whose decision the game is waiting for."""
    if state.over or not state.started:
        return ()
    if state.window is not None:
        return state.window.waiting_on
    return (state.turn_seat,)


def legal_commands(
    state: GameState, seat: int | None, *, now: int | None = None
) -> tuple[Option, ...]:
    """Everything ``seat`` may do now (``None``: the system; ``now`` lets it close a window
    only once its deadline has passed)."""
    if state.over or not state.started:
        return ()
    window = state.window
    if seat is None:
        if window is not None and (now is None or now >= window.deadline):
            return (Option("close_window", window=window.id),)
        return ()
    if not 0 <= seat < len(state.players) or state.players[seat].out:
        return ()
    options: list[Option] = []
    hand = state.players[seat].hand
    if window is not None and window.decision:
        due = now is not None and now >= window.deadline
        if seat == window.seat and not due:
            options.extend(_decision_options(state, seat))
    elif window is not None:
        due = now is not None and now >= window.deadline  # late reactions are refused
        if seat in window.waiting_on and not due:
            for card in hand:
                kind = CARD_KIND[card]
                if kind in window.counters:
                    choices: dict[str, Any] = {}
                    if kind is Kind.MOB_POWER and mob_power_choices(state, window.seat):
                        choices = {"mobster": list(mob_power_choices(state, window.seat))}
                    options.append(Option("counter", card, kind, window.id, choices))
            options.append(Option("pass", window=window.id))
    elif seat == state.turn_seat:
        for card in hand:
            kind = CARD_KIND[card]
            if KIND_INFO[kind].category is not Category.COUNTER:
                choices_or_none = PLAYS[kind].options(state, seat)
                if choices_or_none is not None:
                    options.append(Option("play", card, kind, choices=choices_or_none))
            options.append(Option("discard", card, kind))
        if state.advanced and butcher_ready(state, seat) is not None and hand:
            options.append(_butcher_option(state, seat))
    options.append(Option("resign"))
    return tuple(options)


def timeout_discard(state: GameState, seat: int) -> str | None:
    """The card a turn that ran out of time discards for ``seat`` (with no effect): the
    first card in hand that is not a counter, so the policy never throws away a counter
    while another card could go; a counter only when the hand holds nothing else. ``None``
    when ``seat`` has no card play to make now (not its turn, a window open, no cards)."""
    cards = [o.card for o in legal_commands(state, seat) if o.command == "discard" and o.card]
    others = [c for c in cards if KIND_INFO[CARD_KIND[c]].category is not Category.COUNTER]
    pick = others or cards
    return pick[0] if pick else None


def _butcher_option(state: GameState, seat: int) -> Option:
    hand = list(state.players[seat].hand)
    return Option("use_butcher", choices={"cards": {"min": 1, "max": len(hand), "from": hand}})


def _decision_options(state: GameState, seat: int) -> list[Option]:
    """A pending decision's options (advanced rules)."""
    window = state.window
    assert window is not None
    options: list[Option] = []
    if window.decision == "draw":
        per_card = window.count > 0 and cleaner_draws(state, seat) is not None
        sources = ["deck", "discard"] if per_card else ["deck"]
        options.append(Option("draw", window=window.id, choices={"source": sources}))
        if butcher_ready(state, seat) is not None and state.players[seat].hand:
            options.append(_butcher_option(state, seat))
    elif window.decision == "unforgiving":
        choices = {"mobster": unforgiving_choices(state), "none_allowed": True}
        options.append(Option("unforgiving", window=window.id, choices=choices))
    elif window.decision == "short_tempered":
        for card in state.players[seat].hand:
            kind = CARD_KIND[card]
            if KIND_INFO[kind].category is ABILITY.short_tempered_category:
                choices_or_none = PLAYS[kind].options(state, seat)
                if choices_or_none is not None:
                    options.append(Option("play", card, kind, choices=choices_or_none))
        options.append(Option("end_turn", window=window.id))
    return options


def sample_command(
    state: GameState, seat: int, rng: Random, option: Option | None = None
) -> Command:
    """A random legal command for ``seat`` (or the concrete form of ``option``)."""
    if option is None:
        choices = [o for o in legal_commands(state, seat) if o.command != "resign"]
        option = rng.choice(choices)
    return concretize(state, seat, option, rng)


def concretize(state: GameState, seat: int, option: Option, rng: Random) -> Command:
    """Fill in an option's choices at random."""
    if option.command == "play":
        assert option.card is not None and option.kind is not None
        return replace(PLAYS[Kind(option.kind)].sample(state, seat, rng), card=option.card)
    if option.command == "discard":
        assert option.card is not None
        return PlayCard(option.card, discard=True)
    if option.command == "counter":
        assert option.card is not None and option.window is not None
        mobsters = option.choices.get("mobster")
        return Counter(option.window, option.card, rng.choice(mobsters) if mobsters else None)
    if option.command == "pass":
        assert option.window is not None
        return Pass(option.window)
    if option.command == "close_window":
        assert option.window is not None
        return CloseWindow(option.window)
    if option.command == "draw":
        return Draw(rng.choice(option.choices["source"]))
    if option.command == "use_butcher":
        hand = option.choices["cards"]["from"]
        return UseButcher(tuple(sorted(rng.sample(hand, rng.randint(1, len(hand))))))
    if option.command == "unforgiving":
        assert option.window is not None
        mobsters = option.choices["mobster"]
        pick = rng.choice([*mobsters, None]) if mobsters else None
        return Unforgiving(option.window, pick)
    if option.command == "end_turn":
        return EndTurn()
    return Resign()
