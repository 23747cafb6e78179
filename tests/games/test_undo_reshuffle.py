"""Family Business's part of an undo across a reveal (``Game.undo_reshuffle``, pure): the
deck, with the cards drawn since back on it, in a new order from the undo's fresh seed;
the discard pile kept; counted as a shuffle, so a reshuffle of the discard pile that the
undone move made (and whose top the next seat saw) is not made in the same order again."""

from __future__ import annotations

from games.family_business import commands as cmd
from games.family_business.events import CardsDrawn, DeckShuffled
from games.family_business.game import GAME
from games.rng import shuffled
from tests.games.builders import make_state, of_type, play


def test_the_deck_comes_back_in_a_new_order_from_the_fresh_seed() -> None:
    state = make_state(2, hands={0: ["FINGER", "TRUCE"], 1: ["FINGER"]})
    assert state.deck and state.discard == ()
    (event,) = GAME.undo_reshuffle(state, "fresh-seed")
    assert event == DeckShuffled(shuffled(state.deck, "fresh-seed", "undo"), "undo")
    assert event.cards != state.deck and sorted(event.cards) == sorted(state.deck)
    assert GAME.undo_reshuffle(state, "fresh-seed") == (event,)  # pure: the seed decides
    assert GAME.undo_reshuffle(state, "another")[0].cards != event.cards
    after = GAME.evolve(state, event)
    assert (after.deck, after.discard, after.shuffles) == (
        event.cards,
        state.discard,
        state.shuffles + 1,
    )
    assert GAME.decode_event(GAME.encode_event(event)) == event


def test_a_discard_pile_reshuffle_shown_in_the_undone_move_is_not_repeated() -> None:
    """The deck is empty: seat 0's discard starts seat 1's turn, which reshuffles the
    discard pile (label reshuffle:N) and draws from it. Undone, the same move again must
    not bring the same order (seat 1 saw its top)."""
    state = make_state(2, hands={0: ["FINGER", "TRUCE"], 1: ["FINGER"]}, rest="discard")
    assert state.deck == () and state.discard
    card = state.players[0].hand[0]
    discard = cmd.PlayCard(card=card, discard=True)
    _, first = play(state, 0, discard)
    (undo,) = GAME.undo_reshuffle(state, "fresh-seed")  # an empty deck: still counted
    assert undo.cards == ()
    back = GAME.evolve(state, undo)
    _, again = play(back, 0, discard)
    order = of_type(first, DeckShuffled)[0].cards
    assert of_type(again, DeckShuffled)[0].cards != order
    assert of_type(again, CardsDrawn)[0].cards != of_type(first, CardsDrawn)[0].cards
