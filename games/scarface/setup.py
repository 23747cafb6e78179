"""Table options and the events that start a game (S-3, SR-35, SR-45, SR-77; sandbox
stacking SR-74)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import events as ev
from .content import CONTENT_VERSION, CONTENTS, END_NEWS, GANGS, starting_cards
from .ctx import Ctx
from .errors import RuleViolation
from .evolve import replay
from .flow import start_turn
from .rng import choice, seed_hash, shuffled
from .state import GameState
from .versions import RULES_VERSION

MIN_PLAYERS, MAX_PLAYERS = 2, 4
STACKABLE = ("jobs", "dealers", "associates.low", "associates.high", "raids", "news")


def _bad(message: str, field: str) -> RuleViolation:
    return RuleViolation("bad_options", message, field=field)


def validate_options(raw: Mapping[str, Any], seats: int, *, sandbox: bool) -> dict[str, Any]:
    """``players[i].gang`` (distinct among the four, else the default order), sandbox-only
    ``stacked``; anything else is ``bad_options`` naming the ``field``."""
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise _bad("Scarface 1920 takes 2 to 4 seats.", "seats")
    unknown = set(raw) - {"players", "stacked", "content_version"}
    if unknown:
        raise _bad(f"Unknown option(s): {', '.join(sorted(unknown))}.", sorted(unknown)[0])
    gangs = list(GANGS[:seats])
    players = raw.get("players")
    if players is not None:
        if not isinstance(players, list) or len(players) != seats:
            raise _bad("'players' lists one entry per seat.", "players")
        chosen = []
        for i, entry in enumerate(players):
            gang = entry.get("gang") if isinstance(entry, dict) else None
            if gang not in GANGS:
                raise _bad(
                    f"players[{i}].gang names one of {', '.join(GANGS)}.", f"players.{i}.gang"
                )
            chosen.append(gang)
        if len(set(chosen)) != len(chosen):
            raise _bad("Each seat plays a different gang.", "players")
        gangs = chosen
    content = raw.get("content_version", CONTENT_VERSION)
    if content not in CONTENTS:
        raise _bad(f"Unknown content version {content!r}.", "content_version")
    stacked = raw.get("stacked") or {}
    if stacked and not sandbox:
        raise _bad("Only sandbox tables take stacked decks.", "stacked")
    if not isinstance(stacked, dict):
        raise _bad("'stacked' is an object.", "stacked")
    for key, value in stacked.items():
        if key == "first_seat":
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
                raise _bad("stacked.first_seat is a seat.", "stacked.first_seat")
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _bad(f"stacked.{key} is a list of card ids.", f"stacked.{key}")
        if key == "news" and (len(value) > 4 or END_NEWS in value):
            raise _bad("stacked.news: at most 4 ids, never w16.", "stacked.news")
    return {"gangs": gangs, "stacked": dict(stacked), "content_version": content}


def setup_events(
    names: Sequence[str],
    options: Mapping[str, Any],
    seed: str,
    salt: str = "",
    *,
    rules_version: int = RULES_VERSION,
) -> tuple[Any, ...]:
    n = len(names)
    content_version = str(options.get("content_version", CONTENT_VERSION))
    tables = CONTENTS[content_version]
    gangs = tuple(options.get("gangs") or GANGS[:n])
    stacked: dict[str, Any] = dict(options.get("stacked") or {})

    def deck(key: str, cards: Sequence[str], label: str) -> tuple[str, ...]:
        top = [c for c in stacked.get(key, ()) if c in cards]
        rest = [c for c in cards if c not in top]
        return (*top, *shuffled(rest, seed, label))

    first = stacked.get("first_seat")
    first_seat = int(first) if first is not None else choice(list(range(n)), seed, "first_seat")
    low = [a.id for a in tables.associates.values() if a.stars <= 3]
    high = [a.id for a in tables.associates.values() if a.stars >= 4]
    news_pool = [w for w in tables.news if w != END_NEWS]
    news = deck("news", news_pool, "news:setup")[: tables.news_in_deck]
    decks = {
        "associates.low": list(deck("associates.low", low, "associates.low:setup")),
        "associates.high": list(deck("associates.high", high, "associates.high:setup")),
        "jobs": list(deck("jobs", list(tables.jobs), "jobs:setup")),
        "dealers": list(deck("dealers", list(tables.dealers), "dealers:setup")),
        "raids": list(deck("raids", list(tables.raids), "raids:setup")),
        "news": [*news, END_NEWS],  # SR-32
    }
    reshuffles = {
        k: v
        for k, v in stacked.items()
        if k.startswith(("reshuffle.", "raids.reshuffle.", "deck."))
    }
    ctx = Ctx(GameState())
    ctx.emit(
        ev.GameStarted(
            rules_version=rules_version,
            content_version=content_version,
            names=tuple(names),
            gangs=gangs,
            first_seat=first_seat,
            seed_hash=seed_hash(seed, salt),
            salt=salt,
            seed=seed,
            stacked={**decks, **reshuffles},
        )
    )
    for row, slots, key in (("low", tables.low_slots, "associates.low"),
                            ("high", tables.high_slots, "associates.high")):  # fmt: skip
        cards = tuple(decks[key][:slots])
        ctx.emit(ev.MarketChanged(row, cards, len(cards)))  # SR-45: the top card leftmost
    for seat, gang in enumerate(gangs):
        cards = deck(f"deck.{seat}", starting_cards(gang), f"deck:{seat}:setup")
        ctx.emit(ev.DeckShuffled(str(seat), cards, "setup"))
        ctx.emit(ev.CardsDrawn(seat, cards[:3]))
    for k in range(n):  # SR-45: three at a time from the first player clockwise
        seat = (first_seat + k) % n
        ctx.emit(ev.JobsDealt(seat, ctx.state.job_deck[:3]))
    start_turn(ctx, first_seat)
    return tuple(ctx.events)


def initial_state(names: Sequence[str], seed: str = "seed", **options: Any) -> GameState:
    return replay(setup_events(names, options, seed))
