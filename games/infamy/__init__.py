"""Infamy (Travis R. Chance, Mercury Games, 2014): the pure rules engine. Imports nothing
but the standard library (and Family Business's seeded generator and refusal type, which
the platform step moves to a shared module, G-3 and G-14).

Specification: ../shared/rules/infamy.md; the digital game: docs/rules-infamy.md.
"""

from .cards import CONTACTS, CONTENT_VERSION, FACTIONS, JOBS, SCHEMES
from .commands import (
    Bid,
    ChooseSector,
    Command,
    Discard,
    Forgo,
    MoveWatchdog,
    Pass,
    Place,
    PlayScheme,
    RemoveWatchdog,
    Resign,
    Reward,
    ThugResponse,
    Timeout,
    UseFavor,
)
from .defaults import minimal_command
from .errors import CODES, HTTP_STATUS, RuleViolation
from .events import Event
from .evolve import evolve, replay
from .legal import Option, candidates, legal_commands
from .rules import SYSTEM, awaiting, decide
from .setup import Options, initial_state, setup_events, validate_options
from .state import GameState, PlayerState
from .versions import RULES_VERSION, RULES_VERSIONS

__all__ = [
    "CODES",
    "CONTACTS",
    "CONTENT_VERSION",
    "FACTIONS",
    "HTTP_STATUS",
    "JOBS",
    "RULES_VERSION",
    "RULES_VERSIONS",
    "SCHEMES",
    "SYSTEM",
    "Bid",
    "ChooseSector",
    "Command",
    "Discard",
    "Event",
    "Forgo",
    "GameState",
    "MoveWatchdog",
    "Option",
    "Options",
    "Pass",
    "Place",
    "PlayScheme",
    "PlayerState",
    "RemoveWatchdog",
    "Resign",
    "Reward",
    "RuleViolation",
    "ThugResponse",
    "Timeout",
    "UseFavor",
    "awaiting",
    "candidates",
    "decide",
    "evolve",
    "initial_state",
    "legal_commands",
    "minimal_command",
    "replay",
    "setup_events",
    "validate_options",
]
