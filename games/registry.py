"""The games this service hosts: one line per game (docs/architecture.md, "Adding a game").

The only module outside ``games/<name>/`` that imports a game package."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from games.contract_schema import Contract
from games.core import Game
from games.family_business import contract as family_business_contract
from games.family_business import standing as family_business_standing
from games.family_business.game import GAME as FAMILY_BUSINESS
from games.goofspiel import contract as goofspiel_contract
from games.goofspiel.game import GAME as GOOFSPIEL
from games.infamy import contract as infamy_contract
from games.infamy.game import GAME as INFAMY
from games.scarface import contract as scarface_contract
from games.scarface.game import GAME as SCARFACE

GAMES: dict[str, Game] = {
    game.name: game for game in (FAMILY_BUSINESS, GOOFSPIEL, INFAMY, SCARFACE)
}

# The game of a table created without naming one (the API's and the lobby's default).
DEFAULT_GAME = FAMILY_BUSINESS.name


# Each game's typed API contract (games/<name>/contract.py, games.contract_schema): its
# commands, events, state and legal options in the OpenAPI schema. Every game has one: the
# schema cannot be built without it (tests/api/test_contract.py plays every game typed).
CONTRACTS: dict[str, Contract] = {
    FAMILY_BUSINESS.name: family_business_contract,
    GOOFSPIEL.name: goofspiel_contract,
    INFAMY.name: infamy_contract,
    SCARFACE.name: scarface_contract,
}


# Each game's pure standing-reaction rules (games.standing), for the games that have them.
STANDING: dict[str, ModuleType] = {FAMILY_BUSINESS.name: family_business_standing}


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None


def game_names() -> Sequence[str]:
    return tuple(GAMES)
