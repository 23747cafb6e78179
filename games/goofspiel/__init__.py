"""Goofspiel: a tiny sealed-bid card game, the second game this service hosts (issue 15).

Each seat holds the cards 1..N. Every round a prize card from a shuffled prize deck is
shown; every seat bids one card of its hand at once, sealed; when the last bid is in, the
bids are revealed together and the single highest bid wins the prize (a tie wins nothing).
After N rounds the highest score wins. Pure: the standard library and ``games.core``.
"""

from .game import GAME, Goofspiel

__all__ = ["GAME", "Goofspiel"]
