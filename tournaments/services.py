"""The tournaments' service: create, register, withdraw, start a round, advance.

A tournament is its log (``tournaments.log``): every operation locks the tournament's row,
folds the log, decides, and appends entries, in one transaction. Its tables are ordinary
ranked tables made and started through the service's public lobby functions
(``games.lobby``); their results are read through ``games.service`` (a finished game's
placements, asked of the game: ``Game.placements``) and ``games.reviews`` (directors'
deciding rulings). Nothing here names a game.

``advance`` is what makes rounds run themselves: it takes in new deciding rulings, ends the
round when its games are over (or at its deadline), then seats the next round from the
standings or finishes the tournament. The Celery task ``tournaments.tasks.advance`` runs it
at a round's deadline and the beat's ``tournaments.tasks.sweep`` every few seconds for
every running tournament (a game's end is noticed by the next sweep).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import UTC, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from events.chain import GENESIS
from games import lobby, reviews
from games.core import RuleViolation
from games.errors import ServiceError
from games.models import Table
from games.registry import game_names, get_game
from games.rng import seed_hash
from games.service import clock_ms, game_load
from tournaments import derive, formats
from tournaments.errors import TOURNAMENTS
from tournaments.log import Tournament as Folded
from tournaments.log import entry_body, entry_hash, fold
from tournaments.models import LogEntry, Tournament, TournamentTable
from tournaments.standings import places_of

SYSTEM = "system"
MAX_ROUNDS = 30
DEFAULT_ROUND_MINUTES = 120
MAX_FLAG_TEXT = 500


def refuse(code: str, message: str | None = None, **data: Any) -> ServiceError:
    return ServiceError(code, message or TOURNAMENTS[code].message, **data)


def actor_of(user: AbstractBaseUser | AnonymousUser | None) -> str:
    return f"user:{user.pk}" if user is not None and user.is_authenticated else SYSTEM


def director(user: AbstractBaseUser | AnonymousUser) -> None:
    if not getattr(user, "is_staff", False):
        raise refuse("not_director")


# --- reading ------------------------------------------------------------------------------


def entries_of(tournament: Tournament) -> list[dict[str, Any]]:
    rows = LogEntry.objects.filter(tournament=tournament).order_by("n")
    return [
        {
            "n": r.n,
            "kind": r.kind,
            "data": r.data,
            "actor": r.actor,
            "at": r.at.astimezone(UTC).isoformat(),
            "prev_hash": r.prev_hash,
            "hash": r.hash,
        }
        for r in rows
    ]


def get(tournament_id: uuid.UUID | str, *, lock: bool = False) -> Tournament:
    rows = Tournament.objects.select_for_update() if lock else Tournament.objects
    try:
        return rows.get(id=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError, ValidationError):
        raise refuse("tournament_not_found") from None


def folded(tournament: Tournament) -> tuple[Folded, list[dict[str, Any]]]:
    entries = entries_of(tournament)
    return fold(str(tournament.id), entries), entries


def natural_results(t: Folded) -> dict[str, tuple[int, ...] | None]:
    """Each of the tournament's tables' own result: its game's placement once over (a
    game a ruling ended has none: the ruling, taken in by the log, decides it)."""
    out: dict[str, tuple[int, ...] | None] = {}
    ids = t.table_ids()
    finished = dict(Table.objects.filter(id__in=ids).values_list("id", "status"))
    for table_id in ids:
        if finished.get(uuid.UUID(table_id)) != Table.Status.FINISHED:
            out[table_id] = None
            continue
        loaded = game_load(game_id=uuid.UUID(table_id))
        groups = loaded.definition.placements(loaded.state)
        out[table_id] = None if groups is None else places_of(groups, loaded.table.seats)
    return out


# --- appending ----------------------------------------------------------------------------


def _append(tournament: Tournament, kind: str, data: Mapping[str, Any], actor: str) -> None:
    """Append one entry at the log's head (the caller holds the tournament's row lock;
    ``UNIQUE (tournament, n)`` would refuse a second writer anyway)."""
    head = LogEntry.objects.filter(tournament=tournament).order_by("-n").first()
    n = head.n + 1 if head else 1
    prev = head.hash if head else GENESIS
    at = timezone.now()
    body = entry_body(str(tournament.id), n, kind, data, at.astimezone(UTC).isoformat())
    LogEntry.objects.create(
        tournament=tournament,
        n=n,
        kind=kind,
        data=dict(data),
        actor=actor,
        at=at,
        prev_hash=prev,
        hash=entry_hash(prev, body),
    )


# --- creating -----------------------------------------------------------------------------


def tournament_create(
    *,
    user: User,
    name: str,
    game: str,
    format: str = formats.SWISS,
    rounds: int = 3,
    table_min: int | None = None,
    table_max: int | None = None,
    options: Mapping[str, Any] | None = None,
    turn_seconds: int = 0,
    turn_action: str | None = None,
    abandon_after: int | None = None,
    round_minutes: int = DEFAULT_ROUND_MINUTES,
    auto: bool = True,
) -> Tournament:
    """A new tournament (directors only), its settings checked here, once: every round's
    tables are made with them."""
    director(user)
    if game not in game_names():
        raise refuse("bad_tournament", "Unknown game.", field="game")
    definition = get_game(game)
    low = definition.min_players if table_min is None else table_min
    high = definition.max_players if table_max is None else table_max
    if not definition.min_players <= low <= high <= definition.max_players:
        raise refuse(
            "bad_tournament",
            f"Tables of {definition.title} hold {definition.min_players} to "
            f"{definition.max_players} players (table_min <= table_max).",
            field="table_max" if table_max is not None else "table_min",
        )
    if format not in formats.FORMATS:
        raise refuse(
            "bad_tournament", "Unknown format.", field="format", formats=list(formats.FORMATS)
        )
    if format == formats.ROUND_ROBIN and high != 2:
        raise refuse("bad_tournament", "A round-robin is for tables of two.", field="format")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise refuse("bad_tournament", f"1 to {MAX_ROUNDS} rounds.", field="rounds")
    if not 1 <= round_minutes <= 7 * 24 * 60:
        raise refuse("bad_tournament", "A round lasts 1 minute to a week.", field="round_minutes")
    name = name.strip()
    if not 1 <= len(name) <= 120:
        raise refuse("bad_tournament", "A name of 1 to 120 characters.", field="name")
    try:
        stored = definition.validate_options(dict(options or {}), high, sandbox=False)
    except RuleViolation as exc:
        raise refuse("bad_tournament", exc.message, field="options", **exc.data) from exc
    if turn_action is not None and turn_action not in definition.timeout_policies:
        raise refuse("bad_tournament", "Unknown timeout policy.", field="turn_action")
    if not 0 <= turn_seconds <= lobby.MAX_TURN_SECONDS:
        raise refuse("bad_tournament", "A turn lasts 0 to 600 seconds.", field="turn_seconds")
    with transaction.atomic():
        tournament = Tournament.objects.create(name=name, game=game, created_by=user)
        _append(
            tournament,
            "created",
            {
                "name": name,
                "game": game,
                "format": format,
                "rounds": rounds,
                "table_min": low,
                "table_max": high,
                "table": {
                    "options": stored,
                    "turn_seconds": turn_seconds,
                    "turn_action": turn_action,
                    "abandon_after": abandon_after,
                },
                "round_minutes": round_minutes,
                "auto": auto,
                "seed_hash": seed_hash(tournament.seed),
            },
            actor_of(user),
        )
    return tournament


# --- entries ------------------------------------------------------------------------------


def _late_entry_round(t: Folded) -> int:
    """The round a new entrant plays from, or refused: not once finished, not in a
    round-robin once it started (its schedule is drawn for its first entrants)."""
    if t.finished or len(t.rounds) >= int(t.settings["rounds"]):
        raise refuse("registration_closed")
    if t.rounds and t.settings["format"] == formats.ROUND_ROBIN:
        raise refuse("registration_closed", "A round-robin takes no late entry.")
    return t.next_round


def may_enter(t: Folded) -> bool:
    """Whether the tournament still takes entries."""
    try:
        _late_entry_round(t)
    except ServiceError:
        return False
    return True


def register(
    *, tournament_id: uuid.UUID | str, user: User, bot: str | None = None, name: str = ""
) -> int:
    """Register ``user`` (themself), or, by a director, a bot entrant (``bot``: one of the
    game's bot kinds). Returns the entrant's number. A late entry plays from the next
    round (Swiss only)."""
    with transaction.atomic():
        tournament = get(tournament_id, lock=True)
        t, _ = folded(tournament)
        from_round = _late_entry_round(t)
        number = len(t.entrants) + 1
        if bot is not None:
            director(user)
            if bot not in get_game(tournament.game).bot_kinds:
                raise refuse("bad_tournament", "Unknown bot.", field="bot")
            data = {
                "entrant": number,
                "user": None,
                "bot": bot,
                "name": name or f"{bot} bot {number}",
            }
        else:
            if any(e.user == user.pk and e.withdrawn_from is None for e in t.entrants.values()):
                raise refuse("already_registered")
            data = {"entrant": number, "user": user.pk, "bot": None, "name": user.get_username()}
        _append(tournament, "registered", {**data, "from_round": from_round}, actor_of(user))
    return number


def withdraw(*, tournament_id: uuid.UUID | str, user: User, entrant: int | None = None) -> None:
    """Withdraw from the next round on: oneself, or (a director) any entrant. Games
    already seated go on; the standings keep the entrant's games."""
    with transaction.atomic():
        tournament = get(tournament_id, lock=True)
        t, _ = folded(tournament)
        if t.finished:
            raise refuse("registration_closed")
        if entrant is not None:
            director(user)
            found = t.entrants.get(entrant)
        else:
            found = next(
                (e for e in t.entrants.values() if e.user == user.pk and e.withdrawn_from is None),
                None,
            )
        if found is None or found.withdrawn_from is not None:
            raise refuse("not_registered")
        _append(
            tournament,
            "withdrew",
            {"entrant": found.number, "from_round": t.next_round},
            actor_of(user),
        )


# --- rounds -------------------------------------------------------------------------------


# --- the review queue's flags ----------------------------------------------------------


def flag(*, tournament_id: uuid.UUID | str, user: User, table: str, reason: str) -> int:
    """Put one of the tournament's games in the directors' review queue, with a reason: an
    entrant seated at it, or a director. Open until a director closes it with a note or a
    deciding ruling on the game is taken in. Returns the flag's number."""
    reason = reason.strip()
    if not 1 <= len(reason) <= MAX_FLAG_TEXT:
        raise ServiceError("invalid", "Say why, in 1 to 500 characters.", field="reason")
    with transaction.atomic():
        tournament = get(tournament_id, lock=True)
        t, _ = folded(tournament)
        seated = t.table_entrants(table)
        if seated is None:
            raise refuse("table_not_in_tournament")
        director = bool(getattr(user, "is_staff", False))
        entrant = next((n for n in seated if t.entrants[n].user == user.pk), None)
        if entrant is None and not director:
            raise refuse("flag_not_allowed")
        if any(f.entrant == entrant for f in t.open_flags(table)):
            raise refuse("already_flagged")
        number = len(t.flags) + 1
        _append(
            tournament,
            "flagged",
            {"flag": number, "table": table, "entrant": entrant, "reason": reason},
            actor_of(user),
        )
    return number


def flag_close(*, tournament_id: uuid.UUID | str, user: User, flag: int, note: str) -> None:
    """A director closes a flag, saying what was found (a ruling closes its game's flags
    by itself)."""
    note = note.strip()
    if not 1 <= len(note) <= MAX_FLAG_TEXT:
        raise ServiceError("invalid", "Say what was found, in 1 to 500 characters.", field="note")
    director(user)
    with transaction.atomic():
        tournament = get(tournament_id, lock=True)
        t, _ = folded(tournament)
        found = t.flags.get(flag)
        if found is None:
            raise refuse("flag_not_found")
        if found.closed_by is not None:
            raise refuse("flag_closed")
        _append(
            tournament,
            "flag_closed",
            {"flag": flag, "by": "director", "note": note, "ruling": None},
            actor_of(user),
        )


def total_rounds(t: Folded) -> int:
    rounds = int(t.settings["rounds"])
    if t.settings["format"] == formats.ROUND_ROBIN and t.rounds:
        first = [e for e in t.entrants.values() if e.from_round <= 1]
        rounds = min(rounds, formats.round_robin_rounds(len(first)))
    return rounds


def round_start(*, tournament_id: uuid.UUID | str, user: User | None = None) -> int:
    """Seat and start the next round (a director; the system when rounds run themselves):
    its tables made ranked and started, each entrant in its seat."""
    with transaction.atomic():
        tournament = get(tournament_id, lock=True)
        if user is not None:
            director(user)
        t, _ = folded(tournament)
        _take_in_rulings(tournament, t)
        t, _ = folded(tournament)
        return _start_next(tournament, t, actor_of(user))


def _start_next(tournament: Tournament, t: Folded, actor: str) -> int:
    current = t.current
    if current is not None and not current.ended:
        raise refuse("round_running")
    if t.finished or len(t.rounds) >= (total_rounds(t) if t.rounds else int(t.settings["rounds"])):
        raise refuse("no_rounds_left")
    round_no = t.next_round
    if t.settings["format"] == formats.ROUND_ROBIN and round_no > formats.round_robin_rounds(
        len(t.active(1))
    ):
        raise refuse("no_rounds_left")
    try:
        seating = derive.next_seating(t, natural_results(t), tournament.seed)
    except formats.SeatingError as exc:
        raise refuse("too_few_entrants", str(exc)) from exc
    if not seating.tables:
        raise refuse("too_few_entrants")
    table_settings = t.settings["table"]
    tables: list[dict[str, Any]] = []
    started: list[uuid.UUID] = []
    for seats in seating.tables:
        table = lobby.table_create(
            created_by=tournament.created_by,
            seats=len(seats),
            mode=Table.Mode.RANKED,
            options=table_settings["options"],
            game=tournament.game,
            turn_seconds=table_settings["turn_seconds"],
            turn_action=table_settings["turn_action"],
            abandon_after=table_settings["abandon_after"],
        )
        for position, number in enumerate(seats):
            e = t.entrants[number]
            if e.user is not None:
                lobby.seat_join(
                    table_id=table.id, user=User.objects.get(pk=e.user), position=position
                )
            else:
                lobby.seat_add_bot(table_id=table.id, bot=e.bot or "heuristic", position=position)
        TournamentTable.objects.create(table=table, tournament=tournament, round=round_no)
        tables.append({"table": str(table.id), "seats": list(seats)})
        started.append(table.id)
    deadline = clock_ms() + int(t.settings["round_minutes"]) * 60_000
    _append(
        tournament,
        "round_started",
        {"round": round_no, "tables": tables, "byes": list(seating.byes), "deadline": deadline},
        actor,
    )
    for table_id in started:
        lobby.table_start(table_id=table_id)
    _after_commit_advance(tournament.id, deadline)
    return round_no


def _after_commit_advance(tournament_id: uuid.UUID, deadline: int) -> None:
    """The round's deadline as a Celery countdown (the sweep is the second way in)."""
    if not settings.FB_SCHEDULE_TASKS:
        return

    def send() -> None:
        from tournaments import tasks

        delay = max((deadline - clock_ms()) / 1000, 0.0)
        delay = min(delay, float(settings.FB_MAX_COUNTDOWN_SECONDS))
        tasks.advance.apply_async((str(tournament_id),), countdown=delay)

    transaction.on_commit(send)


def _take_in_rulings(tournament: Tournament, t: Folded) -> bool:
    """Append a ``ruling_applied`` entry for each table whose latest deciding ruling the
    log has not taken in yet."""
    ids = [uuid.UUID(x) for x in t.table_ids()]
    changed = False
    for table_id, decided in sorted(
        reviews.decided_results(ids).items(), key=lambda kv: kv[1].ruling
    ):
        seen = t.rulings.get(str(table_id))
        if seen and seen[-1][0] == decided.ruling:
            continue
        _append(
            tournament,
            "ruling_applied",
            {
                "table": str(table_id),
                "ruling": decided.ruling,
                "kind": decided.kind,
                "winners": list(decided.winners),
            },
            SYSTEM,
        )
        for f in t.open_flags(str(table_id)):  # the ruling answers what was flagged
            _append(
                tournament,
                "flag_closed",
                {"flag": f.number, "by": "ruling", "note": "", "ruling": decided.ruling},
                SYSTEM,
            )
        changed = True
    return changed


def advance(*, tournament_id: uuid.UUID | str, now: int | None = None) -> str:
    """Take in rulings; end the running round if its games are over or its deadline
    passed; then start the next round (rounds that run themselves) or finish. Idempotent:
    run it any number of times."""
    now = clock_ms() if now is None else now
    with transaction.atomic():
        tournament = get(tournament_id, lock=True)
        t, _ = folded(tournament)
        # The finished tables first, the rulings next: a deciding ruling finishes its table
        # in its own transaction, so every table read finished here that a ruling decided
        # has that ruling in the read below (READ COMMITTED: a later statement sees at
        # least what an earlier one saw), and the round never ends without it.
        current = t.current
        done: set[str] = set()
        if current is not None and not current.ended:
            ids = [uuid.UUID(x) for x, _ in current.tables]
            finished = Table.objects.filter(id__in=ids, status=Table.Status.FINISHED)
            done = {str(i) for i in finished.values_list("id", flat=True)}
        # a ruling after the last round (an appeal) still moves the final standings
        if _take_in_rulings(tournament, t):
            t, _ = folded(tournament)
        if t.finished:
            return "finished"
        current = t.current
        if current is None:
            return "registering"
        if not current.ended:
            open_ = [x for x, _ in current.tables if x not in done]
            if open_ and (current.deadline is None or now < current.deadline):
                return "running"
            _append(
                tournament,
                "round_ended",
                {
                    "round": current.number,
                    "by": "deadline" if open_ else "games",
                    "unfinished": open_,
                },
                SYSTEM,
            )
            t, _ = folded(tournament)
        if len(t.rounds) >= total_rounds(t):
            _append(tournament, "finished", {"seed": tournament.seed}, SYSTEM)
            return "finished"
        if not t.settings.get("auto", True):
            return "between_rounds"
        try:
            _start_next(tournament, t, SYSTEM)
        except ServiceError as exc:
            if exc.code != "too_few_entrants":
                raise
            _append(tournament, "finished", {"seed": tournament.seed}, SYSTEM)
            return "finished"
        return "started"


def running_ids() -> list[uuid.UUID]:
    """What the sweep advances: the tournaments with a round started and not finished, and
    those finished within FB_TOURNAMENT_APPEAL_DAYS (a ruling on one of their games is
    still taken into their standings)."""
    since = timezone.now() - timedelta(days=settings.FB_TOURNAMENT_APPEAL_DAYS)
    running = (
        Tournament.objects.filter(log__kind="round_started")
        .exclude(log__kind="finished")
        .values_list("id", flat=True)
    )
    recent = Tournament.objects.filter(log__kind="finished", log__at__gte=since).values_list(
        "id", flat=True
    )
    return sorted(set(running) | set(recent))
