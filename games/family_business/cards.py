"""Card and family data for Family Business: the one place a corrected count is changed.

The rulebook prints no per-card counts; the distribution follows the project's rulings
(``shared/rules/rulings.md``), which match every public transcription and the category totals.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Category(StrEnum):
    ATTACK = "attack"
    RESCUE = "rescue"
    COUNTER = "counter"


class Kind(StrEnum):
    CONTRACT = "CONTRACT"
    CONTRACT_NO_MP = "CONTRACT_NO_MP"
    CONTRACT_NO_FI = "CONTRACT_NO_FI"
    CONTRACT_NO_COUNTER = "CONTRACT_NO_COUNTER"
    PRIORITY_CONTRACT = "PRIORITY_CONTRACT"
    DOUBLE_CONTRACT = "DOUBLE_CONTRACT"
    HIT = "HIT"
    MASSACRE = "MASSACRE"
    DOUBLE_CROSS = "DOUBLE_CROSS"
    MOB_WAR = "MOB_WAR"
    AMBUSH = "AMBUSH"
    VENDETTA = "VENDETTA"
    TURNCOAT = "TURNCOAT"
    TAKE_IT_ON_THE_LAM = "TAKE_IT_ON_THE_LAM"
    POLICE_PROTECTION = "POLICE_PROTECTION"
    SUBSTITUTION = "SUBSTITUTION"
    INTRIGUE = "INTRIGUE"
    TRUCE = "TRUCE"
    PAY_OFF = "PAY_OFF"
    FEDERAL_CRACKDOWN = "FEDERAL_CRACKDOWN"
    FAMILY_INFLUENCE = "FAMILY_INFLUENCE"
    MOB_POWER = "MOB_POWER"
    FINGER = "FINGER"
    SAFE_HOUSE = "SAFE_HOUSE"


@dataclass(frozen=True)
class KindInfo:
    kind: Kind
    name: str
    copies: int
    category: Category
    countered_by: frozenset[Kind] = frozenset()
    text: str = ""


_FI_MP = frozenset({Kind.FAMILY_INFLUENCE, Kind.MOB_POWER})

# One row per card kind. Change a count here and the deck follows.
KINDS: tuple[KindInfo, ...] = (
    KindInfo(
        Kind.CONTRACT,
        "Contract",
        12,
        Category.ATTACK,
        _FI_MP,
        "Put one opponent's mobster at the end of the Hit List.",
    ),
    KindInfo(
        Kind.CONTRACT_NO_MP,
        "Contract (no Mob Power)",
        3,
        Category.ATTACK,
        frozenset({Kind.FAMILY_INFLUENCE}),
        "A Contract that only FAMILY INFLUENCE can counter.",
    ),
    KindInfo(
        Kind.CONTRACT_NO_FI,
        "Contract (no Family Influence)",
        2,
        Category.ATTACK,
        frozenset({Kind.MOB_POWER}),
        "A Contract that only MOB POWER can counter.",
    ),
    KindInfo(
        Kind.CONTRACT_NO_COUNTER,
        "Contract (no counters)",
        1,
        Category.ATTACK,
        frozenset(),
        "A Contract that cannot be countered.",
    ),
    KindInfo(
        Kind.PRIORITY_CONTRACT,
        "Priority Contract",
        3,
        Category.ATTACK,
        _FI_MP,
        "Put one opponent's mobster first on the Hit List, against the wall.",
    ),
    KindInfo(
        Kind.DOUBLE_CONTRACT,
        "Double Contract",
        3,
        Category.ATTACK,
        _FI_MP,
        "Put two mobsters of one opponent on the Hit List; counters affect the first.",
    ),
    KindInfo(
        Kind.HIT,
        "Hit",
        1,
        Category.ATTACK,
        frozenset(),
        "Eliminate any mobster in play, then put one of your own on the Hit List.",
    ),
    KindInfo(
        Kind.MASSACRE,
        "St. Valentine's Day Massacre",
        1,
        Category.ATTACK,
        frozenset(),
        "Eliminate every mobster on the Hit List.",
    ),
    KindInfo(
        Kind.DOUBLE_CROSS,
        "Double Cross",
        1,
        Category.ATTACK,
        frozenset(),
        "Put one mobster of each opponent on the Hit List, in an order you choose.",
    ),
    KindInfo(
        Kind.MOB_WAR, "Mob War", 1, Category.ATTACK, frozenset(), "Start a Mob War at normal rate."
    ),
    KindInfo(
        Kind.AMBUSH, "Ambush", 1, Category.ATTACK, frozenset(), "Start a Mob War at double rate."
    ),
    KindInfo(
        Kind.VENDETTA,
        "Vendetta",
        1,
        Category.ATTACK,
        frozenset({Kind.SAFE_HOUSE}),
        "Put two mobsters of each opponent on the Hit List, then start a double-rate war.",
    ),
    KindInfo(
        Kind.TURNCOAT,
        "Turncoat",
        1,
        Category.ATTACK,
        frozenset(),
        "Swap a mobster of the strongest family with a dead one of the weakest.",
    ),
    KindInfo(
        Kind.TAKE_IT_ON_THE_LAM,
        "Take It on the Lam",
        4,
        Category.RESCUE,
        frozenset({Kind.FINGER}),
        "Remove any one mobster from the Hit List.",
    ),
    KindInfo(
        Kind.POLICE_PROTECTION,
        "Police Protection",
        2,
        Category.RESCUE,
        frozenset(),
        "Remove any one mobster from the Hit List; cannot be countered.",
    ),
    KindInfo(
        Kind.SUBSTITUTION,
        "Substitution",
        2,
        Category.RESCUE,
        frozenset(),
        "Replace one mobster on the Hit List with any mobster in play.",
    ),
    KindInfo(Kind.INTRIGUE, "Intrigue", 2, Category.RESCUE, frozenset(), "Rearrange the Hit List."),
    KindInfo(Kind.TRUCE, "Truce", 1, Category.RESCUE, frozenset(), "End a Mob War."),
    KindInfo(
        Kind.PAY_OFF,
        "Pay Off",
        1,
        Category.RESCUE,
        frozenset(),
        "Remove all of one player's mobsters from the Hit List.",
    ),
    KindInfo(
        Kind.FEDERAL_CRACKDOWN,
        "Federal Crackdown",
        1,
        Category.RESCUE,
        frozenset(),
        "Return every mobster on the Hit List to its family.",
    ),
    KindInfo(
        Kind.FAMILY_INFLUENCE,
        "Family Influence",
        6,
        Category.COUNTER,
        frozenset(),
        "Cancel a Contract (only the first target of a Double Contract).",
    ),
    KindInfo(
        Kind.MOB_POWER,
        "Mob Power",
        3,
        Category.COUNTER,
        frozenset(),
        "Reverse a Contract: one of the attacker's mobsters goes on the Hit List.",
    ),
    KindInfo(Kind.FINGER, "Finger", 2, Category.COUNTER, frozenset(), "Cancel Take It on the Lam."),
    KindInfo(
        Kind.SAFE_HOUSE,
        "Safe House",
        1,
        Category.COUNTER,
        frozenset(),
        "Against Vendetta, your mobsters are not added to the Hit List.",
    ),
)

KIND_INFO: dict[Kind, KindInfo] = {info.kind: info for info in KINDS}

# Physical cards: stable instance ids c01..c56 in the order of KINDS.
CARD_KIND: dict[str, Kind] = {}
for _info in KINDS:
    for _ in range(_info.copies):
        CARD_KIND[f"c{len(CARD_KIND) + 1:02d}"] = _info.kind
ACTION_CARDS: tuple[str, ...] = tuple(CARD_KIND)

CONTRACTS = frozenset(
    {
        Kind.CONTRACT,
        Kind.CONTRACT_NO_MP,
        Kind.CONTRACT_NO_FI,
        Kind.CONTRACT_NO_COUNTER,
        Kind.PRIORITY_CONTRACT,
    }
)
COUNTERS = frozenset(k.kind for k in KINDS if k.category is Category.COUNTER)


@dataclass(frozen=True)
class Family:
    id: str
    name: str
    members: tuple[tuple[str, str], ...]  # (mobster id, display name)


def _family(fid: str, name: str, *members: str) -> Family:
    def slug(person: str) -> str:
        return "".join(c if c.isalnum() else "-" for c in person.lower()).strip("-")

    return Family(fid, name, tuple((slug(m), m) for m in members))


# Six historical gangs of the earlier English edition; the names are public historical figures.
FAMILIES: tuple[Family, ...] = (
    _family(
        "capone",
        "Capone Mob",
        "Al Capone",
        "Frank Nitti",
        "Jake Guzik",
        "Tony Accardo",
        "Murray Humphreys",
        "Paul Ricca",
        "Sam Giancana",
        "Frank Capone",
        "Ralph Capone",
    ),
    _family(
        "murder-inc",
        "Murder Inc.",
        "Louis Lepke",
        "Albert Anastasia",
        "Abe Reles",
        "Harry Strauss",
        "Frank Abbandando",
        "Louis Capone",
        "Mendy Weiss",
        "Martin Goldstein",
        "Harry Maione",
    ),
    _family(
        "moran",
        "Moran Gang",
        "Bugs Moran",
        "Hymie Weiss",
        "Dean O'Banion",
        "Vincent Drucci",
        "Frank Gusenberg",
        "Pete Gusenberg",
        "Albert Kachellek",
        "Adam Heyer",
        "Leo Mongoven",
    ),
    _family(
        "purple",
        "Purple Gang",
        "Abe Bernstein",
        "Joe Bernstein",
        "Ray Bernstein",
        "Izzy Bernstein",
        "Harry Fleisher",
        "Sam Fleisher",
        "Harry Keywell",
        "Phil Keywell",
        "Irving Milberg",
    ),
    _family(
        "new-york",
        "New York Mob",
        "Lucky Luciano",
        "Meyer Lansky",
        "Bugsy Siegel",
        "Frank Costello",
        "Vito Genovese",
        "Joe Masseria",
        "Salvatore Maranzano",
        "Dutch Schultz",
        "Arnold Rothstein",
    ),
    _family(
        "bank-robbers",
        "Bank Robbers",
        "John Dillinger",
        "Baby Face Nelson",
        "Pretty Boy Floyd",
        "Machine Gun Kelly",
        "Alvin Karpis",
        "Ma Barker",
        "Clyde Barrow",
        "Bonnie Parker",
        "Homer Van Meter",
    ),
)

FAMILY_BY_ID: dict[str, Family] = {f.id: f for f in FAMILIES}
MOBSTER_FAMILY: dict[str, str] = {m: f.id for f in FAMILIES for m, _ in f.members}
MOBSTER_NAME: dict[str, str] = {m: n for f in FAMILIES for m, n in f.members}

HAND_LIMIT = 6
STARTING_HAND = 5
MOB_WAR_LIST_THRESHOLD = 6  # a war starts with this many on the Hit List
MOB_WAR_SURVIVOR_THRESHOLD = 6  # ...or when this few mobsters are left in the game
