"""The stand-in data of Scarface 1920, in one module: the rules read every number from a
``Content``, chosen by the state's ``content_version`` (the one its ``GameStarted``
recorded, never the newest: ``evolve.content_of``).

- ``scarface/standin-0``: the specification's SSD-1..SSD-13, exactly (``STANDIN``).
- ``scarface/standin-1`` (the newest, what a new table gets): standin-0 tuned for balance
  (issue 33; docs/rules-scarface.md "Content standin-1"), kept here as its differences
  from standin-0 (``TUNED``).

Every table here is STAND-IN (invented to keep the game playable), except the names the
specification marks [PUB]; views mark all of it ``"reconstructed": true``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

STANDIN_0 = "scarface/standin-0"
STANDIN_1 = "scarface/standin-1"

GANGS: tuple[str, ...] = ("outfit", "wolves", "gems", "northside")
GANG_NAMES: dict[str, str] = {
    "outfit": "Chicago Outfit",
    "wolves": "Black Wolves",
    "gems": "Seven Gems",
    "northside": "North Side Gang",
}
BOSS_NAMES: dict[str, str] = {
    "outfit": "Al Capone",
    "wolves": "Stephanie St. Clair",
    "gems": "Arnold Rothstein",
    "northside": "Dean O'Banion",
}
GOODS: tuple[str, ...] = ("alcohol", "gun")
BUSINESSES: tuple[str, ...] = ("speakeasy", "gambling_den", "laundry_front")  # SR-25
COLUMNS: tuple[str, ...] = (
    "hand_limit", "lawyer", "recruiter", "dealer_support", "car_dealer", "nightclub",
)  # fmt: skip
DISTRICTS: tuple[str, ...] = ("D1", "D2", "D3", "D4", "D5", "D6", "D7")
THUG_BOXES: tuple[str, ...] = ("slums", "safe", "hq")
AREAS: tuple[str, ...] = ("underworld", "authorities", "prison")


@dataclass(frozen=True)
class District:
    id: str
    name: str
    adjacent: tuple[str, ...]


@dataclass(frozen=True)
class TileCard:
    id: str
    name: str
    district: str
    defence: int
    sale: tuple[tuple[str, int], ...]  # goods paid: (good, n)
    money: int
    home_of: str | None = None


@dataclass(frozen=True)
class GangCard:
    id: str
    name: str
    type: str  # crime type
    muscle: int
    influence: int
    skill: str | None  # a skill id (skills.py), None: no skill


@dataclass(frozen=True)
class Associate:
    id: str
    name: str
    type: str
    stars: int
    muscle: int
    influence: int
    skill: str | None


@dataclass(frozen=True)
class Dealer:
    id: str
    name: str
    muscle: int
    influence: int
    supply: tuple[tuple[str, int], ...]
    capacity: int
    storage: str  # "alcohol", "gun" or "either" (the Police Captain: chosen when kept)


@dataclass(frozen=True)
class JobCard:
    id: str
    name: str
    permanent: bool
    have: str | None  # a Have condition id
    plan: tuple[str, int] | None  # ("muscle" | "influence", at least)
    spend: tuple[tuple[str, int], ...]  # ("money" | good, n)
    reward: str  # a reward id (jobs.py)
    text: str


@dataclass(frozen=True)
class RaidCard:
    id: str
    name: str
    design: str


@dataclass(frozen=True)
class NewsCard:
    id: str
    name: str
    kind: str  # "lasting" | "now" | "end"
    design: str


@dataclass(frozen=True)
class Slot:
    column: str
    slot: int
    muscle: int
    influence: int
    money: int
    crime: int


@dataclass(frozen=True)
class Content:
    id: str
    districts: Mapping[str, District]
    tiles: Mapping[str, TileCard]
    homes: Mapping[str, str]  # gang -> home tile
    boss_skills: Mapping[str, tuple[str, str, str, str]]  # gang -> its 4 skill ids
    boss_types: Mapping[str, str]
    gang_cards: Mapping[str, GangCard]  # every gang's 9 non-boss cards, by id
    associates: Mapping[str, Associate]
    dealers: Mapping[str, Dealer]
    jobs: Mapping[str, JobCard]
    raids: Mapping[str, RaidCard]
    news: Mapping[str, NewsCard]
    slots: Mapping[str, tuple[Slot, ...]]  # column -> its slots in order
    business_counts: Mapping[str, int]  # SSD-3
    hat_spaces: tuple[int, ...]
    boss_track_end: int
    time_start: Mapping[int, int]  # player count -> start space
    extra_space: int
    low_slots: int
    high_slots: int
    police_cars: int
    news_in_deck: int


def _districts() -> dict[str, District]:
    rows = [
        ("D1", "The Loop", "D2 D3 D4 D5 D6 D7"),
        ("D2", "Near North Side", "D1 D3 D7"),
        ("D3", "Lincoln Park", "D1 D2 D4"),
        ("D4", "West Side", "D1 D3 D5"),
        ("D5", "Little Italy", "D1 D4 D6"),
        ("D6", "Back of the Yards", "D1 D5 D7"),
        ("D7", "South Side", "D1 D6 D2"),
    ]
    return {d: District(d, name, tuple(adj.split())) for d, name, adj in rows}


def _sale(text: str) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for part in text.split():
        out.append(("alcohol" if part[0] == "A" else "gun", int(part[1:])))
    return tuple(out)


def _tiles() -> dict[str, TileCard]:
    rows = [
        ("n01", "State Street", "D1", 5, "A2", 12, None),
        ("n02", "LaSalle Street", "D1", 5, "G2", 14, None),
        ("n03", "Printer's Row", "D1", 4, "A1", 7, None),
        ("n04", "Randolph Street", "D1", 4, "A1 G1", 13, None),
        ("n05", "River North", "D2", 3, "A2", 10, "northside"),
        ("n06", "Streeterville", "D2", 4, "G1", 8, None),
        ("n07", "Towertown", "D2", 3, "A1", 6, None),
        ("n08", "Lincoln Park", "D3", 3, "A1", 6, None),
        ("n09", "Lakeview", "D3", 2, "G1", 7, None),
        ("n10", "Garfield Park", "D4", 3, "A2", 10, "wolves"),
        ("n11", "Austin", "D4", 2, "A1", 6, None),
        ("n12", "Taylor Street", "D5", 3, "A2", 10, "gems"),
        ("n13", "Maxwell Street", "D5", 2, "G1", 7, None),
        ("n14", "Greektown", "D5", 3, "A1", 6, None),
        ("n15", "Packingtown", "D6", 2, "G1", 7, None),
        ("n16", "Bridgeport", "D6", 3, "A1", 6, None),
        ("n17", "Bronzeville", "D7", 3, "A1 G1", 12, None),
        ("n18", "The Levee", "D7", 3, "A2", 10, "outfit"),
    ]
    return {t: TileCard(t, n, d, df, _sale(s), m, h) for t, n, d, df, s, m, h in rows}


BOSS_SKILLS: dict[str, tuple[str, str, str, str]] = {
    "outfit": ("money2", "add_business", "muscle1", "crime_down1"),
    "gems": ("influence1", "crime_down1", "money2", "free1"),
    "wolves": ("muscle1", "per_den1", "move_thug", "money2"),
    "northside": ("alcohol1", "move_vehicle", "influence1", "money2"),
}
BOSS_TYPES: dict[str, str] = {
    "outfit": "violence", "gems": "corruption", "wolves": "gambling", "northside": "bootlegging",
}  # fmt: skip


def _gang_cards() -> dict[str, GangCard]:
    out: dict[str, GangCard] = {}
    for g in GANGS:
        common = [
            ("s1", "Soldier", "violence", 2, 0, None),
            ("s2", "Soldier", "violence", 2, 0, None),
            ("s3", "Consigliere", "corruption", 0, 2, None),
            ("s4", "Bookkeeper", "gambling", 0, 1, "money1"),
            ("s5", "Driver", "bootlegging", 1, 1, "move_vehicle"),
            ("h1", "Chauffeur", "bootlegging", 1, 1, "chauffeur"),
        ]
        for suffix, name, kind, m, i, skill in common:
            out[f"{g}-{suffix}"] = GangCard(f"{g}-{suffix}", name, kind, m, i, skill)
    hats = [
        ("outfit-h2", "Treasurer", "corruption", 0, 3, "money3"),
        ("outfit-h3", "Enforcer", "violence", 3, 1, None),
        ("outfit-h4", "Union Boss", "corruption", 2, 2, "add_business"),
        ("gems-h2", "Lawyer", "corruption", 0, 3, "crime_down2"),
        ("gems-h3", "Bagman", "corruption", 1, 2, "money2"),
        ("gems-h4", "Bookmaker", "gambling", 1, 3, "per_marker1"),
        ("wolves-h2", "Policy Banker", "gambling", 0, 3, "money3"),
        ("wolves-h3", "Street Captain", "violence", 3, 1, "send_thug"),
        ("wolves-h4", "Shooter", "violence", 4, 0, None),
        ("northside-h2", "Brewer", "bootlegging", 1, 2, "alcohol2"),
        ("northside-h3", "Truck Boss", "bootlegging", 2, 1, "truck_boss"),
        ("northside-h4", "Gunner", "violence", 3, 1, "gun1"),
    ]
    for cid, name, kind, m, i, skill in hats:
        out[cid] = GangCard(cid, name, kind, m, i, skill)
    return out


def _associates() -> dict[str, Associate]:
    rows = [
        (1, 2, "Ward Heeler", "corruption", 1, 0, 1, "money1"),
        (3, 4, "Beat Cop", "corruption", 1, 1, 0, "m:crime_down1"),
        (5, 6, "Bail Bondsman", "corruption", 2, 0, 2, "free1"),
        (7, 8, "Court Clerk", "corruption", 2, 1, 1, "m:influence1"),
        (9, 10, "City Treasurer", "corruption", 3, 0, 2, "m:tax1"),
        (11, 11, "Precinct Captain", "corruption", 3, 1, 2, "crime_down1"),
        (12, 13, "Judge", "corruption", 4, 0, 3, "judge"),
        (14, 15, "Alderman", "corruption", 5, 1, 4, "alderman"),
        (16, 17, "Street Tough", "violence", 1, 1, 0, None),
        (18, 19, "Lookout", "violence", 1, 0, 1, "move_thug"),
        (20, 21, "Gunman", "violence", 2, 2, 0, "m:muscle1"),
        (22, 23, "Wheelman", "violence", 2, 1, 1, "move_vehicle"),
        (24, 25, "Strong-Arm", "violence", 3, 3, 0, "strong_arm"),
        (26, 26, "Torpedo", "violence", 3, 2, 1, "m:send_thug"),
        (27, 28, "Machine Gunner", "violence", 4, 4, 0, "m:muscle2"),
        (29, 30, "Hitman", "violence", 5, 4, 1, "hitman"),
        (31, 32, "Bathtub Brewer", "bootlegging", 1, 0, 1, "alcohol1"),
        (33, 34, "Rumrunner", "bootlegging", 1, 1, 0, "move_truck"),
        (35, 36, "Warehouse Keeper", "bootlegging", 2, 1, 1, "warehouse"),
        (37, 38, "Cooper", "bootlegging", 2, 0, 2, "m:alcohol2"),
        (39, 40, "Distiller", "bootlegging", 3, 1, 1, "alcohol2"),
        (41, 41, "Gun Runner", "bootlegging", 3, 2, 1, "gun1"),
        (42, 43, "Canadian Connection", "bootlegging", 4, 1, 2, "canadian"),
        (44, 45, "Rail Baron", "bootlegging", 5, 2, 2, "rail_baron"),
        (46, 47, "Numbers Runner", "gambling", 1, 0, 1, "money1"),
        (48, 49, "Card Sharp", "gambling", 1, 1, 0, "m:money2"),
        (50, 51, "Bookie", "gambling", 2, 0, 2, "per_den1"),
        (52, 53, "Croupier", "gambling", 2, 1, 1, "m:add_den"),
        (54, 55, "Policy King", "gambling", 3, 1, 2, "money3"),
        (56, 56, "Race Fixer", "gambling", 3, 2, 1, "m:per_den2"),
        (57, 58, "Casino Manager", "gambling", 4, 1, 3, "casino"),
        (59, 60, "Kingpin of Bets", "gambling", 5, 2, 3, "per_tile2"),
    ]
    out: dict[str, Associate] = {}
    for first, last, name, kind, stars, m, i, skill in rows:
        for n in range(first, last + 1):
            out[f"a{n:02d}"] = Associate(f"a{n:02d}", name, kind, stars, m, i, skill)
    return out


def _dealers() -> dict[str, Dealer]:
    rows = [
        (1, 5, "Moonshiner", 0, 1, "A1", 3, "alcohol"),
        (6, 9, "Brewery Foreman", 1, 0, "A2", 3, "alcohol"),
        (10, 12, "Canadian Smuggler", 1, 1, "A3", 4, "alcohol"),
        (13, 15, "Pharmacist", 0, 2, "A2", 2, "alcohol"),
        (16, 19, "Pawnbroker", 0, 1, "G1", 2, "gun"),
        (20, 21, "Army Officer", 2, 0, "G2", 3, "gun"),
        (22, 23, "Police Captain", 2, 0, "G2", 3, "either"),
        (24, 27, "Dock Foreman", 1, 0, "A1 G1", 2, "alcohol"),
        (28, 31, "Warehouse Owner", 0, 1, "", 5, "alcohol"),
    ]
    out: dict[str, Dealer] = {}
    for first, last, name, m, i, supply, cap, storage in rows:
        for n in range(first, last + 1):
            out[f"d{n:02d}"] = Dealer(f"d{n:02d}", name, m, i, _sale(supply), cap, storage)
    return out


def _jobs() -> dict[str, JobCard]:
    rows: list[tuple[int, int, JobCard]] = [
        (1, 3, JobCard("", "Protection Money", False, "tiles3", None, (), "money6",
                       "Have: control 3+ tiles. Reward: $6.")),
        (4, 6, JobCard("", "Big Shipment", False, None, None, (("alcohol", 4),), "money12",
                       "Spend: 4 alcohol. Reward: $12.")),
        (7, 9, JobCard("", "Arms Deal", False, None, None, (("gun", 3),), "money12",
                       "Spend: 3 guns. Reward: $12.")),
        (10, 12, JobCard("", "Show of Force", False, None, ("muscle", 5), (), "money6",
                         "Plan: muscle 5+. Reward: $6.")),
        (13, 15, JobCard("", "Political Favor", False, None, ("influence", 4), (), "favor",
                         "Plan: influence 4+. Reward: $3 and crime -2.")),
        (16, 18, JobCard("", "Hire Muscle", False, None, None, (("money", 4),), "recruit3",
                         "Spend: $4. Reward: 3 recruit steps.")),
        (19, 21, JobCard("", "Citywide Reach", False, "districts3", None, (), "money8",
                         "Have: tiles in 3+ districts. Reward: $8.")),
        (22, 23, JobCard("", "Bootleg Run", False, "truck_at_tile", None, (("alcohol", 2),),
                         "money9", "Have: a truck in a district where you control a tile; "
                         "Spend: 2 alcohol. Reward: $9.")),
        (24, 26, JobCard("", "Speakeasy Chain", True, "speakeasies3", None, (), "speakeasy_chain",
                         "Have: 3+ Speakeasies. Permanent: +$1 per Speakeasy at your "
                         "reorganization income.")),
        (27, 29, JobCard("", "Cops on the Payroll", True, None, None, (("money", 6),), "payroll",
                         "Spend: $6. Permanent: you pay no police-car fees.")),
        (30, 32, JobCard("", "Dock Connections", True, None, None, (("alcohol", 2), ("gun", 1)),
                         "dock", "Spend: 2 alcohol and 1 gun. Permanent: +1 alcohol per "
                         "dealer purchase.")),
        (33, 34, JobCard("", "Loyal Crew", True, "thugs6", None, (), "loyal",
                         "Have: 6+ thugs on the board. Permanent: +1 muscle in each plan.")),
        (35, 36, JobCard("", "Numbers Racket", True, "dens2", None, (), "numbers",
                         "Have: 2+ Gambling Dens. Permanent: +$2 at each reorganization.")),
        (37, 38, JobCard("", "Judge in Pocket", True, None, ("influence", 3), (("money", 3),),
                         "judge", "Plan: influence 3+; Spend: $3. Permanent: lawyer +1 (max 3).")),
        (39, 39, JobCard("", "Prison Escape", False, None, ("muscle", 2), (), "escape",
                         "Plan: muscle 2+. Reward: all your thugs in prison to HQ; crime +2.")),
    ]  # fmt: skip
    out: dict[str, JobCard] = {}
    for first, last, card in rows:
        for n in range(first, last + 1):
            jid = f"j{n:02d}"
            out[jid] = JobCard(jid, card.name, card.permanent, card.have, card.plan,
                               card.spend, card.reward, card.text)  # fmt: skip
    return out


def _raids() -> dict[str, RaidCard]:
    rows = [
        (1, 6, "Patrol", "patrol"),
        (7, 10, "Speakeasy Bust", "speakeasy_bust"),
        (11, 14, "Gun Sweep", "gun_sweep"),
        (15, 18, "Warehouse Raid", "warehouse_raid"),
        (19, 22, "Informant Talks", "informant"),
        (23, 26, "Quiet Week", "quiet_week"),
        (27, 28, "Federal Pressure", "federal"),
    ]
    return {
        f"r{n:02d}": RaidCard(f"r{n:02d}", name, design)
        for first, last, name, design in rows
        for n in range(first, last + 1)
    }


def _news() -> dict[str, NewsCard]:
    rows = [
        (1, 2, "Bumper Crop", "lasting", "bumper_crop"),
        (3, 4, "Election Year", "lasting", "election_year"),
        (5, 6, "Gun Control Act", "lasting", "gun_control"),
        (7, 8, "Reform Mayor", "now", "reform_mayor"),
        (9, 10, "Roaring Economy", "now", "roaring_economy"),
        (11, 11, "Massacre Headlines", "now", "massacre"),
        (12, 13, "Police Reinforcements", "now", "reinforcements"),
        (14, 15, "World Series Scandal", "now", "world_series"),
        (16, 16, "Prohibition Ends at Last", "end", "end"),
    ]
    return {
        f"w{n:02d}": NewsCard(f"w{n:02d}", name, kind, design)
        for first, last, name, kind, design in rows
        for n in range(first, last + 1)
    }


def _slots() -> dict[str, tuple[Slot, ...]]:
    rows = [
        ("hand_limit", 1, 2, 4, 1), ("hand_limit", 2, 3, 8, 1),
        ("lawyer", 0, 2, 3, 1), ("lawyer", 1, 3, 6, 1), ("lawyer", 1, 4, 9, 1),
        ("recruiter", 1, 1, 3, 1), ("recruiter", 2, 2, 6, 1), ("recruiter", 2, 3, 9, 1),
        ("dealer_support", 1, 1, 4, 1), ("dealer_support", 2, 2, 8, 1),
        ("car_dealer", 2, 0, 4, 1),
        ("nightclub", 2, 2, 6, 2),
    ]  # fmt: skip
    out: dict[str, list[Slot]] = {c: [] for c in COLUMNS}
    for column, m, i, money, crime in rows:
        out[column].append(Slot(column, len(out[column]) + 1, m, i, money, crime))
    return {c: tuple(s) for c, s in out.items()}


STANDIN: Content = Content(
    id=STANDIN_0,
    districts=_districts(),
    tiles=_tiles(),
    homes={"outfit": "n18", "gems": "n12", "wolves": "n10", "northside": "n05"},
    boss_skills=BOSS_SKILLS,
    boss_types=BOSS_TYPES,
    gang_cards=_gang_cards(),
    associates=_associates(),
    dealers=_dealers(),
    jobs=_jobs(),
    raids=_raids(),
    news=_news(),
    slots=_slots(),
    business_counts={"speakeasy": 12, "gambling_den": 12, "laundry_front": 12, "nightclub": 4},
    hat_spaces=(2, 5, 8, 11),
    boss_track_end=12,
    time_start={2: 2, 3: 1, 4: 0},
    extra_space=4,
    low_slots=5,
    high_slots=3,
    police_cars=3,
    news_in_deck=4,
)


# --- scarface/standin-1: standin-0 tuned for balance (T6, T8; docs/rules-scarface.md) ------

# Al Capone's first boss skill: +1 influence instead of $2 (his business marker stays).
TUNED_BOSS_SKILLS: dict[str, tuple[str, str, str, str]] = {
    **BOSS_SKILLS, "outfit": ("influence1", "add_business", "muscle1", "crime_down1"),
}  # fmt: skip
# tile -> the fields standin-1 changes: two more tiles in the Seven Gems' and North Side's
# home districts, two easier North Side neighbours, home sales evened out
TUNED_TILES: dict[str, dict[str, object]] = {
    "n05": {"money": 11},  # River North (North Side home) $10 -> $11
    "n06": {"defence": 2, "money": 9},  # Streeterville defence 4 -> 2, $8 -> $9
    "n07": {"defence": 2},  # Towertown defence 3 -> 2
    "n09": {"district": "D2"},  # Lakeview: Lincoln Park (D3) -> Near North Side (D2)
    "n12": {"money": 11},  # Taylor Street (Seven Gems home) $10 -> $11
    "n16": {"district": "D5"},  # Bridgeport: Back of the Yards (D6) -> Little Italy (D5)
    "n17": {"money": 11},  # Bronzeville $12 -> $11
    "n18": {"money": 9},  # The Levee (Outfit home) $10 -> $9
}
# column -> each slot's crime: every upgrade after a column's first costs 2 crime (the
# Car Dealer 2, the Nightclub 3), so crime-triggered raids happen (T8)
TUNED_SLOT_CRIME: dict[str, tuple[int, ...]] = {
    "hand_limit": (1, 2), "lawyer": (1, 2, 2), "recruiter": (1, 2, 2),
    "dealer_support": (1, 2), "car_dealer": (2,), "nightclub": (3,),
}  # fmt: skip


def _tuned() -> Content:
    tiles = {t: replace(card, **TUNED_TILES.get(t, {})) for t, card in STANDIN.tiles.items()}  # type: ignore[arg-type]
    slots = {
        column: tuple(
            replace(s, crime=c) for s, c in zip(row, TUNED_SLOT_CRIME[column], strict=True)
        )
        for column, row in STANDIN.slots.items()
    }
    return replace(STANDIN, id=STANDIN_1, tiles=tiles, boss_skills=TUNED_BOSS_SKILLS, slots=slots)


TUNED: Content = _tuned()

CONTENTS: dict[str, Content] = {STANDIN_0: STANDIN, STANDIN_1: TUNED}
CONTENT_VERSIONS: tuple[str, ...] = tuple(sorted(CONTENTS))  # oldest first
CONTENT_VERSION = CONTENT_VERSIONS[-1]  # what a new table gets: standin-1
TILE_IDS: tuple[str, ...] = tuple(STANDIN.tiles)
END_NEWS = "w16"


def starting_cards(gang: str) -> tuple[str, ...]:
    """The 6 cards a gang's deck starts with (the boss and its 5 starting members)."""
    return (f"{gang}-boss", *(f"{gang}-s{k}" for k in range(1, 6)))


def hat_cards(gang: str) -> tuple[str, ...]:
    return tuple(f"{gang}-h{k}" for k in range(1, 5))


def gang_of(card: str) -> str | None:
    head, sep, _ = card.partition("-")
    return head if sep else None
