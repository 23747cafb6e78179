"""From a tournament's log and its games' own results to its results, standings, next
seating and standings' history. Pure: the service and the verifier share it.

``natural``: each table's places as its game's record gives them (``Game.placement`` of
its final state), None while it runs; the log says the rest (rulings taken in, games
unfinished at a round's deadline).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournaments import formats
from tournaments.log import Tournament, fold
from tournaments.standings import (
    AWARDED,
    PLAYED,
    RUNNING,
    UNFINISHED,
    VOIDED,
    GameResult,
    RoundResults,
    Standing,
    had_bye,
    met,
    standings,
    standings_json,
)

Natural = Mapping[str, tuple[int, ...] | None]


def game_result(
    t: Tournament,
    table: str,
    entrants: tuple[int, ...],
    natural: Natural,
    *,
    ended: bool,
    unfinished: bool,
) -> GameResult:
    """One game's result: the latest deciding ruling the tournament took in, else nothing
    for a game unfinished at its round's deadline, else the game's own placement."""
    rulings = t.rulings.get(table)
    if rulings:
        ruling, kind, winners = rulings[-1]
        if kind == "void":
            return GameResult(table, entrants, None, VOIDED, ruling)
        places = tuple(1 if s in winners else len(winners) + 1 for s in range(len(entrants)))
        return GameResult(table, entrants, places, AWARDED, ruling)
    if unfinished:
        return GameResult(table, entrants, None, UNFINISHED)
    own = natural.get(table)
    if own is None:
        # over by the log (its round ended by its games) yet no end in its record: the
        # verifier reports it; the service never ends a round so
        return GameResult(table, entrants, None, UNFINISHED if ended else RUNNING)
    return GameResult(table, entrants, tuple(own), PLAYED)


def round_results(t: Tournament, natural: Natural) -> list[RoundResults]:
    out = []
    for r in t.rounds:
        games = tuple(
            game_result(t, table, seats, natural, ended=r.ended, unfinished=table in r.unfinished)
            for table, seats in r.tables
        )
        out.append(RoundResults(r.number, games, r.byes))
    return out


def current_standings(t: Tournament, natural: Natural, seed: str) -> list[Standing]:
    """Standings over every entrant who ever registered (withdrawn ones keep their games),
    counting the games of ended rounds and the finished games of a running one."""
    return standings(sorted(t.entrants), round_results(t, natural), seed)


def ended_standings(t: Tournament, natural: Natural, seed: str) -> list[Standing]:
    """Standings over the ended rounds only: what the next round is seated from."""
    results = [r for r, rnd in zip(round_results(t, natural), t.rounds, strict=True) if rnd.ended]
    return standings(sorted(t.entrants), results, seed)


def next_seating(t: Tournament, natural: Natural, seed: str) -> formats.Seating:
    """The seating of the next round: its active entrants in standing order (the draw's
    order before round 1), seated by the tournament's format."""
    round_no = t.next_round
    results = [r for r, rnd in zip(round_results(t, natural), t.rounds, strict=True) if rnd.ended]
    ranked = standings(sorted(t.entrants), results, seed)
    active = set(t.active(round_no))
    order = [s.entrant for s in ranked if s.entrant in active]
    first = t.active(1)
    drawn = formats.draw(first, seed) if t.settings["format"] == formats.ROUND_ROBIN else ()
    return formats.seat_round(
        format=t.settings["format"],
        round_no=round_no,
        order=order,
        met=met(results),
        had_bye=had_bye(results),
        low=int(t.settings["table_min"]),
        high=int(t.settings["table_max"]),
        seed=seed,
        drawn=drawn,
    )


def history(
    tournament_id: str, entries: Sequence[Mapping[str, Any]], natural: Natural, seed: str
) -> list[dict[str, Any]]:
    """The standings' history: the standings over the ended rounds after every entry that
    may change them (a round's end, a ruling taken in), each saying why. A late entry or
    a withdrawal changes nobody's score."""
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(entries):
        kind, data = entry["kind"], entry["data"]
        if kind == "round_ended":
            why = f"round {data['round']} ended ({data['by']})"
        elif kind == "ruling_applied":
            why = f"ruling {data['ruling']} ({data['kind']}) on table {data['table']}"
        else:
            continue
        t = fold(tournament_id, entries[: i + 1])
        rows = ended_standings(t, natural, seed)
        out.append({"after": entry["n"], "why": why, "standings": standings_json(rows)})
    return out


__all__ = [
    "AWARDED",
    "PLAYED",
    "RUNNING",
    "UNFINISHED",
    "VOIDED",
    "current_standings",
    "ended_standings",
    "game_result",
    "history",
    "next_seating",
    "round_results",
]
