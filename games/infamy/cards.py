"""The game's content: the board, the 13 contacts (seed), and the stand-in jobs, schemes
and reputation perks. The tables here are the newest content, ``infamy/standin-1`` (the
specification's stand-in tables as tuned for balance, 8f703e7); ``content.py`` keeps every
content version the engine still plays, the specification's ``infamy/standin-0`` as the
differences from these (docs/rules-infamy.md "Stand-in data").

Everything marked ``reconstructed`` is our own invention where no public source gives the
printed content; a corrected set is a new ``CONTENT_VERSION``.
"""

from __future__ import annotations

from dataclasses import dataclass

CONTENT_VERSION = "infamy/standin-1"  # the newest: what a new table gets

FACTIONS = ("harada", "trust", "pkd")
FACTION_NAMES = {"harada": "Harada Cartel", "trust": "Trust Megacorp", "pkd": "PKD Militia"}
RESOURCES = ("weapon", "data", "compound")
ASSETS = ("henchman", "favor")  # bribes are counted apart (available / spent / on contacts)
TOKENS = (*RESOURCES, *ASSETS)
# I-1.6 component counts (henchmen: IR-1). Hazards 4, Watchdogs 2, bribes 12 per colour.
SUPPLY: dict[str, int] = {"weapon": 18, "data": 18, "compound": 18, "henchman": 20, "favor": 6}
HAZARDS = 4
WATCHDOGS = 2
BRIBES = 12
COLOURS = ("pink", "teal", "brown", "yellow")  # I-1.2; black is the accomplice's (I-1.3)
SECTORS = (1, 2, 3, 4, 5, 6)
SPACE_KINDS = ("job", "hq", "supply")
WIN_INFAMY = 15
WIN_REPUTATION = 5
CONTACT_TRACK = 5


@dataclass(frozen=True)
class Sector:
    """ISD-1 [STAND-IN]: which faction's HQ and which supply each sector shows."""

    number: int
    name: str
    hq: str  # faction id
    supply: str  # a resource, "henchman", or "special" (sector 2, I-5.4) [SEED]


BOARD: dict[int, Sector] = {
    s.number: s
    for s in (
        Sector(1, "Landing Docks", "pkd", "weapon"),
        Sector(2, "Night Market", "harada", "special"),
        Sector(3, "Refinery", "harada", "compound"),
        Sector(4, "Hab Stacks", "pkd", "henchman"),
        Sector(5, "Relay Spire", "trust", "data"),
        Sector(6, "Deep Shafts", "trust", "weapon"),
    )
}
SUPPLY_SPACES = tuple(f"{s}/{k}" for s in SECTORS for k in ("hq", "supply"))
NON_FACTION_SPACES = tuple(f"{s}/supply" for s in SECTORS)


@dataclass(frozen=True)
class Contact:
    """I-4.8 [SEED]: the 13 contacts, ids in the seed's order."""

    id: str
    name: str
    factions: tuple[str, ...]
    text: str


CONTACTS: dict[str, Contact] = {
    c.id: c
    for c in (
        Contact(
            "c01",
            "Accomplice",
            (),
            "Control the black accomplice this round; gain no "
            "Reputation from now until the round ends.",
        ),
        Contact("c02", "Arms Dealer", ("pkd",), "Gain 2 weapons."),
        Contact("c03", "Chemist", ("harada",), "Gain 2 compound."),
        Contact("c04", "Cloner", (), "Gain 1 henchman."),
        Contact("c05", "Fixer", (), "Gain 1 favor. A favor cannot win the Fixer."),
        Contact("c06", "Hacker", ("trust",), "Gain 2 data."),
        Contact(
            "c07",
            "Informant",
            ("trust",),
            "Draw 2 schemes, discard 1; play one extra scheme this round.",
        ),
        Contact("c08", "Liaison", (), "Gain 2 Infamy, or 1 Reputation with a faction."),
        Contact("c09", "Peddler", ("harada", "trust", "pkd"), "Gain 1 resource of your choice."),
        Contact(
            "c10",
            "Saboteur",
            (),
            "You may sabotage an available job, then place a hazard on a non-faction supply space.",
        ),
        Contact(
            "c11",
            "Sector Chief",
            (),
            "Add the supply's Watchdog to a sector; your figures "
            "ignore Watchdogs this round; at its end remove a Watchdog.",
        ),
        Contact(
            "c12",
            "Smuggler",
            (),
            "Day: you may forgo a placement for 1 resource and 1 "
            "scheme. Night: your supply effects happen twice.",
        ),
        Contact(
            "c13",
            "Thug",
            ("harada",),
            "Name a rival and a resource: it spends 3 bribes or gives you 1 of it.",
        ),
    )
}
CONTACT_IDS = tuple(CONTACTS)
ACCOMPLICE, FIXER, INFORMANT, LIAISON, PEDDLER = "c01", "c05", "c07", "c08", "c09"
SABOTEUR, SECTOR_CHIEF, SMUGGLER, THUG = "c10", "c11", "c12", "c13"
# Rewards that are plain gains, resolved at once without a choice.
CONTACT_GAINS: dict[str, tuple[tuple[str, int], ...]] = {
    "c02": (("weapon", 2),),
    "c03": (("compound", 2),),
    "c04": (("henchman", 1),),
    "c05": (("favor", 1),),
    "c06": (("data", 2),),
}


@dataclass(frozen=True)
class Job:
    """ISD-2 [STAND-IN]. ``requires`` counts tokens by kind; ``reward`` names one effect
    (see ``JOB_REWARDS``); ``infamy``/``rep`` are the job's values (rep to one faction)."""

    id: str
    name: str
    type: str  # "V" | "I" | "U"
    sector: int
    requires: tuple[tuple[str, int], ...]
    reward: str
    infamy: int
    rep: int
    factions: tuple[str, ...]


_REQ = {"W": "weapon", "D": "data", "C": "compound", "H": "henchman", "F": "favor"}
_FAC = {"Ha": "harada", "Tr": "trust", "PK": "pkd"}
# Job rewards (I-6.2 resolves them before i and R): what each code does.
JOB_REWARDS: dict[str, str] = {
    "": "-",
    "henchman": "+1 henchman",
    "draw": "draw 1 scheme (any deck)",
    "remove_hazard": "remove 1 hazard (any)",
    "sabotage": "may sabotage 1 available job",
    "compound": "+1 compound",
    "recover1": "recover 1 spent bribe",
    "recover2": "recover 2 spent bribes",
    "hazard": "place 1 hazard (mandatory if any in supply)",
    "move_watchdog": "move 1 Watchdog to a different sector",
}


def _job(row: str) -> Job:
    jid, name, kind, sector, req, reward, i, r, facs = (x.strip() for x in row.split("|"))
    requires = tuple((_REQ[t[0]], int(t[1:])) for t in req.split())
    factions = tuple(_FAC[f.strip()] for f in facs.split(","))
    return Job(jid, name, kind, int(sector), requires, reward, int(i), int(r), factions)


# id | name | type | sector | requires | reward | i | R | factions   (ISD-2, tuned: see docs)
_JOBS = """
j01 | Dock Shakedown | V | 1 | W2 H1 |  | 2 | 0 | PK
j02 | Cargo Skim | U | 1 | W1 D1 C1 | henchman | 1 | 0 | Ha, PK
j03 | Manifest Forgery | I | 1 | D1 C1 | draw | 1 | 0 | Tr
j04 | Hauler Hijack | V | 1 | W3 H1 |  | 3 | 0 | PK, Ha
j05 | Port Authority Buyout | I | 1 | D2 C1 F1 |  | 2 | 1 | Tr, PK
j06 | Fence the Goods | U | 2 | W1 C1 H1 |  | 1 | 0 | Ha
j07 | Rig the Fight Pits | V | 2 | W2 C1 |  | 2 | 0 | Ha, PK
j08 | Counterfeit Scrip | I | 2 | D2 C1 |  | 1 | 1 | Tr, Ha
j09 | Protection Racket | U | 2 | W2 H2 | remove_hazard | 2 | 0 | Ha
j10 | Auction of Secrets | U | 2 | D2 C2 |  | 1 | 1 | Ha, Tr
j11 | Spike the Batch | U | 3 | C2 H1 |  | 1 | 0 | Ha
j12 | Wreck the Still | V | 3 | W2 D1 | sabotage | 2 | 0 | PK, Tr
j13 | Cook the Ledger | I | 3 | D1 C1 | compound | 1 | 0 | Ha
j14 | Refinery Takeover | V | 3 | W2 C1 H2 |  | 4 | 0 | Ha, PK
j15 | Formula Theft | U | 3 | W1 D2 H1 |  | 1 | 1 | Tr, PK
j16 | Rally the Miners | I | 4 | C1 H1 |  | 1 | 0 | PK
j17 | Blackmail the Foreman | I | 4 | D1 H1 | recover1 | 0 | 1 | Tr, PK
j18 | Riot | V | 4 | W2 H1 | hazard | 2 | 0 | PK
j19 | Tenement Racket | U | 4 | C1 H2 |  | 1 | 0 | Ha
j20 | Uprising | V | 4 | W3 H2 |  | 3 | 1 | PK
j21 | Wiretap | I | 5 | D2 | move_watchdog | 0 | 1 | Tr
j22 | Wipe the Records | U | 5 | D2 C1 |  | 1 | 0 | Tr, Ha
j23 | Bribe an Auditor | I | 5 | W1 D1 C1 | recover2 | 1 | 1 | Tr
j24 | Tower Break-in | V | 5 | W2 D2 |  | 3 | 0 | PK, Tr
j25 | Board Seat Coup | I | 5 | D3 F1 |  | 0 | 1 | Tr
j26 | Claim Jumping | U | 6 | W1 C1 H1 |  | 1 | 0 | Tr, PK
j27 | Shaft Collapse | V | 6 | W2 D1 H1 | hazard | 3 | 0 | PK, Ha
j28 | Geodesite Skim | U | 6 | C1 H1 |  | 1 | 0 | Ha
j29 | Buy the Survey | I | 6 | W1 D1 C1 |  | 1 | 0 | Tr
j30 | Dig Site Massacre | V | 6 | W3 C1 H2 |  | 5 | 0 | PK
"""
JOBS: dict[str, Job] = {j.id: j for j in map(_job, _JOBS.strip().splitlines())}
JOB_IDS = tuple(JOBS)


@dataclass(frozen=True)
class SchemeDesign:
    """ISD-3 [STAND-IN]: one of the 10 designs of a faction (two copies each)."""

    faction: str
    number: int
    name: str
    round: str  # "any" | "day" | "night" (IR-29)
    text: str


_SCHEMES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "harada": (
        ("Compound Shipment", "any", "Gain 2 compound."),
        ("Street Dealers", "any", "Pay 1 compound: gain 1 henchman."),
        ("Shakedown", "any", "Steal 1 resource of a chosen type from a chosen rival."),
        ("Cut the Supply", "any", "Place 1 hazard; gain 1 compound."),
        ("Launder the Take", "any", "Pay 2 compound: gain 2 Infamy."),
        ("Loyal Soldiers", "night", "Gain 1 henchman; then, with 4+ henchmen, gain 1 Infamy."),
        ("Black Market Swap", "any", "Return up to 2 resources; gain as many of your choice."),
        (
            "Cartel Patronage",
            "any",
            "Pay 3 compound and 1 henchman: gain 1 Reputation with Harada.",
        ),
        ("Hit Squad", "any", "A chosen rival returns 1 henchman to the supply."),
        ("Bought Officials", "day", "Recover 2 spent bribes; gain 1 compound."),
    ),
    "trust": (
        ("Tip Off the Watchdogs", "any", "Move 1 Watchdog to a different sector."),
        ("Data Mining", "any", "Gain 2 data."),
        ("Insider Trading", "any", "Steal 1 data from a chosen rival."),
        ("Audit", "any", "Sabotage up to 2 available jobs, in the order given."),
        ("Shell Company", "any", "Recover 3 spent bribes."),
        ("Call in a Favor", "any", "Pay 3 data: gain 1 favor."),
        ("Press Release", "any", "Pay 3 data: gain 1 Reputation with Trust."),
        ("Industrial Espionage", "any", "Steal 1 random scheme from a chosen rival's hand."),
        ("Clean Sweep", "any", "Remove 1 hazard; gain 1 data."),
        ("Informer Network", "any", "Draw 2 schemes (any decks), then discard 1 scheme."),
    ),
    "pkd": (
        ("Arms Cache", "any", "Gain 2 weapons."),
        ("Recruit Rebels", "any", "Gain 1 henchman and 1 weapon."),
        ("Raid a Convoy", "any", "Steal 1 weapon or 1 compound from a chosen rival."),
        ("Bombing", "any", "Place 1 hazard; gain 1 Infamy."),
        ("Propaganda", "any", "Pay 3 weapons: gain 1 Reputation with PKD."),
        ("Martyrdom", "night", "Pay 2 henchmen: gain 3 Infamy."),
        ("Cut the Lines", "any", "Sabotage up to 1 available job; remove up to 1 hazard."),
        ("Armed Escort", "any", "Gain 1 weapon; recover 1 spent bribe."),
        ("General Strike", "day", "Move 1 Watchdog to a different sector; gain 1 weapon."),
        ("Cell Network", "any", "Draw 1 scheme (any deck); gain 1 data."),
    ),
}
SCHEME_PREFIX = {"harada": "h", "trust": "t", "pkd": "m"}
SCHEMES: dict[str, SchemeDesign] = {}
for _faction, _designs in _SCHEMES.items():
    for _n, (_name, _round, _text) in enumerate(_designs, start=1):
        for _copy in (2 * _n - 1, 2 * _n):
            SCHEMES[f"{SCHEME_PREFIX[_faction]}{_copy:02d}"] = SchemeDesign(
                _faction, _n, _name, _round, _text
            )
SCHEME_IDS = tuple(SCHEMES)


_PREFIX_FACTION = {p: f for f, p in SCHEME_PREFIX.items()}


def scheme_faction(card: str) -> str:
    """The faction of a scheme card, read from its id's prefix (a bot's observation keeps
    a deck's faction on its hidden placeholders, ``view.observe``)."""
    return _PREFIX_FACTION[card[0]]


def faction_schemes(faction: str) -> tuple[str, ...]:
    return tuple(c for c, d in SCHEMES.items() if d.faction == faction)


@dataclass(frozen=True)
class Perk:
    """ISD-4 [STAND-IN] (Trust level 1, Stringer, is the seed's): applied when the level is
    first reached (I-9.2); level 3 pays ``income`` each Day (IR-37)."""

    name: str
    gains: tuple[tuple[str, int], ...] = ()
    draw: bool = False  # draw 1 scheme of the perk's faction
    income: str = ""


PERKS: dict[str, tuple[Perk, ...]] = {  # levels 1..4 (5 is victory)
    "trust": (
        Perk("Stringer", (("data", 1),)),
        Perk("Asset", (("henchman", 1),), draw=True),
        Perk("Handler", income="data"),
        Perk("Director", (("infamy", 1),)),
    ),
    "harada": (
        Perk("Runner", (("compound", 1),)),
        Perk("Cook", (("henchman", 1),), draw=True),
        Perk("Lieutenant", income="compound"),
        Perk("Underboss", (("infamy", 1),)),
    ),
    "pkd": (
        Perk("Sympathizer", (("weapon", 1),)),
        Perk("Cell Member", (("henchman", 1),), draw=True),
        Perk("Commander", income="weapon"),
        Perk("Warlord", (("infamy", 1),)),
    ),
}
