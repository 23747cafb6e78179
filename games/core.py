"""The games this service can host, behind one small interface.

Each game is a pure package (``games/<name>/``) exposing the same pieces; the service,
the API, the verifier and the bots only talk to a game through its ``GameDefinition``, so a
second game (Scarface 1920, Infamy) slots in beside Family Business with one registry line.
Imports nothing but the standard library and the game packages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from games import family_business as fb
from games.family_business import bots as fb_bots
from games.family_business import codec as fb_codec
from games.family_business import notices as fb_notices
from games.family_business import view as fb_view
from games.family_business.state import GameState


@dataclass(frozen=True)
class GameDefinition:
    name: str
    title: str
    rules_version: int
    min_players: int
    max_players: int
    setup_events: Callable[..., tuple[Any, ...]]
    decide: Callable[..., tuple[Any, ...]]
    evolve: Callable[[Any, Any], Any]
    replay: Callable[..., Any]
    view: Callable[..., dict[str, Any]]
    redact_event: Callable[..., dict[str, Any]]
    # the seats a stored event (its type without the game's prefix, its payload) shows
    # hidden information to
    revealed_to: Callable[[str, Mapping[str, Any]], frozenset[int]]
    legal_commands: Callable[..., tuple[Any, ...]]
    # The card a timed-out turn discards (None: nothing to discard; the bot plays instead).
    timeout_discard: Callable[[Any, int], str | None]
    awaiting: Callable[[Any], tuple[int, ...]]
    encode_event: Callable[[Any], dict[str, Any]]
    decode_event: Callable[[dict[str, Any]], Any]
    encode_command: Callable[[Any], dict[str, Any]]
    decode_command: Callable[[Any], Any]
    empty_state: Callable[[], Any]
    encode_state: Callable[[Any], dict[str, Any]]
    decode_state: Callable[[dict[str, Any]], Any]
    bots: dict[str, Callable[[], Any]]  # bots as the service runs them
    bot_rng: Callable[[str, Any, int], Random]
    error_codes: dict[str, str]
    # the notifications a stored event raises (its type without the game's prefix, its
    # payload): notice kind -> the seats concerned (None: all); see webhooks/
    notices: Callable[[str, Mapping[str, Any]], Mapping[str, frozenset[int] | None]] = (
        lambda _type, _payload: {}
    )


FAMILY_BUSINESS = GameDefinition(
    name="family_business",
    title="Family Business",
    rules_version=fb.RULES_VERSION,
    min_players=2,
    max_players=6,
    setup_events=fb.setup_events,
    decide=fb.decide,
    evolve=fb.evolve,
    replay=fb.replay,
    view=fb_view.view,
    redact_event=fb_view.redact_event,
    revealed_to=fb_view.revealed_to,
    legal_commands=fb.legal_commands,
    timeout_discard=fb.timeout_discard,
    awaiting=fb.awaiting,
    encode_event=fb_codec.encode_event,
    decode_event=fb_codec.decode_event,
    encode_command=fb_codec.encode_command,
    decode_command=fb_codec.decode_command,
    empty_state=GameState,
    encode_state=fb_codec.encode_state,
    decode_state=fb_codec.decode_state,
    # The service's random bot always answers a window (silence is for simulations).
    bots={"random": lambda: fb_bots.RandomBot(silence=0.0), "heuristic": fb_bots.HeuristicBot},
    bot_rng=fb_bots.decision_rng,
    error_codes=dict(fb.CODES),
    notices=fb_notices.notices,
)

GAMES: dict[str, GameDefinition] = {FAMILY_BUSINESS.name: FAMILY_BUSINESS}


def get_game(name: str) -> GameDefinition:
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None


def game_names() -> Sequence[str]:
    return tuple(GAMES)
