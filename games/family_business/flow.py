"""The flow of play between cards: checks after each step, turn starts, draws.

``Builder`` lets ``decide`` produce events while seeing their effect: every emitted event is
folded at once, so later decisions in the same command read the state it leaves.
"""

from __future__ import annotations

from .cards import HAND_LIMIT, MOB_WAR_LIST_THRESHOLD, MOB_WAR_SURVIVOR_THRESHOLD
from .events import (
    CardsDrawn,
    DeckShuffled,
    Event,
    GameEnded,
    MobsterEliminated,
    MobWarEnded,
    MobWarStarted,
    PlayerOut,
    TurnStarted,
    WindowClosed,
)
from .evolve import evolve
from .rng import shuffled
from .state import GameState


class Builder:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)


def check_players(b: Builder) -> bool:
    """Put out every player left with no mobsters in play; end the game if at most one
    player remains. Returns True when the game is over. Players put out by the same step
    share a draw when nobody else is left."""
    died: list[int] = []
    for p in b.state.players:
        if not p.out and b.state.in_play_count(p.seat) == 0:
            died.append(p.seat)
            b.emit(PlayerOut(p.seat, p.hand))
    alive = b.state.in_game()
    if len(alive) > 1:
        return False
    if b.state.window is not None:
        b.emit(WindowClosed(b.state.window.id, "game_over"))
    b.emit(GameEnded(alive if alive else tuple(died), b.state.seed))
    return True


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
    need = limit - len(b.state.players[seat].hand)
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
        if not b.state.players[seat].out:
            draw_up(b, seat)
            return
        seat = b.state.next_seat(seat)


def end_card(b: Builder, card_seat: int, counter_seat: int | None = None) -> None:
    """After a card (with its counter, if any) has fully resolved: checks, then the next
    turn. A counter's player takes the next turn; otherwise the next seat clockwise."""
    if check_players(b):
        return
    check_war(b)
    s = b.state
    if counter_seat is not None and not s.players[counter_seat].out:
        start_turn(b, counter_seat)
    else:
        start_turn(b, s.next_seat(counter_seat if counter_seat is not None else card_seat))
