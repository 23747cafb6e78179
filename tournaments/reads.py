"""What the API shows of a tournament: its document (rounds, tables, standings and their
history, the log), a player's own pairings, and the export bundle ``tournaments.verify``
checks offline. All computed from the log and the games' records on each read."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from games import reviews
from games.models import Table
from games.record import game_export
from games.results import clock_marks
from tournaments import derive, services
from tournaments.log import Tournament as Folded
from tournaments.log import fold
from tournaments.models import LogEntry, Tournament
from tournaments.standings import standings_json
from tournaments.verify import BUNDLE_FORMAT


def _entrant_names(t: Folded) -> dict[int, str]:
    return {n: e.name for n, e in t.entrants.items()}


def _rounds(t: Folded, natural: derive.Natural) -> list[dict[str, Any]]:
    names = _entrant_names(t)
    status = dict(
        Table.objects.filter(id__in=[uuid.UUID(x) for x in t.table_ids()]).values_list(
            "id", "status"
        )
    )
    out = []
    for rnd, results in zip(t.rounds, derive.round_results(t, natural), strict=True):
        out.append(
            {
                "round": rnd.number,
                "ended": rnd.ended,
                "ended_by": rnd.ended_by,
                "deadline": rnd.deadline,
                "byes": [{"entrant": e, "name": names[e]} for e in rnd.byes],
                "tables": [
                    {
                        "table": g.table,
                        "status": status.get(uuid.UUID(g.table), "started"),
                        "seats": [{"entrant": e, "name": names[e]} for e in g.entrants],
                        "places": list(g.places) if g.places is not None else None,
                        "result": g.how,
                        "ruling": g.ruling,
                    }
                    for g in results.games
                ],
            }
        )
    return out


def tournament_document(
    tournament_id: str, user: AbstractBaseUser | AnonymousUser
) -> dict[str, Any]:
    tournament = services.get(tournament_id)
    t, entries = services.folded(tournament)
    natural = services.natural_results(t)
    names = _entrant_names(t)
    rows = standings_json(derive.current_standings(t, natural, tournament.seed))
    for row in rows:
        row["name"] = names[row["entrant"]]
    return {
        "id": str(tournament.id),
        "name": tournament.name,
        "game": tournament.game,
        "status": t.status(),
        "format": t.settings["format"],
        "rounds_planned": services.total_rounds(t),
        "table_min": t.settings["table_min"],
        "table_max": t.settings["table_max"],
        "seed_hash": t.settings["seed_hash"],
        "seed": t.seed,
        "entrants": [e.as_json() for e in t.entrants.values()],
        "rounds": _rounds(t, natural),
        "standings": rows,
        "history": derive.history(str(tournament.id), entries, natural, tournament.seed),
        "log": entries,
        "version": t.version,
    }


LIST_LIMIT = 50


def tournament_list(user: AbstractBaseUser | AnonymousUser) -> list[dict[str, Any]]:
    """The newest tournaments (``LIST_LIMIT``), each folded from its log: where it stands,
    its size, and whether the caller is entered and may still enter."""
    rows = list(Tournament.objects.order_by("-created_at", "-id")[:LIST_LIMIT])
    entries: dict[uuid.UUID, list[dict[str, Any]]] = {r.id: [] for r in rows}
    for tid, kind, data in (
        LogEntry.objects.filter(tournament__in=rows)
        .order_by("tournament_id", "n")
        .values_list("tournament_id", "kind", "data")
    ):
        entries[tid].append({"kind": kind, "data": data})
    out = []
    for row in rows:
        t = fold(str(row.id), entries[row.id])
        entered = any(e.user == user.pk and e.withdrawn_from is None for e in t.entrants.values())
        out.append(
            {
                "id": str(row.id),
                "name": row.name,
                "game": row.game,
                "status": t.status(),
                "format": t.settings["format"],
                "rounds_planned": services.total_rounds(t),
                "rounds_started": len(t.rounds),
                "entrants": sum(1 for e in t.entrants.values() if e.withdrawn_from is None),
                "created_at": row.created_at.isoformat(),
                "entered": entered,
                "may_enter": not entered and services.may_enter(t),
            }
        )
    return out


def final_standings(tournament_id: str) -> list[dict[str, Any]]:
    """The standings over the ended rounds, each with its entrant's name."""
    tournament = services.get(tournament_id)
    t, _ = services.folded(tournament)
    rows = standings_json(derive.ended_standings(t, services.natural_results(t), tournament.seed))
    names = _entrant_names(t)
    return [{**row, "name": names[row["entrant"]]} for row in rows]


def pairings_document(tournament_id: str, user: AbstractBaseUser) -> dict[str, Any]:
    """The signed-in player's own entries: each round's table and seat, or bye, and result."""
    tournament = services.get(tournament_id)
    t, _ = services.folded(tournament)
    natural = services.natural_results(t)
    mine = {n for n, e in t.entrants.items() if e.user == user.pk}
    out = []
    for rnd, results in zip(t.rounds, derive.round_results(t, natural), strict=True):
        for g in results.games:
            for seat, e in enumerate(g.entrants):
                if e in mine:
                    out.append(
                        {
                            "round": rnd.number,
                            "table": g.table,
                            "seat": seat,
                            "place": g.places[seat] if g.places is not None else None,
                            "result": g.how,
                        }
                    )
        out.extend(
            {"round": rnd.number, "table": None, "seat": None, "place": None, "result": "bye"}
            for e in rnd.byes
            if e in mine
        )
    flags = [f.as_json() for f in t.flags.values() if f.entrant in mine]
    return {
        "tournament": str(tournament.id),
        "entrants": sorted(mine),
        "pairings": out,
        "flags": flags,
    }


def flag_document(tournament_id: str, number: int) -> dict[str, Any]:
    t, _ = services.folded(services.get(tournament_id))
    return t.flags[number].as_json()


def review_queue(tournament_id: str) -> dict[str, Any]:
    """The games that need a director's look, each with why (docs/tournaments.md, "The
    review desk"): open flags with their reasons, a deciding ruling not yet in the
    standings, seats put out by the turn clock, moves it played, a game unfinished at its
    round's deadline. And every flag, open or closed, with what closed it."""
    tournament = services.get(tournament_id)
    t, _ = services.folded(tournament)
    names = _entrant_names(t)
    ids = [uuid.UUID(x) for x in t.table_ids()]
    marks = clock_marks(ids)
    decided = reviews.decided_results(ids)
    items = []
    for rnd in t.rounds:
        for number, (table, seated) in enumerate(rnd.tables, start=1):
            why: list[dict[str, Any]] = [
                {
                    "kind": "flagged",
                    "flag": f.number,
                    "by": names[f.entrant] if f.entrant is not None else "a director",
                    "reason": f.reason,
                }
                for f in t.open_flags(table)
            ]
            ruling = decided.get(uuid.UUID(table))
            taken = t.rulings.get(table)
            if ruling is not None and not (taken and taken[-1][0] == ruling.ruling):
                why.append(
                    {"kind": "ruling_pending", "ruling": ruling.ruling, "decision": ruling.kind}
                )
            mark = marks.get(uuid.UUID(table))
            if mark is not None and mark.abandoned:
                who = [names[seated[s]] for s in mark.abandoned if s < len(seated)]
                why.append({"kind": "abandoned", "seats": list(mark.abandoned), "names": who})
            if mark is not None and mark.timeouts:
                why.append({"kind": "timeouts", "moves": mark.timeouts})
            if table in rnd.unfinished:
                why.append({"kind": "unfinished"})
            if why:
                items.append({"round": rnd.number, "number": number, "table": table, "why": why})
    return {
        "tournament": str(tournament.id),
        "items": items,
        "flags": [f.as_json() for f in t.flags.values()],
    }


def _record(table: Table) -> dict[str, Any]:
    """A finished game's record; of a game still running (unfinished at its round's
    deadline) only that it runs: its record would show what its players may not see."""
    if table.status != Table.Status.FINISHED:
        return {"stream_id": str(table.id), "game": table.game, "running": True}
    return game_export(table)


def export_bundle(tournament_id: str) -> dict[str, Any]:
    """The whole tournament as one bundle: its log (with the seed revealed once it is
    finished), every game's record as ``games.record`` exports it (rulings included), the
    seatings, the standings and their history."""
    tournament: Tournament = services.get(tournament_id)
    t, entries = services.folded(tournament)
    natural = services.natural_results(t)
    tables = {
        str(x.id): x for x in Table.objects.filter(id__in=[uuid.UUID(i) for i in t.table_ids()])
    }
    return {
        "format": BUNDLE_FORMAT,
        "tournament": str(tournament.id),
        "name": tournament.name,
        "game": tournament.game,
        "log": entries,
        "seed": tournament.seed if t.finished else None,
        "games": {tid: _record(tables[tid]) for tid in t.table_ids()},
        # for people; the proof re-derives them from the log's round_started entries
        "seatings": [
            {"round": r.number, "tables": [list(s) for _, s in r.tables], "byes": list(r.byes)}
            for r in t.rounds
        ],
        "standings": standings_json(derive.ended_standings(t, natural, tournament.seed)),
        "history": derive.history(str(tournament.id), entries, natural, tournament.seed),
    }
