"""Family Business as a ``games.core.Game``: the adapter the service talks to.

Everything the service needs to know of Family Business is answered here, from the
engine's own functions; nothing outside this package reads a ``GameState``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.adapter import Adapter
from games.core import Outcome, Placements, RuleViolation, Status, TableOption, Window
from games.positions import POSITION, position_option

from . import bots, codec, errors, hidden, position, review, view
from .cards import CARD_KIND, deck_cards
from .commands import Command
from .events import DeckShuffled
from .evolve import evolve
from .flow import outcome
from .legal import awaiting, legal_commands, timeout_discard
from .revisions import RULES_VERSION, RULES_VERSIONS
from .rng import shuffled
from .rules import decide
from .setup import MAX_PLAYERS, MIN_PLAYERS, Options, PlayerSpec, setup_events
from .state import GameState

# What a timed-out turn plays: a card with no effect (``discard``; ``minimal`` is the
# name every game shares for its documented default move) or the heuristic bot's choice.
TIMEOUT_POLICIES = ("discard", "bot", "minimal")
REACTION_SECONDS = (1, 300)


def _service_bot(kind: str) -> Any:
    # The service's random bot always answers a window (silence is for simulations).
    return bots.RandomBot(silence=0.0) if kind == "random" else bots.HeuristicBot()


class FamilyBusiness(Adapter[GameState]):
    name: str = "family_business"
    title: str = "Family Business"
    rules_version: int = RULES_VERSION
    rules_versions: tuple[int, ...] = RULES_VERSIONS
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    bot_kinds: tuple[str, ...] = ("random", "heuristic")
    timeout_policies: tuple[str, ...] = TIMEOUT_POLICIES
    error_codes: Mapping[str, str] = errors.CODES
    window_closers: tuple[tuple[str, str], ...] = (
        ("CounterPlayed", "winning_seq"),
        ("WindowClosed", "closed_seq"),
    )
    reaction_windows: bool = True  # counters, answered by standing reactions too
    goal: str = (
        "Keep your family's mobsters alive: send rivals' mobsters to the Hit List and out "
        "of play. The last family with a mobster in play wins."
    )
    rules_document: str = "docs/rules.md"
    table_options: tuple[TableOption, ...] = (
        TableOption("reaction_seconds", "Seconds to answer an attack", "int", 10, 1, 300),
        TableOption(
            "advanced",
            "Advanced rules (ability cards — their texts are reconstructed)",
            "bool",
            False,
        ),
    )
    codec = codec  # storage, and what leaves the server: games.adapter.Adapter
    views = view
    hidden = hidden
    review = review
    turn_name: str = review.TURN_NAME
    moment_kinds: Mapping[str, str] = review.MOMENT_KINDS

    def http_status(self, code: str) -> int:
        return errors.http_status(code)

    # --- tables and setup ---------------------------------------------------------------

    def validate_options(
        self, options: Mapping[str, Any] | None, seats: int, *, sandbox: bool
    ) -> dict[str, Any]:
        options = dict(options or {})
        unknown = sorted(set(options) - {"reaction_seconds", "advanced", "stacked_deck", POSITION})
        if unknown:
            raise RuleViolation("bad_options", "Unknown table options.", field=unknown[0])
        given = position_option(options, sandbox=sandbox, says="advanced, reaction_seconds")
        if given is not None:
            doc = position.validate_position(given, seats)
            return {
                "reaction_seconds": doc["reaction_seconds"],
                "advanced": doc["advanced"],
                "stacked_deck": [],
                POSITION: doc,
            }
        reaction = options.get("reaction_seconds", 10)
        low, high = REACTION_SECONDS
        if (
            isinstance(reaction, bool)
            or not isinstance(reaction, int)
            or not low <= reaction <= high
        ):
            raise RuleViolation(
                "bad_options", "Reaction windows last 1 to 300 seconds.", field="reaction_seconds"
            )
        advanced = options.get("advanced", False)
        if not isinstance(advanced, bool):
            raise RuleViolation("bad_options", "advanced is true or false.", field="advanced")
        stacked = options.get("stacked_deck") or []
        if not isinstance(stacked, list | tuple) or not all(isinstance(c, str) for c in stacked):
            raise RuleViolation(
                "bad_options", "A stacked deck is a list of card ids.", field="stacked_deck"
            )
        if stacked and not sandbox:
            raise RuleViolation(
                "bad_options", "Only sandbox tables take a seed or stacked deck.", field="seed"
            )
        if len(set(stacked)) != len(stacked):
            raise RuleViolation("bad_options", "Each card at most once.", field="stacked_deck")
        known = deck_cards(advanced)
        if any(card not in CARD_KIND for card in stacked):
            raise RuleViolation("bad_options", "Unknown card ids.", field="stacked_deck")
        if any(card not in known for card in stacked):
            raise RuleViolation(
                "bad_options",
                "Ability cards (a01..a10) need an advanced table.",
                field="stacked_deck",
            )
        return {"reaction_seconds": reaction, "advanced": advanced, "stacked_deck": list(stacked)}

    def public_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "reaction_seconds": options.get("reaction_seconds", 10),
            "advanced": bool(options.get("advanced", False)),
        }

    def start(
        self, names: Sequence[str], options: Mapping[str, Any], seed: str, salt: str
    ) -> tuple[Any, ...]:
        opts = Options(
            reaction_seconds=int(options.get("reaction_seconds", 10)),
            advanced=bool(options.get("advanced", False)),
            stacked_deck=tuple(options.get("stacked_deck") or ()),
            position=options.get(POSITION),
        )
        return setup_events([PlayerSpec(n) for n in names], opts, seed, salt)

    def setup_from_started(self, started: Mapping[str, Any], seed: str) -> tuple[Any, ...]:
        options = Options(
            reaction_seconds=started["reaction_seconds"],
            advanced=started.get("advanced", False),
            stacked_deck=tuple(started.get("stacked_deck", ())),
            rules_version=started["rules_version"],
            position=started.get("position"),
        )
        specs = [
            PlayerSpec(n, f) for n, f in zip(started["names"], started["families"], strict=True)
        ]
        return setup_events(specs, options, seed, started.get("salt", ""))

    def validate_position(self, document: Any, seats: int) -> dict[str, Any]:
        return position.validate_position(document, seats)

    def position_of(self, state: GameState) -> dict[str, Any]:
        return position.position_of(state)

    # --- the rules ----------------------------------------------------------------------

    def empty_state(self) -> GameState:
        return GameState()

    def decide(
        self, state: GameState, seat: int | None, command: Command, *, now: int
    ) -> tuple[Any, ...]:
        return decide(state, seat, command, now=now)

    def evolve(self, state: GameState, event: Any) -> GameState:
        return evolve(state, event)

    def outcome(self, state: GameState) -> Outcome | None:
        return outcome(state)

    def placements(self, state: GameState) -> Placements | None:
        # The rules name only the last family standing (or the families sharing a draw);
        # they rank nobody else, and the state keeps no order in which families went out,
        # so every other seat shares the place after the winners (docs/ratings.md).
        if not state.over:
            return None
        rest = tuple(p.seat for p in state.players if p.seat not in state.winners)
        return tuple(group for group in (tuple(state.winners), rest) if group)

    def status(self, state: GameState) -> Status:
        if state.over:
            return Status(over=True, winners=tuple(state.winners))
        waiting = awaiting(state)
        window = state.window
        if window is not None:
            return Status(
                over=False,
                awaiting=waiting,
                deadlines={seat: window.deadline for seat in waiting},
                step_key=f"{state.turn}:window:{window.id}",
                window=Window(window.id, window.deadline),
            )
        # One seat plays a card; a window in the turn starts a new key (and turn clock).
        key = f"{state.turn}:{waiting[0]}:{state.windows_opened}" if waiting else ""
        return Status(
            over=False, awaiting=waiting, deadlines={seat: None for seat in waiting}, step_key=key
        )

    def names_its_step(self, command: Any) -> bool:
        # a reaction names its window, which guards it
        return getattr(command, "window", None) is not None

    def close_command(self, window: Window) -> dict[str, Any]:
        return {"type": "close_window", "window": window.id}

    def timeout_command(
        self, state: GameState, seat: int, policy: str, seed: str
    ) -> dict[str, Any] | None:
        if policy in ("discard", "minimal"):
            # A card played with no effect, never a counter while another card could go.
            # With nothing to discard the heuristic bot plays.
            card = timeout_discard(state, seat)
            if card is not None:
                return {"type": "play", "card": card, "discard": True}
        return self.bot_command(state, seat, "heuristic", seed)

    def bot_command(
        self, state: GameState, seat: int, kind: str, seed: str
    ) -> dict[str, Any] | None:
        choice = _service_bot(kind).choose(state, seat, bots.decision_rng(seed, state, seat))
        return None if choice is None else codec.encode_command(choice)

    # --- what leaves the server ---------------------------------------------------------

    # an undo may take back the next seat's draw: the deck is put in a new order
    undo_across_reveals: bool = True

    def undo_reshuffle(self, state: GameState, seed: str) -> Sequence[Any]:
        """The deck (with the cards drawn since back on its top) in a new order from the
        undo's fresh ``seed``, always (an empty deck too): the shuffle count moves on, so
        a reshuffle of the discard pile the undone move made and showed is not made in the
        same order again."""
        return (DeckShuffled(shuffled(state.deck, seed, "undo"), "undo"),)

    def revealed_to(self, kind: str, payload: Mapping[str, Any]) -> frozenset[int]:
        return view.revealed_to(kind, payload)

    def legal_commands(self, state: GameState, seat: int | None, *, now: int | None = None) -> Any:
        return legal_commands(state, seat, now=now)


GAME = FamilyBusiness()
