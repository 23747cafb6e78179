"""Family Business: the pure rules engine. Imports nothing but the standard library."""

from .cards import ACTION_CARDS, CARD_KIND, FAMILIES, KIND_INFO, MOBSTER_FAMILY, Kind
from .commands import CloseWindow, Command, Counter, Pass, PlayCard, Resign
from .errors import CODES, RuleViolation
from .events import Event
from .evolve import evolve, replay
from .legal import Option, awaiting, legal_commands, sample_command, timeout_discard
from .revisions import RULES_VERSION, RULES_VERSIONS
from .rules import SYSTEM, decide
from .setup import Options, PlayerSpec, initial_state, setup_events
from .state import GameState, PlayerState, Window

__all__ = [
    "ACTION_CARDS",
    "CARD_KIND",
    "CODES",
    "FAMILIES",
    "KIND_INFO",
    "MOBSTER_FAMILY",
    "RULES_VERSION",
    "RULES_VERSIONS",
    "SYSTEM",
    "CloseWindow",
    "Command",
    "Counter",
    "Event",
    "GameState",
    "Kind",
    "Option",
    "Options",
    "Pass",
    "PlayCard",
    "PlayerSpec",
    "PlayerState",
    "Resign",
    "RuleViolation",
    "Window",
    "awaiting",
    "decide",
    "evolve",
    "initial_state",
    "legal_commands",
    "replay",
    "sample_command",
    "setup_events",
    "timeout_discard",
]
