"""The flow of play between cards: checks after each step, turn starts, draws.

``Builder`` lets ``decide`` produce events while seeing their effect: every emitted event is
folded at once, so later decisions in the same command read the state it leaves.
"""

from __future__ import annotations

from games.core import Outcome, TieBreak

from .abilities import butcher_ready, cleaner_draws, draw_count, hand_limit, holder
from .cards import (
    ABILITY_CARDS,
    CARD_KIND,
    FAMILY_BY_ID,
    HAND_LIMIT,
    MOB_WAR_LIST_THRESHOLD,
    MOB_WAR_SURVIVOR_THRESHOLD,
    Kind,
)
from .events import (
    AbilityUsed,
    CardsDrawn,
    DecisionOpened,
    DeckShuffled,
    Event,
    GameEnded,
    MobsterEliminated,
    MobsterListed,
    MobsterReturned,
    MobWarEnded,
    MobWarStarted,
    PlayerOut,
    TurnStarted,
    WindowClosed,
)
from .evolve import evolve
from .revisions import revision
from .rng import shuffled
from .state import GameState


class Builder:
    def __init__(self, state: GameState, now: int = 0) -> None:
        self.state = state
        self.events: list[Event] = []
        self.now = now  # the command's clock (ms): decisions it opens get deadlines from it

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)


def list_mobster(
    b: Builder, mobster: str, first: bool = False, position: int | None = None
) -> bool:
    """Put a mobster on the Hit List if it is still in front of its owner; a target no
    longer there when the card resolves is skipped. Says whether it was listed."""
    s = b.state
    if mobster in s.players[s.owner(mobster)].crew:
        if position is None:
            position = 0 if first else len(s.hit_list)
        b.emit(MobsterListed(mobster, position))
        return True
    return False


def check_players(b: Builder) -> bool:
    """Put out every player left with no mobsters in play; end the game if at most one
    player remains (a war an empty Hit List leaves ends first). Returns True when the game
    is over. Players put out by the same step share a draw when nobody else is left."""
    died: list[int] = []
    for p in b.state.players:
        if not p.out and b.state.in_play_count(p.seat) == 0:
            died.append(p.seat)
            b.emit(PlayerOut(p.seat, p.hand))
    alive = b.state.in_game()
    if len(alive) > 1:
        return False
    # The war ends before the game does, so a final state never shows a war next to an
    # empty Hit List (no war starts here: the game is over). Since rules version 2.
    if revision(b.state).war_ends_before_game and b.state.mob_war and not b.state.hit_list:
        b.emit(MobWarEnded("hit_list_empty"))
    if b.state.window is not None:
        b.emit(WindowClosed(b.state.window.id, "game_over"))
    b.emit(GameEnded(alive if alive else tuple(died), b.state.seed))
    return True


def outcome(state: GameState) -> Outcome | None:
    """Why ``check_players`` ended the game as it did: the last family with mobsters in
    play wins; families put out by the same step with nobody else left share a draw."""
    if not state.over:
        return None
    # as the table pages name a seat: its family, then its player
    names = [f"{FAMILY_BY_ID[p.family].name} ({p.name})" for p in state.players]
    in_play = tuple((p.seat, state.in_play_count(p.seat)) for p in state.players)
    count = TieBreak("Mobsters still in play", in_play, tuple(state.winners))
    resigned = [names[p.seat] for p in state.players if p.resigned]
    left = f" ({', '.join(resigned)} resigned)" if resigned else ""
    if len(state.winners) == 1:
        winner = names[state.winners[0]]
        summary = f"{winner} wins: the last family with mobsters in play{left}."
        return Outcome(state.winners, "last_family", summary, (count,))
    if state.winners:
        who = " and ".join(names[s] for s in state.winners)
        summary = (
            f"{who} share a draw: their last mobsters left play in the same step, "
            f"leaving no family standing{left}."
        )
        return Outcome(state.winners, "shared", summary, (count,))
    return Outcome((), "no_winner", f"Nobody wins{left}.", (count,))


def check_war(b: Builder) -> None:
    """Mob War ends on an empty Hit List and starts (normal rate) on a long list or few
    survivors. Checked only between steps, never inside a card's effect."""
    s = b.state
    if s.mob_war and not s.hit_list:
        b.emit(MobWarEnded("hit_list_empty"))
        s = b.state
    few_left = len(s.mobsters_in_play()) <= MOB_WAR_SURVIVOR_THRESHOLD
    if not s.mob_war and (len(s.hit_list) >= MOB_WAR_LIST_THRESHOLD or (few_left and s.hit_list)):
        b.emit(MobWarStarted(1))


def draw_up(b: Builder, seat: int, limit: int = HAND_LIMIT) -> None:
    draw_cards(b, seat, limit - len(b.state.players[seat].hand))


def draw_cards(b: Builder, seat: int, need: int) -> None:
    """Draw ``need`` cards from the deck, reshuffling the discard pile when it runs out."""
    while need > 0:
        if not b.state.deck:
            if not b.state.discard:
                return
            order = shuffled(b.state.discard, b.state.seed, f"reshuffle:{b.state.shuffles}")
            b.emit(DeckShuffled(order, "reshuffle"))
        take = b.state.deck[:need]
        b.emit(CardsDrawn(seat, take))
        need -= len(take)


def start_turn(b: Builder, seat: int) -> None:
    """Start ``seat``'s turn: Mob War eliminations, then the draw. A player put out by the
    war at the start of their own turn passes it on, and the war strikes again."""
    while True:
        b.emit(TurnStarted(seat, b.state.turn + 1))
        if b.state.mob_war:
            for mobster in b.state.hit_list[: b.state.mob_war]:
                b.emit(MobsterEliminated(mobster, "mob_war"))
            if check_players(b):
                return
            check_war(b)
            if b.state.unforgiving:
                proceed(b, f"draw:{seat}")
                return
        if not b.state.players[seat].out:
            if b.state.advanced:
                begin_draw(b, seat)
            else:
                draw_up(b, seat)
            return
        seat = b.state.next_seat(seat)


def end_card(
    b: Builder,
    card_seat: int,
    counter_seat: int | None = None,
    *,
    celebrity: int | None = None,
    attack: bool = False,
) -> None:
    """After a card (with its counter, if any) has fully resolved: checks, then the next
    turn. A counter's player takes the next turn; otherwise the next seat clockwise.

    Advanced rules: ``celebrity`` is the owner of a CELEBRITY an opponent's card or counter
    just listed (they take the next turn instead); ``attack`` says the card was an ATTACK
    played for effect, which may earn SHORT-TEMPERED's extra card."""
    if check_players(b):
        return
    check_war(b)
    s = b.state
    if s.advanced:
        if celebrity is not None and not s.players[celebrity].out:
            proceed(b, f"turn:{celebrity}")
        elif counter_seat is not None:
            proceed(b, f"turn:{counter_seat}")
        elif attack and _short_tempered(s, card_seat):
            proceed(b, f"extra:{card_seat}")
        else:
            proceed(b, f"turn:{s.next_seat(card_seat)}")
        return
    if counter_seat is not None and not s.players[counter_seat].out:
        start_turn(b, counter_seat)
    else:
        start_turn(b, s.next_seat(counter_seat if counter_seat is not None else card_seat))


# --- advanced rules: pending decisions and where play resumes after them -----------------


def _short_tempered(state: GameState, seat: int) -> bool:
    return (
        seat == state.turn_seat
        and state.temper_turn != state.turn
        and holder(state, seat, Kind.SHORT_TEMPERED) is not None
    )


def open_decision(
    b: Builder, decision: str, seat: int, mobster: str, count: int = 0, then: str = "play"
) -> None:
    card = b.state.ability_of(mobster) or ""
    if decision == "unforgiving":  # its mobster is dead; the card lies on the discard pile
        card = next(c for c in ABILITY_CARDS if CARD_KIND[c] is Kind.UNFORGIVING)
    kind = CARD_KIND[card].value if card else ""
    deadline = b.now + b.state.reaction_seconds * 1000
    window = f"w{b.state.windows_opened + 1}"
    b.emit(DecisionOpened(window, decision, seat, card, kind, mobster, count, then, deadline))


def proceed(b: Builder, then: str) -> None:
    """Open the next UNFORGIVING decision, if one waits; otherwise resume play at ``then``."""
    if b.state.unforgiving:
        mobster = b.state.unforgiving[0]  # several act in the order they died
        open_decision(b, "unforgiving", b.state.owner(mobster), mobster, then=then)
        return
    resume(b, then)


def unforgiving_at_once(b: Builder, rest: str) -> bool:
    """UNFORGIVING acts at once: when a card's elimination has just left one waiting, open
    its decision before the rest of the card resolves (``rest``, resumed by ``resume``).
    Says whether it did. An owner with no mobster left in play does not decide now: the
    checks after the card put them out (or, if TURNCOAT brings one of theirs back, they
    decide after the card)."""
    s = b.state
    if not revision(s).unforgiving_at_once or not s.unforgiving:  # version 1: after the card
        return False
    mobster = s.unforgiving[0]
    owner = s.owner(mobster)
    if s.players[owner].out or not s.in_play_count(owner):
        return False
    open_decision(b, "unforgiving", owner, mobster, then=rest)
    return True


def mid_card(then: str) -> bool:
    """Whether a decision interrupted a card (the checks then wait for its end)."""
    return then.startswith(("hit:", "turncoat:"))


def finish_card(b: Builder, rest: str) -> None:
    """The rest of a card an UNFORGIVING decision interrupted, then the checks after it.

    ``hit:N:own``: seat N's HIT lists its player's ``own`` mobster (if named and still in
    front of them); ``turncoat:N:mobster:position``: TURNCOAT's dead mobster returns (to
    that Hit List position, or to its family if empty). Both are ATTACK cards."""
    what, seat, *args = rest.split(":")
    if what == "hit" and args[0]:
        list_mobster(b, args[0])
    elif what == "turncoat":
        returning, position = args
        if not b.state.players[b.state.owner(returning)].out:  # its family may have resigned
            b.emit(MobsterReturned(returning, int(position) if position else None))
    end_card(b, int(seat), attack=True)


def resume(b: Builder, then: str) -> None:
    """Continue play where a decision interrupted it.

    ``play``: the turn's card play; ``turn:N``: seat N's turn starts (the next one in the
    game if N is out); ``draw:N``: seat N's turn continues after the Mob War step, with the
    draw; ``extra:N``: seat N is offered SHORT-TEMPERED's extra ATTACK card; ``hit:...`` and
    ``turncoat:...``: the rest of a card (``finish_card``)."""
    if then == "play":
        return
    if mid_card(then):
        finish_card(b, then)
        return
    what, _, number = then.partition(":")
    seat = int(number)
    s = b.state
    if s.players[seat].out:
        start_turn(b, s.next_seat(seat))
    elif what == "turn":
        start_turn(b, seat)
    elif what == "draw":
        begin_draw(b, seat)
    elif _short_tempered(s, seat):
        mobster = holder(s, seat, Kind.SHORT_TEMPERED)
        assert mobster is not None
        open_decision(b, "short_tempered", seat, mobster)
    else:
        start_turn(b, s.next_seat(seat))


def begin_draw(b: Builder, seat: int) -> None:
    """The draw step with the advanced rules: LIBRARIAN's and POLITICIAN's counts, then the
    draw itself (a decision for CRIME SCENE CLEANER and BUTCHER)."""
    s = b.state
    count = draw_count(s, seat)
    politician = holder(s, seat, Kind.POLITICIAN)
    if politician is not None:
        detail = f"draw {count}" if count else "skip"
        b.emit(AbilityUsed(seat, politician, Kind.POLITICIAN, detail))
    librarian = holder(s, seat, Kind.LIBRARIAN)
    if librarian is not None and len(s.players[seat].hand) + count > HAND_LIMIT:
        b.emit(AbilityUsed(seat, librarian, Kind.LIBRARIAN, f"limit {hand_limit(s, seat)}"))
    draw_step(b, seat, count, offer_butcher=True)


def draw_step(b: Builder, seat: int, count: int, *, offer_butcher: bool) -> None:
    """Draw ``count`` cards for ``seat``, pausing for a decision when it has one to take:
    BUTCHER (before the draw step's draw) or CRIME SCENE CLEANER (card by card)."""
    s = b.state
    butcher = butcher_ready(s, seat) if offer_butcher else None
    cleaner = cleaner_draws(s, seat) if count else None
    asking = butcher or cleaner
    if asking is not None:
        open_decision(b, "draw", seat, asking, count)
        return
    draw_cards(b, seat, count)
