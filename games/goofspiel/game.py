"""Goofspiel as a ``games.core.Game``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.adapter import Adapter
from games.core import (
    Outcome,
    Placements,
    Reveal,
    RuleViolation,
    Status,
    TableOption,
    Window,
    placed_by,
)
from games.positions import POSITION, position_option

from . import bots, codec, hidden, position, review, view
from .rules import (
    MAX_CARDS,
    MAX_PLAYERS,
    MIN_CARDS,
    MIN_PLAYERS,
    RULES_VERSION,
    Bid,
    GameState,
    awaiting,
    decide,
    evolve,
    setup_events,
    standings,
)

CODES: dict[str, str] = {
    "bad_command": "The command is malformed: a bid is {type: bid, round, card}.",
    "game_over": "The game has ended; nothing more can be bid.",
    "not_a_player": "The seat is not part of this game.",
    "round_over": "The bid is for a round that is over (the bids were revealed).",
    "already_bid": "This seat has bid this round; a bid is final.",
    "card_not_in_hand": "The card is not in this seat's hand.",
    "bad_position": "The start position is invalid: `field` names where (a path such as "
    "`hands.1.2`), the message says why.",
}
HTTP_STATUS = {
    "bad_command": 400,
    "bad_position": 400,
    "game_over": 409,
    "round_over": 409,
    "not_a_player": 403,
}


class Goofspiel(Adapter[GameState]):
    name: str = "goofspiel"
    title: str = "Goofspiel"
    rules_version: int = RULES_VERSION
    rules_versions: tuple[int, ...] = (RULES_VERSION,)
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    bot_kinds: tuple[str, ...] = bots.BOT_KINDS
    # minimal: the lowest card left; bot: the heuristic bot's bid
    timeout_policies: tuple[str, ...] = ("minimal", "bot")
    error_codes: Mapping[str, str] = CODES
    window_closers: tuple[tuple[str, str], ...] = ()  # no game-timed windows
    reaction_windows: bool = False
    goal: str = (
        "Win the most points: each round a prize card is shown and every player bids a card "
        "from their hand in secret; the single highest bid takes the prize's value."
    )
    rules_document: str = "docs/rules-goofspiel.md"
    table_options: tuple[TableOption, ...] = (
        TableOption("cards", "Cards in each hand (and rounds)", "int", 5, MIN_CARDS, MAX_CARDS),
    )
    codec = codec  # storage, and what leaves the server: games.adapter.Adapter
    views = view
    hidden = hidden
    review = review
    turn_name: str = review.TURN_NAME
    moment_kinds: Mapping[str, str] = review.MOMENT_KINDS

    def http_status(self, code: str) -> int:
        return HTTP_STATUS.get(code, 422)

    def validate_options(
        self, options: Mapping[str, Any] | None, seats: int, *, sandbox: bool
    ) -> dict[str, Any]:
        options = dict(options or {})
        unknown = sorted(set(options) - {"cards", POSITION})
        if unknown:
            raise RuleViolation("bad_options", "Unknown table options.", field=unknown[0])
        given = position_option(options, sandbox=sandbox, says="cards")
        if given is not None:
            doc = self.validate_position(given, seats)
            return {"cards": doc["cards"], POSITION: doc}
        cards = options.get("cards", 5)
        if isinstance(cards, bool) or not isinstance(cards, int):
            raise RuleViolation("bad_options", "cards is a whole number.", field="cards")
        if not MIN_CARDS <= cards <= MAX_CARDS:
            raise RuleViolation("bad_options", "A hand holds 3 to 13 cards.", field="cards")
        return {"cards": cards}

    def public_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"cards": options.get("cards", 5)}  # never the position: it holds hidden cards

    def start(
        self, names: Sequence[str], options: Mapping[str, Any], seed: str, salt: str
    ) -> tuple[Any, ...]:
        position = options.get(POSITION)
        return setup_events(list(names), int(options.get("cards", 5)), seed, salt, position)

    def setup_from_started(self, started: Mapping[str, Any], seed: str) -> tuple[Any, ...]:
        return setup_events(
            list(started["names"]),
            started["cards"],
            seed,
            started["salt"],
            started.get("position"),
        )

    def validate_position(self, document: Any, seats: int) -> dict[str, Any]:
        return position.validate_position(document, seats)

    def position_of(self, state: GameState) -> dict[str, Any]:
        return position.position_of(state)

    def empty_state(self) -> GameState:
        return GameState()

    def decide(
        self, state: GameState, seat: int | None, command: Any, *, now: int
    ) -> tuple[Any, ...]:
        return decide(state, seat, command, now=now)

    def evolve(self, state: GameState, event: Any) -> GameState:
        return evolve(state, event)

    def outcome(self, state: GameState) -> Outcome | None:
        return standings(state.names, state.scores) if state.over else None

    def placements(self, state: GameState) -> Placements | None:
        # the winners, then the rest by points won (equal points share a place)
        if not state.over:
            return None
        return placed_by(dict(enumerate(state.scores)), state.winners)

    def status(self, state: GameState) -> Status:
        if state.over:
            return Status(over=True, winners=state.winners)
        waiting = awaiting(state)
        # one sealed step per round, timed by the table's turn clock (no deadline of its own)
        return Status(
            over=False,
            awaiting=waiting,
            deadlines={seat: None for seat in waiting},
            step_key=f"r{state.round}" if waiting else "",
        )

    def names_its_step(self, command: Any) -> bool:
        return isinstance(command, Bid)  # a bid names its round

    def close_command(self, window: Window) -> dict[str, Any]:
        raise RuleViolation("bad_command", "Goofspiel has no windows to close.")

    def timeout_command(
        self, state: GameState, seat: int, policy: str, seed: str
    ) -> dict[str, Any] | None:
        if seat not in awaiting(state):
            return None
        if policy == "bot":
            return self.bot_command(state, seat, "heuristic", seed)
        return codec.encode_command(Bid(state.round, min(state.hands[seat])))

    def bot_command(
        self, state: GameState, seat: int, kind: str, seed: str
    ) -> dict[str, Any] | None:
        # the bot sees what its seat sees, nothing more
        choice = bots.choose(kind, view.view(state, seat, now=0), seed)
        return None if choice is None else codec.encode_command(choice)

    def revealed_to(self, kind: str, payload: Mapping[str, Any]) -> Reveal:
        return view.revealed_to(kind, payload)

    def legal_commands(self, state: GameState, seat: int | None, *, now: int | None = None) -> Any:
        if seat is None or seat not in awaiting(state):
            return ()
        return tuple(Bid(state.round, card) for card in state.hands[seat])


GAME = Goofspiel()
