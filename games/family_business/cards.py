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
    ABILITY = "ability"  # advanced rules only


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
    # Ability cards (advanced rules only).
    LIBRARIAN = "LIBRARIAN"
    DOPPELGANGER = "DOPPELGANGER"
    CRIME_SCENE_CLEANER = "CRIME_SCENE_CLEANER"
    BUTCHER = "BUTCHER"
    CELEBRITY = "CELEBRITY"
    UNFORGIVING = "UNFORGIVING"
    SHOTGUN = "SHOTGUN"
    SHORT_TEMPERED = "SHORT_TEMPERED"
    POLITICIAN = "POLITICIAN"
    EARLY_BIRD = "EARLY_BIRD"


@dataclass(frozen=True)
class KindInfo:
    kind: Kind
    name: str
    copies: int
    category: Category
    countered_by: frozenset[Kind] = frozenset()
    text: str = ""
    # True while the card's main text is the project's reconstruction (ability cards).
    reconstructed: bool = False


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

# Physical cards: stable instance ids c01..c56 in the order of KINDS.
CARD_KIND: dict[str, Kind] = {}
for _info in KINDS:
    for _ in range(_info.copies):
        CARD_KIND[f"c{len(CARD_KIND) + 1:02d}"] = _info.kind
ACTION_CARDS: tuple[str, ...] = tuple(CARD_KIND)


# --- advanced rules: the 10 ability cards ----------------------------------------------
#
# The rulebook prints only each card's clarification; the main texts below are the
# project's reconstruction (shared/rules/rulings.md) and are shown as "reconstructed".
# A corrected text changes the row here, and its numbers or card sets in ``ABILITY``.


def _ability(kind: Kind, name: str, text: str) -> KindInfo:
    return KindInfo(kind, name, 1, Category.ABILITY, frozenset(), text, reconstructed=True)


ABILITY_KINDS: tuple[KindInfo, ...] = (
    _ability(Kind.LIBRARIAN, "Librarian", "Your hand size limit is 8 instead of 6."),
    _ability(
        Kind.DOPPELGANGER,
        "Doppelganger",
        "This mobster cannot be the target of CONTRACT or PRIORITY CONTRACT "
        "(other cards still reach it).",
    ),
    _ability(
        Kind.CRIME_SCENE_CLEANER,
        "Crime Scene Cleaner",
        "When you draw, you may take each card from the top of the discard pile instead of "
        "the deck, deciding card by card.",
    ),
    _ability(
        Kind.BUTCHER,
        "Butcher",
        "Once per turn of yours, at any moment of it (even before your draw step), you may "
        "discard any number of cards and draw as many; this does not use your card play.",
    ),
    _ability(
        Kind.CELEBRITY,
        "Celebrity",
        "When an opponent's card or counter puts this mobster on the Hit List, its owner "
        "takes the next turn, as if they had countered; this wins over a MOB POWER's turn "
        "change.",
    ),
    _ability(
        Kind.UNFORGIVING,
        "Unforgiving",
        "When this mobster is eliminated, its owner may at once put any one mobster in play "
        "that is not on the Hit List at the end of the Hit List.",
    ),
    _ability(
        Kind.SHOTGUN,
        "Shotgun",
        "Your CONTRACT and PRIORITY CONTRACT may target a second mobster of the same "
        "opponent; counters affect only the first.",
    ),
    _ability(
        Kind.SHORT_TEMPERED,
        "Short-Tempered",
        "After your ATTACK card resolves on your turn, you may play one more ATTACK card.",
    ),
    _ability(
        Kind.POLITICIAN,
        "Politician",
        "If your hand is below your hand size limit at your draw step, draw until you hold "
        "that limit plus 2; if it is at or above the limit, skip drawing.",
    ),
    _ability(
        Kind.EARLY_BIRD,
        "Early Bird",
        "Your CONTRACT cards place their target first on the Hit List, like PRIORITY CONTRACT.",
    ),
)

# Ability cards: ids a01..a10, so the base game's ids (and their order) stay as they are.
ABILITY_CARDS: tuple[str, ...] = tuple(f"a{i + 1:02d}" for i in range(len(ABILITY_KINDS)))
for _card, _info in zip(ABILITY_CARDS, ABILITY_KINDS, strict=True):
    CARD_KIND[_card] = _info.kind
ADVANCED_DECK: tuple[str, ...] = ACTION_CARDS + ABILITY_CARDS
ABILITIES = frozenset(i.kind for i in ABILITY_KINDS)

KIND_INFO: dict[Kind, KindInfo] = {info.kind: info for info in (*KINDS, *ABILITY_KINDS)}


def deck_cards(advanced: bool) -> tuple[str, ...]:
    """Every card of a game: 56 action cards, plus the 10 abilities with the advanced rules."""
    return ADVANCED_DECK if advanced else ACTION_CARDS


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
class AbilityNumbers:
    """The numbers and card sets the reconstructed ability texts name: one place to fix."""

    librarian_hand_limit: int = 8
    politician_over_limit: int = 2
    # Cards whose targets DOPPELGANGER escapes (every CONTRACT variant, PRIORITY CONTRACT).
    doppelganger_shields_from: frozenset[Kind] = CONTRACTS
    # Cards that may name SHOTGUN's second target.
    shotgun_cards: frozenset[Kind] = CONTRACTS
    # Cards EARLY BIRD puts first on the Hit List (not DOUBLE CONTRACT).
    early_bird_cards: frozenset[Kind] = CONTRACTS
    # SHORT-TEMPERED: the category that earns, and is allowed as, the extra card.
    short_tempered_category: Category = Category.ATTACK


ABILITY = AbilityNumbers()


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
