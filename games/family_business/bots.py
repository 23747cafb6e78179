"""Bots: a random legal-move bot and a heuristic bot. Both are deterministic given the
``Random`` they are handed; ``decision_rng`` derives one per decision from a bot seed, so a
stateless server makes the same choice on a retry."""

from __future__ import annotations

from random import Random
from typing import Protocol

from .cards import ABILITIES, CARD_KIND, CONTRACTS, KIND_INFO, MOBSTER_FAMILY, Category, Kind
from .commands import Command, Draw, EndTurn, Pass, PlayCard, Resign, Unforgiving, UseButcher
from .legal import Option, concretize, legal_commands
from .plays import PLAYS, opponent_crews
from .state import GameState


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, seat: int, rng: Random) -> Command | None:
        """The bot's command, or None to let a reaction window run to its deadline."""


def decision_rng(bot_seed: str, state: GameState, seat: int) -> Random:
    """A generator fixed by the bot's seed and the decision point, not by call history."""
    point = (state.turn, state.windows_opened, len(state.discard), len(state.deck), seat)
    return Random(f"{bot_seed}:{point}")


class RandomBot:
    """Any legal command, uniformly: counters half the time it can; sometimes lets a window
    run out; resigns with a small probability (so games exercise resigning too)."""

    name = "random"

    def __init__(self, silence: float = 0.1, resign: float = 0.0) -> None:
        self.silence = silence
        self.resign = resign

    def choose(self, state: GameState, seat: int, rng: Random) -> Command | None:
        options = [o for o in legal_commands(state, seat) if o.command != "resign"]
        if not options:
            return None
        if self.resign and rng.random() < self.resign:
            return Resign()
        if state.window is not None and state.window.decision:
            # Advanced rules: any option of the pending decision, or let its deadline pass.
            if rng.random() < self.silence:
                return None
            return concretize(state, seat, rng.choice(options), rng)
        if state.window is not None:
            if rng.random() < self.silence:
                return None
            counters = [o for o in options if o.command == "counter"]
            if counters and rng.random() < 0.5:
                return concretize(state, seat, rng.choice(counters), rng)
            return Pass(state.window.id)
        plays = [o for o in options if o.command == "play"]
        pool = plays if plays and rng.random() < 0.8 else options
        return concretize(state, seat, rng.choice(pool), rng)


# How much a heuristic player values keeping a card (higher: discard it last).
_KEEP: dict[Category, int] = {
    Category.ABILITY: 4,
    Category.COUNTER: 3,
    Category.RESCUE: 2,
    Category.ATTACK: 1,
}


class HeuristicBot:
    """Attacks the leader, counters contracts against itself, rescues its own mobsters."""

    name = "heuristic"

    def choose(self, state: GameState, seat: int, rng: Random) -> Command | None:
        options = legal_commands(state, seat)
        if not options:
            return None
        if state.window is not None and state.window.decision:
            return self._decide(state, seat, options, rng)
        if state.window is not None:
            return self._react(state, seat, options, rng)
        return self._play(state, seat, options, rng)

    # --- advanced rules: pending decisions ----------------------------------------------

    def _decide(
        self, state: GameState, seat: int, options: tuple[Option, ...], rng: Random
    ) -> Command:
        window = state.window
        assert window is not None
        by_command = {o.command: o for o in options}
        hand = state.players[seat].hand
        if window.decision == "draw":
            if "use_butcher" in by_command:
                junk = tuple(
                    c
                    for c in hand
                    if KIND_INFO[CARD_KIND[c]].category is Category.ATTACK
                    and PLAYS[CARD_KIND[c]].options(state, seat) is None
                )
                if len(junk) >= 2:
                    return UseButcher(junk)
            sources = by_command["draw"].choices["source"]
            if "discard" in sources and _keep(state.discard[-1]) >= 2:
                return Draw("discard")
            return Draw("deck")
        if window.decision == "unforgiving":
            choices = by_command["unforgiving"].choices["mobster"]
            leader = _leader(state, seat)
            theirs = [m for m in choices if state.owner(m) != seat]
            best = [m for m in theirs if state.owner(m) == leader] or theirs
            return Unforgiving(window.id, best[0] if best else None)
        # SHORT-TEMPERED: one more ATTACK card if the usual choice is one, else end the turn.
        command = self._play(state, seat, options, rng)
        if isinstance(command, PlayCard) and not command.discard:
            return command
        return EndTurn()

    # --- reacting ---------------------------------------------------------------------

    def _react(
        self, state: GameState, seat: int, options: tuple[Option, ...], rng: Random
    ) -> Command:
        window = state.window
        assert window is not None
        mine = state.players[seat].family
        threatened = [m for m in window.targets if MOBSTER_FAMILY[m] == mine]
        counters = {o.kind: o for o in options if o.command == "counter"}
        kind = Kind(window.kind)
        wanted: list[Kind] = []
        if threatened and (kind in CONTRACTS or kind is Kind.DOUBLE_CONTRACT):
            first_is_mine = MOBSTER_FAMILY[window.targets[0]] == mine
            if first_is_mine:
                wanted = [Kind.MOB_POWER, Kind.FAMILY_INFLUENCE]
        elif threatened and kind is Kind.VENDETTA:
            wanted = [Kind.SAFE_HOUSE]
        elif kind is Kind.TAKE_IT_ON_THE_LAM and not threatened:
            rescued = window.targets[0]
            if state.owner(rescued) == _leader(state, seat):
                wanted = [Kind.FINGER]
        for k in wanted:
            if k in counters:
                return concretize(state, seat, counters[k], rng)
        return Pass(window.id)

    # --- playing ----------------------------------------------------------------------

    def _play(
        self, state: GameState, seat: int, options: tuple[Option, ...], rng: Random
    ) -> Command:
        plays = {o.card: o for o in options if o.command == "play"}
        by_kind: dict[Kind, str] = {}
        for card in state.players[seat].hand:
            if card in plays:
                by_kind.setdefault(CARD_KIND[card], card)
        mine = state.players[seat].family
        listed_mine = [m for m in state.hit_list if MOBSTER_FAMILY[m] == mine]
        listed_theirs = [m for m in state.hit_list if MOBSTER_FAMILY[m] != mine]
        leader = _leader(state, seat)
        danger = listed_mine and (
            state.mob_war
            and listed_mine[0] in state.hit_list[: state.mob_war + 1]
            or len(listed_mine) >= 2
        )

        def play(kind: Kind, **kw: object) -> Command:
            return PlayCard(by_kind[kind], **kw)  # type: ignore[arg-type]

        if danger:
            front = listed_mine[0]
            for kind in (Kind.POLICE_PROTECTION, Kind.TAKE_IT_ON_THE_LAM):
                if kind in by_kind:
                    return play(kind, targets=(front,))
            if Kind.PAY_OFF in by_kind:
                return play(Kind.PAY_OFF, player=seat)
            if Kind.FEDERAL_CRACKDOWN in by_kind and len(listed_mine) >= len(listed_theirs):
                return play(Kind.FEDERAL_CRACKDOWN)
            if Kind.INTRIGUE in by_kind and listed_theirs:
                return play(Kind.INTRIGUE, targets=tuple(listed_theirs + listed_mine))
            if Kind.TRUCE in by_kind and state.mob_war and state.hit_list[0] in listed_mine:
                return play(Kind.TRUCE)
        if Kind.MASSACRE in by_kind and len(listed_theirs) > len(listed_mine):
            return play(Kind.MASSACRE)
        if (
            not state.mob_war
            and len(listed_theirs) > len(listed_mine)
            and (Kind.AMBUSH in by_kind or Kind.MOB_WAR in by_kind)
        ):
            return play(Kind.AMBUSH if Kind.AMBUSH in by_kind else Kind.MOB_WAR)
        leader_crew = state.players[leader].crew if leader is not None else ()
        abilities = [
            c for c in state.players[seat].hand if c in plays and CARD_KIND[c] in ABILITIES
        ]
        if abilities:  # advanced rules: abilities go under a mobster in front, back first
            mobsters = plays[abilities[0]].choices["targets"]["mobsters"]
            return PlayCard(abilities[0], targets=(mobsters[-1],))
        if leader_crew:
            for kind in (
                Kind.CONTRACT_NO_COUNTER,
                Kind.PRIORITY_CONTRACT,
                Kind.CONTRACT_NO_FI,
                Kind.CONTRACT_NO_MP,
                Kind.CONTRACT,
            ):
                if kind in by_kind:
                    targets = plays[by_kind[kind]].choices["targets"]
                    allowed = [m for m in leader_crew if m in targets["mobsters"]]
                    if not allowed:  # DOPPELGANGER
                        continue
                    target = rng.choice(allowed)
                    if targets.get("max") == 2:  # SHOTGUN: a second one of the same family
                        more = [m for m in allowed if m != target]
                        if more:
                            return play(kind, targets=(target, more[0]))
                    return play(kind, targets=(target,))
            if Kind.DOUBLE_CONTRACT in by_kind:
                pair = (
                    (leader_crew[0], leader_crew[0])
                    if len(leader_crew) == 1
                    else tuple(rng.sample(list(leader_crew), 2))
                )
                return play(Kind.DOUBLE_CONTRACT, targets=pair)
            if Kind.HIT in by_kind:
                own = [m for m in state.players[seat].crew]
                return play(Kind.HIT, targets=(leader_crew[0],), own=own[0] if own else None)
        for kind in (Kind.VENDETTA, Kind.DOUBLE_CROSS):
            if kind in by_kind:
                cmd = PLAYS[kind].sample(state, seat, rng)
                return PlayCard(by_kind[kind], targets=cmd.targets)
        if Kind.TURNCOAT in by_kind:
            cmd = PLAYS[Kind.TURNCOAT].sample(state, seat, rng)
            if state.owner(cmd.targets[1]) == seat or state.owner(cmd.targets[0]) == leader:
                return PlayCard(by_kind[Kind.TURNCOAT], targets=cmd.targets)
        if listed_mine and Kind.SUBSTITUTION in by_kind and leader_crew:
            return play(Kind.SUBSTITUTION, targets=(listed_mine[0], leader_crew[0]))
        return self._discard(state, seat)

    def _discard(self, state: GameState, seat: int) -> Command:
        hand = state.players[seat].hand
        card = min(hand, key=lambda c: (_KEEP[KIND_INFO[CARD_KIND[c]].category], c))
        return PlayCard(card, discard=True)


def _keep(card: str) -> int:
    return _KEEP[KIND_INFO[CARD_KIND[card]].category]


def _leader(state: GameState, seat: int) -> int | None:
    """The opponent with the most mobsters in play (the next one clockwise on a tie)."""
    crews = opponent_crews(state, seat)
    if not crews:
        return None
    n = len(state.players)
    return max(crews, key=lambda s: (state.in_play_count(s), -((s - seat) % n)))


BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
