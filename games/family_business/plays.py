"""What each card does: its targets (options and validation) and its effect.

One ``PlayRule`` per card kind, in a registry, so a corrected card text changes one class.
``options`` describes what a player must name (``None``: the card can only be discarded),
``validate`` refuses a bad choice, ``sample`` picks a random legal choice for bots and
property tests, and ``resolve`` emits the effect once any counter is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from .abilities import assignable, holder, shielded
from .cards import ABILITIES, ABILITY, CONTRACTS, MOBSTER_FAMILY, Kind
from .commands import PlayCard
from .errors import RuleViolation
from .events import (
    AbilityUsed,
    CardPlayed,
    CounterPlayed,
    HitListReordered,
    MobsterEliminated,
    MobsterRescued,
    MobsterReturned,
    MobsterSubstituted,
    MobWarEnded,
    MobWarRateChanged,
    MobWarStarted,
)
from .flow import Builder, list_mobster, unforgiving_at_once
from .state import GameState

Options = dict[str, Any]


def _illegal(message: str, **data: Any) -> RuleViolation:
    return RuleViolation("illegal_target", message, **data)


def opponent_crews(state: GameState, seat: int) -> dict[int, tuple[str, ...]]:
    """Mobsters in front of each opponent still in the game (the ones cards can list)."""
    return {p.seat: p.crew for p in state.players if p.seat != seat and not p.out}


def _need_targets(cmd: PlayCard, count: int | None = None) -> None:
    if not cmd.targets:
        raise RuleViolation("missing_target", "Name the card's targets, or discard it.")
    if count is not None and len(cmd.targets) != count:
        raise _illegal(f"This card takes exactly {count} target(s).", expected=count)


def _rescue(b: Builder, mobster: str) -> None:
    if mobster in b.state.hit_list:
        b.emit(MobsterRescued(mobster))


class PlayRule:
    # The command fields this card reads; naming any other is refused as malformed.
    uses: frozenset[str] = frozenset({"targets"})

    def options(self, state: GameState, seat: int) -> Options | None:
        return {}

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        pass

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        raise NotImplementedError

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        raise NotImplementedError


class NoTarget(PlayRule):
    uses: frozenset[str] = frozenset()

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        return PlayCard(card="")


class Contract(PlayRule):
    """CONTRACT (all variants) and PRIORITY CONTRACT: one opponent's mobster.

    Advanced rules: DOPPELGANGER mobsters cannot be named; a SHOTGUN owner may name a
    second mobster of the same opponent (counters affect only the first); EARLY BIRD puts
    the target first, like PRIORITY CONTRACT."""

    def __init__(self, kind: Kind, first: bool) -> None:
        self.kind = kind
        self.first = first

    def _targets(self, state: GameState, seat: int) -> list[str]:
        mobsters = [m for crew in opponent_crews(state, seat).values() for m in crew]
        if state.abilities:
            mobsters = [m for m in mobsters if not shielded(state, m, self.kind)]
        return mobsters

    def _shotgun(self, state: GameState, seat: int) -> bool:
        return self.kind in ABILITY.shotgun_cards and holder(state, seat, Kind.SHOTGUN) is not None

    def options(self, state: GameState, seat: int) -> Options | None:
        mobsters = self._targets(state, seat)
        if not mobsters:
            return None
        if self._shotgun(state, seat):
            return {"targets": {"count": 1, "max": 2, "same_player": True, "mobsters": mobsters}}
        return {"targets": {"count": 1, "mobsters": mobsters}}

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        if self._shotgun(state, seat) and len(cmd.targets) == 2:
            first, second = cmd.targets
            allowed = self._targets(state, seat)
            if first not in allowed or second not in allowed:
                raise _illegal(
                    "The targets must be opponents' mobsters in front of them.",
                    mobsters=list(cmd.targets),
                )
            if first == second or state.owner(first) != state.owner(second):
                raise _illegal(
                    "SHOTGUN's second target is another mobster of the same opponent.",
                    mobsters=list(cmd.targets),
                )
            return
        _need_targets(cmd, 1)
        target = cmd.targets[0]
        if not any(target in crew for crew in opponent_crews(state, seat).values()):
            raise _illegal(
                "The target must be an opponent's mobster in front of them.", mobster=target
            )
        if state.abilities and shielded(state, target, self.kind):
            raise _illegal(
                "DOPPELGANGER: this mobster cannot be the target of this card.", mobster=target
            )

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        opts = self.options(state, seat)
        assert opts is not None
        target = rng.choice(opts["targets"]["mobsters"])
        if self._shotgun(state, seat):
            owner = state.owner(target)
            more = [
                m for m in opts["targets"]["mobsters"] if m != target and state.owner(m) == owner
            ]
            if more and rng.random() < 0.7:
                return PlayCard(card="", targets=(target, rng.choice(more)))
        return PlayCard(card="", targets=(target,))

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        early = (
            not self.first
            and self.kind in ABILITY.early_bird_cards
            and holder(b.state, play.seat, Kind.EARLY_BIRD)
        )
        front = self.first or bool(early)
        listed = False
        if counter is None:
            listed = list_mobster(b, play.targets[0], front)
        elif counter.kind == Kind.MOB_POWER and counter.mobster is not None:
            listed = list_mobster(b, counter.mobster, front)
        if early and listed:
            b.emit(AbilityUsed(play.seat, early, Kind.EARLY_BIRD, "first"))
        if len(play.targets) > 1:
            # SHOTGUN: the second target; with PRIORITY/EARLY BIRD it takes the place behind
            # the first, or the very front if a counter saved the first.
            position = (1 if listed else 0) if front else None
            if list_mobster(b, play.targets[1], position=position):
                shotgun = holder(b.state, play.seat, Kind.SHOTGUN)
                b.emit(AbilityUsed(play.seat, shotgun or "", Kind.SHOTGUN, play.targets[1]))


class DoubleContract(PlayRule):
    """Two mobsters of one opponent (one named twice if it is their last in front)."""

    def options(self, state: GameState, seat: int) -> Options | None:
        players = {s: list(c) for s, c in opponent_crews(state, seat).items() if c}
        return {"targets": {"count": 2, "one_player": players}} if players else None

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        _need_targets(cmd, 2)
        first, second = cmd.targets
        crews = opponent_crews(state, seat)
        owner = next((s for s, crew in crews.items() if first in crew), None)
        if owner is None or second not in crews[owner]:
            raise _illegal(
                "Both targets must be mobsters in front of the same opponent.",
                mobsters=list(cmd.targets),
            )
        if len(crews[owner]) > 1 and first == second:
            raise _illegal("Name two different mobsters; only a last one is named twice.")

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        crews = [c for c in opponent_crews(state, seat).values() if c]
        crew = rng.choice(crews)
        pair = (crew[0], crew[0]) if len(crew) == 1 else tuple(rng.sample(crew, 2))
        return PlayCard(card="", targets=pair)

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        first, second = play.targets
        if counter is None:
            list_mobster(b, first)
        elif counter.kind == Kind.MOB_POWER and counter.mobster is not None:
            list_mobster(b, counter.mobster)
        list_mobster(b, second)


class Hit(PlayRule):
    """Eliminate any mobster in play, then list one of your own from in front of you."""

    uses = frozenset({"targets", "own"})

    def options(self, state: GameState, seat: int) -> Options | None:
        return {
            "targets": {"count": 1, "mobsters": list(state.mobsters_in_play())},
            "own": {"mobsters": list(state.players[seat].crew), "after_removing_target": True},
        }

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        _need_targets(cmd, 1)
        victim = cmd.targets[0]
        if victim not in state.mobsters_in_play():
            raise _illegal("HIT's target must be a mobster in play.", mobster=victim)
        own_left = [m for m in state.players[seat].crew if m != victim]
        if own_left and cmd.own not in own_left:
            raise _illegal(
                "Name one of your own mobsters in front of you to put on the Hit List.",
                own=cmd.own,
                choices=own_left,
            )
        if not own_left and cmd.own is not None:
            raise _illegal(
                "You have no mobster left in front of you to put on the Hit List.", own=cmd.own
            )

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        victim = rng.choice(state.mobsters_in_play())
        own_left = [m for m in state.players[seat].crew if m != victim]
        return PlayCard(card="", targets=(victim,), own=rng.choice(own_left) if own_left else None)

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        b.emit(MobsterEliminated(play.targets[0], "hit"))
        # UNFORGIVING acts at once: its pick goes on the list before the HIT player's own.
        if unforgiving_at_once(b, f"hit:{play.seat}:{play.own or ''}"):
            return
        if play.own is not None:
            list_mobster(b, play.own)


class Massacre(NoTarget):
    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        for mobster in b.state.hit_list:
            b.emit(MobsterEliminated(mobster, "massacre"))


class EachOpponent(PlayRule):
    """DOUBLE CROSS (one of each opponent) and VENDETTA (two of each), in a chosen order."""

    def __init__(self, per_player: int, war: bool) -> None:
        self.per_player = per_player
        self.war = war

    def _required(self, state: GameState, seat: int) -> dict[int, tuple[int, tuple[str, ...]]]:
        return {
            s: (min(self.per_player, len(crew)), crew)
            for s, crew in opponent_crews(state, seat).items()
        }

    def options(self, state: GameState, seat: int) -> Options | None:
        required = self._required(state, seat)
        if not any(n for n, _ in required.values()):
            return None
        per_player = {s: {"count": n, "mobsters": list(c)} for s, (n, c) in required.items() if n}
        return {"targets": {"per_player": per_player, "ordered": True}}

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        _need_targets(cmd)
        if len(set(cmd.targets)) != len(cmd.targets):
            raise _illegal("Each mobster may be named once.")
        for s, (n, crew) in self._required(state, seat).items():
            named = [m for m in cmd.targets if m in crew]
            if len(named) != n:
                raise _illegal(f"Name {n} mobster(s) in front of seat {s}.", seat=s, expected=n)
        if sum(n for n, _ in self._required(state, seat).values()) != len(cmd.targets):
            raise _illegal("Only opponents' mobsters in front of them may be named.")

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        picked: list[str] = []
        for n, crew in self._required(state, seat).values():
            picked.extend(rng.sample(list(crew), n))
        rng.shuffle(picked)
        return PlayCard(card="", targets=tuple(picked))

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        sheltered = b.state.players[counter.seat].family if counter is not None else None
        for mobster in play.targets:
            if MOBSTER_FAMILY[mobster] != sheltered:
                list_mobster(b, mobster)
        if self.war:
            _set_war(b, 2)


def _set_war(b: Builder, rate: int) -> None:
    if not b.state.mob_war:
        b.emit(MobWarStarted(rate))
    elif b.state.mob_war != rate:
        b.emit(MobWarRateChanged(rate))


class War(NoTarget):
    """MOB WAR starts a war at normal rate; AMBUSH starts one at double rate or doubles a
    running one. The rulebook: "The double rate effect persists until the Mob War ends",
    so MOB WAR played during a double-rate war leaves the rate at 2."""

    def __init__(self, rate: int) -> None:
        self.rate = rate

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        if not b.state.mob_war or self.rate == 2:
            _set_war(b, self.rate)


def turncoat_sides(state: GameState) -> tuple[list[str], list[str]]:
    """Mobsters that may leave (of a player with the most in play) and dead mobsters that
    may return (of a player still in the game with the fewest in play)."""
    counts = {s: state.in_play_count(s) for s in state.in_game()}
    most, fewest = max(counts.values()), min(counts.values())
    strong = {state.players[s].family for s, n in counts.items() if n == most}
    weak = {state.players[s].family for s, n in counts.items() if n == fewest}
    leaving = [m for m in state.mobsters_in_play() if MOBSTER_FAMILY[m] in strong]
    returning = [m for m in state.graveyard if MOBSTER_FAMILY[m] in weak]
    return leaving, returning


class Turncoat(PlayRule):
    """targets = (leaving, returning)."""

    def options(self, state: GameState, seat: int) -> Options | None:
        leaving, returning = turncoat_sides(state)
        if not leaving or not returning:
            return None
        return {"targets": {"count": 2, "leaving": leaving, "returning": returning}}

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        _need_targets(cmd, 2)
        leaving, returning = turncoat_sides(state)
        if cmd.targets[0] not in leaving:
            raise _illegal(
                "The leaving mobster must belong to a player with the most mobsters in play.",
                mobster=cmd.targets[0],
                choices=leaving,
            )
        if cmd.targets[1] not in returning:
            raise _illegal(
                "The returning mobster must be a dead mobster of a player in the "
                "game with the fewest mobsters in play.",
                mobster=cmd.targets[1],
                choices=returning,
            )

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        leaving, returning = turncoat_sides(state)
        return PlayCard(card="", targets=(rng.choice(leaving), rng.choice(returning)))

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        leaving, returning = play.targets
        s = b.state
        position = s.hit_list.index(leaving) if leaving in s.hit_list else None
        b.emit(MobsterEliminated(leaving, "turncoat"))
        # UNFORGIVING acts at once, before the dead mobster returns.
        place = "" if position is None else str(position)
        if unforgiving_at_once(b, f"turncoat:{play.seat}:{returning}:{place}"):
            return
        b.emit(MobsterReturned(returning, position))


class Rescue(PlayRule):
    """TAKE IT ON THE LAM (FINGER cancels it) and POLICE PROTECTION: one off the list."""

    def options(self, state: GameState, seat: int) -> Options | None:
        return (
            {"targets": {"count": 1, "mobsters": list(state.hit_list)}} if state.hit_list else None
        )

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        _need_targets(cmd, 1)
        if cmd.targets[0] not in state.hit_list:
            raise _illegal("The target must be on the Hit List.", mobster=cmd.targets[0])

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        return PlayCard(card="", targets=(rng.choice(state.hit_list),))

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        if counter is None:
            _rescue(b, play.targets[0])


class Substitution(PlayRule):
    """targets = (listed, replacement): the replacement takes the listed one's place."""

    def options(self, state: GameState, seat: int) -> Options | None:
        in_play = state.mobsters_in_play()
        if not state.hit_list or len(in_play) < 2:
            return None
        return {
            "targets": {"count": 2, "listed": list(state.hit_list), "replacements": list(in_play)}
        }

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        _need_targets(cmd, 2)
        listed, replacement = cmd.targets
        if listed not in state.hit_list:
            raise _illegal("The first target must be on the Hit List.", mobster=listed)
        if replacement == listed or replacement not in state.mobsters_in_play():
            raise _illegal("The replacement must be another mobster in play.", mobster=replacement)

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        listed = rng.choice(state.hit_list)
        replacement = rng.choice([m for m in state.mobsters_in_play() if m != listed])
        return PlayCard(card="", targets=(listed, replacement))

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        b.emit(MobsterSubstituted(*play.targets))


class Intrigue(PlayRule):
    """targets = the whole Hit List in its new order."""

    def options(self, state: GameState, seat: int) -> Options | None:
        if not state.hit_list:
            return None
        return {"targets": {"permutation_of": list(state.hit_list)}}

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        _need_targets(cmd)
        if sorted(cmd.targets) != sorted(state.hit_list):
            raise _illegal("Name every mobster on the Hit List once, in the new order.")

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        order = list(state.hit_list)
        rng.shuffle(order)
        return PlayCard(card="", targets=tuple(order))

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        b.emit(HitListReordered(play.targets))


class Truce(NoTarget):
    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        if b.state.mob_war:
            b.emit(MobWarEnded("truce"))  # the checks after the card may start a new one


class PayOff(PlayRule):
    """``player``: every one of that player's mobsters comes off the Hit List."""

    uses = frozenset({"player"})

    def _players(self, state: GameState) -> list[int]:
        return [s for s in state.in_game() if state.listed_of(s)]

    def options(self, state: GameState, seat: int) -> Options | None:
        players = self._players(state)
        return {"player": players} if players else None

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        if cmd.player is None:
            raise RuleViolation("missing_target", "Name the player to pay off, or discard it.")
        if cmd.player not in self._players(state):
            raise _illegal("That player has no mobster on the Hit List.", player=cmd.player)

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        return PlayCard(card="", player=rng.choice(self._players(state)))

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        assert play.player is not None
        for mobster in b.state.listed_of(play.player):
            _rescue(b, mobster)


class Crackdown(NoTarget):
    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        for mobster in b.state.hit_list:
            _rescue(b, mobster)


class CounterOnOwnTurn(NoTarget):
    """A counter card played on your own turn is discarded with no effect."""

    def options(self, state: GameState, seat: int) -> Options | None:
        return None

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        raise AssertionError("counters are discarded on their player's own turn")


class Assign(PlayRule):
    """Advanced rules: an ability card slides under one of your own mobsters in play (in
    front of you or on the Hit List) that has no ability yet. It cannot be countered."""

    def options(self, state: GameState, seat: int) -> Options | None:
        mobsters = assignable(state, seat)
        return {"targets": {"count": 1, "mobsters": mobsters}} if mobsters else None

    def validate(self, state: GameState, seat: int, cmd: PlayCard) -> None:
        _need_targets(cmd, 1)
        if cmd.targets[0] not in assignable(state, seat):
            raise _illegal(
                "Name one of your own mobsters in play that has no ability yet.",
                mobster=cmd.targets[0],
            )

    def sample(self, state: GameState, seat: int, rng: Random) -> PlayCard:
        return PlayCard(card="", targets=(rng.choice(assignable(state, seat)),))

    def resolve(self, b: Builder, play: CardPlayed, counter: CounterPlayed | None) -> None:
        raise AssertionError("an ability is assigned, not resolved")


PLAYS: dict[Kind, PlayRule] = {
    **{k: Contract(k, first=k is Kind.PRIORITY_CONTRACT) for k in CONTRACTS},
    Kind.DOUBLE_CONTRACT: DoubleContract(),
    Kind.HIT: Hit(),
    Kind.MASSACRE: Massacre(),
    Kind.DOUBLE_CROSS: EachOpponent(per_player=1, war=False),
    Kind.VENDETTA: EachOpponent(per_player=2, war=True),
    Kind.MOB_WAR: War(1),
    Kind.AMBUSH: War(2),
    Kind.TURNCOAT: Turncoat(),
    Kind.TAKE_IT_ON_THE_LAM: Rescue(),
    Kind.POLICE_PROTECTION: Rescue(),
    Kind.SUBSTITUTION: Substitution(),
    Kind.INTRIGUE: Intrigue(),
    Kind.TRUCE: Truce(),
    Kind.PAY_OFF: PayOff(),
    Kind.FEDERAL_CRACKDOWN: Crackdown(),
    Kind.FAMILY_INFLUENCE: CounterOnOwnTurn(),
    Kind.MOB_POWER: CounterOnOwnTurn(),
    Kind.FINGER: CounterOnOwnTurn(),
    Kind.SAFE_HOUSE: CounterOnOwnTurn(),
    **{k: Assign() for k in ABILITIES},
}


def mob_power_choices(state: GameState, attacker: int) -> Sequence[str]:
    """MOB POWER names one of the attacking player's mobsters in front of them."""
    return state.players[attacker].crew
