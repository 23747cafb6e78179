"""The content versions Infamy still plays, chosen by the state's ``content_version`` (the one
its ``GameStarted`` recorded), never by the newest: docs/rules-infamy.md "Stand-in data".

- ``infamy/standin-1`` (the newest): the specification's stand-in tables as tuned for
  balance (8f703e7, 2026-11-23), with Cartel Patronage's text saying the 3 compound its
  rule takes. These are ``cards.py``'s tables.
- ``infamy/standin-0``: the specification's stand-in tables (shared/rules/infamy.md 3.4),
  kept here as their differences from standin-1.

Erratum. The tuning landed before Infamy was hosted (2026-11-26) but kept the id
``infamy/standin-0``: every game recorded under rules version 1 with that label was played
with the tuned numbers. ``content_of`` therefore reads rules-1 records labelled standin-0
with the tuned tables; from rules version 2, standin-0 means the specification's numbers.

A scheme's payment and effect live with its resolution (``schemes.scheme_rule``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .cards import BOARD, CONTENT_VERSION, JOBS, PERKS, SCHEMES, Job, Perk, SchemeDesign, Sector

if TYPE_CHECKING:
    from .state import GameState

STANDIN_0, STANDIN_1 = "infamy/standin-0", "infamy/standin-1"


@dataclass(frozen=True)
class Content:
    id: str
    board: Mapping[int, Sector]
    jobs: Mapping[str, Job]
    schemes: Mapping[str, SchemeDesign]
    perks: Mapping[str, tuple[Perk, ...]]


TUNED = Content(STANDIN_1, BOARD, JOBS, SCHEMES, PERKS)

# ISD-2: each job's (i, R) in the specification, where the tuning changed it.
_SPEC_JOB_VALUES: dict[str, tuple[int, int]] = {
    "j01": (2, 1), "j02": (1, 1), "j03": (1, 1), "j04": (3, 1), "j05": (3, 2),
    "j06": (2, 1), "j07": (2, 1), "j08": (2, 1), "j09": (3, 1), "j10": (2, 2),
    "j11": (2, 1), "j12": (2, 1), "j13": (1, 1), "j14": (4, 1), "j15": (2, 2),
    "j16": (1, 1), "j17": (1, 1), "j18": (2, 1), "j19": (2, 1), "j20": (3, 2),
    "j21": (1, 1), "j22": (2, 1), "j23": (2, 1), "j24": (3, 1), "j25": (1, 3),
    "j26": (2, 1), "j27": (3, 1), "j28": (1, 1), "j29": (2, 1), "j30": (5, 0),
}  # fmt: skip
# ISD-3: the texts of the designs the tuning changed (their rules: schemes.py).
_SPEC_SCHEME_TEXTS: dict[tuple[str, int], str] = {
    ("harada", 2): "Pay 1 compound: gain 2 henchmen.",
    ("harada", 8): "Pay 2 compound and 1 henchman: gain 1 Reputation with Harada.",
    ("trust", 7): "Pay 2 data: gain 1 Reputation with Trust.",
    ("pkd", 5): "Pay 2 weapons: gain 1 Reputation with PKD.",
}


def _spec_schemes() -> dict[str, SchemeDesign]:
    return {
        card: replace(d, text=_SPEC_SCHEME_TEXTS.get((d.faction, d.number), d.text))
        for card, d in SCHEMES.items()
    }


def _spec_perks() -> dict[str, tuple[Perk, ...]]:  # ISD-4: level 4 gains 2i
    return {
        f: (*levels[:3], replace(levels[3], gains=(("infamy", 2),))) for f, levels in PERKS.items()
    }


SPEC = Content(
    STANDIN_0,
    {**BOARD, 6: replace(BOARD[6], supply="henchman")},  # ISD-1: Deep Shafts, 1 henchman
    {j: replace(job, infamy=_SPEC_JOB_VALUES[j][0], rep=_SPEC_JOB_VALUES[j][1])
     for j, job in JOBS.items()},
    _spec_schemes(),
    _spec_perks(),
)  # fmt: skip

CONTENTS: dict[str, Content] = {STANDIN_0: SPEC, STANDIN_1: TUNED}
CONTENT_VERSIONS: tuple[str, ...] = tuple(sorted(CONTENTS))  # oldest first
assert CONTENT_VERSIONS[-1] == CONTENT_VERSION  # noqa: S101 - the newest is cards.py's


def played_tables(rules_version: int, content_version: str) -> Content:
    """The tables a game recorded under these versions was played with (the erratum: a
    rules-1 game labelled standin-0 was played with the tuned tables)."""
    if rules_version == 1 and content_version == STANDIN_0:
        return TUNED
    return CONTENTS[content_version]


def content_of(state: GameState) -> Content:
    """The tables ``state``'s game is played with (a state not started yet: the newest)."""
    if not state.started:
        return CONTENTS[CONTENT_VERSION]
    return played_tables(state.rules_version, state.content_version)
