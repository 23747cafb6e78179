"""The games this service hosts: one line per game (docs/architecture.md, "Adding a game").

The only module outside ``games/<name>/`` that imports a game package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from games.contract_schema import Contract
from games.core import Game
from games.family_business import contract as family_business_contract
from games.family_business import notices as family_business_notices
from games.family_business import standing as family_business_standing
from games.family_business.game import GAME as FAMILY_BUSINESS
from games.goofspiel import contract as goofspiel_contract
from games.goofspiel import notices as goofspiel_notices
from games.goofspiel.game import GAME as GOOFSPIEL
from games.infamy import contract as infamy_contract
from games.infamy import notices as infamy_notices
from games.infamy.game import GAME as INFAMY

GAMES: dict[str, Game] = {game.name: game for game in (FAMILY_BUSINESS, GOOFSPIEL, INFAMY)}


# Each game's typed API contract (games/<name>/contract.py, games.contract_schema): its
# commands, events, state and legal options in the OpenAPI schema. Every game has one: the
# schema cannot be built without it (tests/api/test_contract.py plays every game typed).
CONTRACTS: dict[str, Contract] = {
    FAMILY_BUSINESS.name: family_business_contract,
    GOOFSPIEL.name: goofspiel_contract,
    INFAMY.name: infamy_contract,
}


# Each game's pure standing-reaction rules (games.standing), for the games that have them.
STANDING: dict[str, ModuleType] = {FAMILY_BUSINESS.name: family_business_standing}


# Each game's notices (games/<name>/notices.py): which stored events start a seat's turn,
# open a window it may answer, fill the table or finish the game (webhooks/relay.py).
# Every game has them: tests/generic/test_notices.py checks each seat a game waits for is
# told, at a new step, and plays every registered game.
NOTICES: dict[str, ModuleType] = {
    FAMILY_BUSINESS.name: family_business_notices,
    GOOFSPIEL.name: goofspiel_notices,
    INFAMY.name: infamy_notices,
}


def notices(game: str, kind: str, payload: Mapping[str, Any]) -> dict[str, frozenset[int] | None]:
    """The notices a stored event of ``game`` raises (kind without the game's prefix):
    notice kind -> the seats concerned (None: every seat); none for a game without them."""
    module = NOTICES.get(game)
    return dict(module.notices(kind, payload)) if module is not None else {}


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None


def game_names() -> Sequence[str]:
    return tuple(GAMES)
