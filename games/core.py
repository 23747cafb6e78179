"""What the service knows of a game: the ``Game`` protocol and the types it shares.

A game is a pure package (``games/<name>/``) with one object implementing ``Game``; the
service, the API, the verifier, the timers and the bots ask it everything they need
(who is awaited and until when, is it over, what a timeout plays, which events reveal
hidden information, which options a table may have, what each refusal code means, where
its turns start and its notable moments happen for a replay) and never read its state's
attributes. ``games/registry.py`` lists the games; adding one is a package and a registry
line (docs/architecture.md, "Adding a game").

The framework owns what is common to every game, in the manner of boardgame.io's ``ctx``:
the version, the clock (deadlines are ms since the epoch, passed in as ``now``), the
turn time limit of a table, idempotency, undo and the record. The game owns its rules.

Imports nothing but the standard library: the rules packages import this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol, runtime_checkable

Viewer = int | Literal["spectator", "staff"]  # a seat, a spectator or staff

ALL: Final = "all"  # an event that reveals hidden information to every seat
Reveal = frozenset[int] | Literal["all"]


class RuleViolation(Exception):  # noqa: N818 - the domain's own word for it
    """A command (or table options) the rules refuse. ``code`` is stable and one of the
    game's ``error_codes``; ``message`` is for people; ``data`` is structured detail."""

    def __init__(self, code: str, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r}, **{self.data!r})"


@dataclass(frozen=True)
class Window:
    """A step the game times itself (a reaction window, a sealed step with a deadline the
    rules set): the service closes it at ``deadline`` by playing ``Game.close_command``
    as the system, and no other command is decided once it is overdue."""

    id: str
    deadline: int  # ms since the epoch


@dataclass(frozen=True)
class Status:
    """What the service needs to know of a game at one point.

    ``awaiting``: the seats whose decision the game waits for, several at once in a
    simultaneous step (sealed choices). ``deadlines``: for each of them, the game's own
    deadline (a window's) or None, when the table's turn clock (``Table.turn_seconds``)
    is what times it. ``step_key`` names the decision point: a new key starts a new turn
    clock, so the same key must come back while the game waits on the same step (an undo,
    one seat of a sealed step committing while others still choose). ``sealed``: a seat's
    choice is committed and shown to nobody else, staff included, until it is revealed:
    the raw record (the audit's commands and hashes, the export) would show it, so the
    service serves neither meanwhile (a sealed simultaneous choice).

    ``out_of_turn``: the seats the game does not wait for that may still act now, unprompted
    (a job a seat completes on another seat's turn): nobody waits for them, so no
    clock, timeout or bot runs for them, and a command of theirs leaves ``awaiting`` and
    ``step_key`` as they were (the awaited seat's turn clock runs on). What each may do is
    in its own view's ``legal``; the list itself is public, so it says only that a seat may
    try, never what it holds. A reaction window's eligible seats are awaited, not listed
    here."""

    over: bool
    winners: tuple[int, ...] = ()
    awaiting: tuple[int, ...] = ()
    deadlines: Mapping[int, int | None] = field(default_factory=dict)
    step_key: str = ""
    window: Window | None = None
    sealed: bool = False
    out_of_turn: tuple[int, ...] = ()

    def table_timed(self) -> tuple[int, ...]:
        """The awaited seats the table's turn clock times (no deadline of the game's)."""
        return tuple(s for s in self.awaiting if self.deadlines.get(s) is None)

    def acting_out_of_turn(self, seat: int | None) -> bool:
        """Whether a command of ``seat`` now is out-of-turn play: not awaited, but free to
        act (``out_of_turn``)."""
        return (
            not self.over
            and seat is not None
            and seat not in self.awaiting
            and seat in self.out_of_turn
        )

    def may_act(self, seat: int | None) -> bool:
        """Whether ``seat`` may act now: awaited, or free to act out of turn. (Resigning,
        where a game has it, is open to any seat at any time and is not counted.)"""
        if self.over or seat is None:
            return False
        return seat in self.awaiting or seat in self.out_of_turn


@dataclass(frozen=True)
class Versions:
    """What a game is played under: its rules version and its content version (None for a
    game with no stand-in data), as its first event recorded them."""

    rules: int
    content: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"rules_version": self.rules, "content_version": self.content}


@dataclass(frozen=True)
class Seen:
    """One event as a viewer may see it, for ``Game.review_marks``: its sequence number and
    the game's ``redact_event`` of it for that viewer (``{"type": kind, ...}``). Undone
    events and undo markers are never among them."""

    seq: int
    data: Mapping[str, Any]


@dataclass(frozen=True)
class TurnMark:
    """Where one of the game's turns starts (what the game calls a turn: a player's turn,
    a round of sealed bids, a Day or a Night; ``Game.turn_name`` names it)."""

    seq: int  # the event that starts it
    number: int  # the game's own count, from 1, increasing
    label: str  # what a reviewer reads: "Turn 4: Ann"


@dataclass(frozen=True)
class Moment:
    """A notable moment a reviewer may jump to: an attack, an auction won, a round's end."""

    seq: int  # the event it happens at
    kind: str  # one of the game's ``moment_kinds``
    label: str  # what a reviewer reads: "Round 3: Ann wins the Chemist auction"


@dataclass(frozen=True)
class ReviewMarks:
    """What a replay steps and jumps by: the game's turns and notable moments, in order."""

    turns: tuple[TurnMark, ...] = ()
    moments: tuple[Moment, ...] = ()


@dataclass(frozen=True)
class TableOption:
    """One table option a person may set when creating a table (the lobby's form offers
    it; secret sandbox options are not listed): a whole number from ``low`` to ``high``
    or a yes/no (``kind``), its ``default`` and a ``label`` for people."""

    name: str
    label: str
    kind: Literal["int", "bool"]
    default: int | bool
    low: int = 0
    high: int = 0

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind}
        out["default"] = self.default
        if self.kind == "int":
            out |= {"low": self.low, "high": self.high}
        return out


@dataclass(frozen=True)
class TieBreak:
    """One comparison the rules made to decide a finished game, in the order they made it:
    ``criterion`` says what was compared (for people: "points won"), ``values``
    each contending seat's value, ``kept`` the seats the comparison kept."""

    criterion: str
    values: tuple[tuple[int, int | str], ...]  # (seat, value), seat order
    kept: tuple[int, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "criterion": self.criterion,
            "values": [{"seat": seat, "value": value} for seat, value in self.values],
            "kept": list(self.kept),
        }


@dataclass(frozen=True)
class Outcome:
    """How a finished game was decided, in the engine's own words: ``winners`` (none, one
    or several sharing the win), ``reason`` a stable code of the game's (``victory``,
    ``last_seat``, ``shared`` ...), ``summary`` one or two sentences saying who won and
    why, ``tie_breaks`` every comparison applied, in order. A view carries it as
    ``outcome`` (``as_json``) once the game is over."""

    winners: tuple[int, ...]
    reason: str
    summary: str
    tie_breaks: tuple[TieBreak, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "summary": self.summary,
            "tie_breaks": [t.as_json() for t in self.tie_breaks],
        }


Placements = tuple[tuple[int, ...], ...]
"""A finished game's seats in finishing order, best first: each group shares its place
(a tie), every seat in exactly one group (``Game.placements``; ratings read it)."""


def placed_by(values: Mapping[int, int], first: Sequence[int] = ()) -> Placements:
    """Seats grouped by ``values``, highest first (equal values share a place), after the
    seats ``first`` (a group of their own, the winners) and without them."""
    rest = {seat: value for seat, value in values.items() if seat not in first}
    groups = [tuple(sorted(first))] if first else []
    for value in sorted(set(rest.values()), reverse=True):
        groups.append(tuple(sorted(seat for seat, v in rest.items() if v == value)))
    return tuple(groups)


@runtime_checkable
class Game(Protocol):
    """One game, as the service sees it. Every method is pure: no I/O, no clock (``now``
    is passed in), no global random (seeds are passed in)."""

    name: str  # stable: the prefix of its stored event types, the table's ``game``
    title: str
    # Versions (docs/event-store.md, "Versions"). A game's first event records the rules
    # version, and the content version if it has stand-in data, it is played under; its
    # state carries them, and the rules decide by the state's, never by these constants:
    # a running game keeps its version to its end and an old record re-decides as it did.
    rules_version: int  # the newest: what a new table is played under
    rules_versions: tuple[int, ...]  # every version it still decides, oldest first
    content_version: str | None  # the newest content id (None: no stand-in data)
    content_versions: tuple[str, ...]  # every content id it still plays (may be empty)
    min_players: int
    max_players: int
    bot_kinds: tuple[str, ...]  # the bots the lobby may seat, by name
    timeout_policies: tuple[str, ...]  # what a timed-out seat's move may be (first: default)
    error_codes: Mapping[str, str]  # every RuleViolation code it raises, with its meaning
    # (event kind, key in the refusal's data): for a ``window_closed`` refusal, the event
    # whose payload names the window and whose seq the refusal reports under that key
    window_closers: tuple[tuple[str, str], ...]
    # Whether seats answer out of turn in reaction windows (counter cards to an attack):
    # only such a game has standing reactions (``games.standing``; its rules in the registry)
    reaction_windows: bool
    # What a replay steps by (``review_marks``): the game's word for a turn ("turn",
    # "round") and its kinds of notable moments, kind -> name, in the order a reviewer
    # is offered them ("attack" -> "attack", "mob_war" -> "Mob War")
    turn_name: str
    moment_kinds: Mapping[str, str]
    # Webhook notice kinds of the game's own (``own_notices``), beside those the service
    # derives from ``status`` for every game (``games.notices``: turn.started,
    # window.opened, table.filled, game.finished). Optional: ``games.adapter.Adapter``
    # has none.
    notice_kinds: tuple[str, ...]
    # What a player sets out to do, in a sentence or two (every table page shows it).
    goal: str
    # The game's rules for people, Markdown, as a path from the project's root
    # ("docs/rules-<name>.md"): the web renders it as the game's rules page.
    rules_document: str
    # The options a person may set on a new table (``validate_options`` checks them).
    table_options: tuple[TableOption, ...]

    def http_status(self, code: str) -> int:
        """The HTTP status of one of its refusal codes (400, 409 or 422)."""
        ...

    # --- tables and setup ---------------------------------------------------------------

    def validate_options(
        self, options: Mapping[str, Any] | None, seats: int, *, sandbox: bool
    ) -> dict[str, Any]:
        """The table options as stored (JSON, defaults filled in), or ``RuleViolation``
        ``bad_options`` naming the ``field``. Secret ones (stacked decks) only in sandbox."""
        ...

    def public_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """What anyone may see of a table's stored options (no stacked deck)."""
        ...

    def start(
        self, names: Sequence[str], options: Mapping[str, Any], seed: str, salt: str
    ) -> tuple[Any, ...]:
        """The events that start a game (the first records seed_hash(seed, salt))."""
        ...

    def setup_from_started(self, started: Mapping[str, Any], seed: str) -> tuple[Any, ...]:
        """Re-derive the setup from a recorded first event's payload (offline verify)."""
        ...

    def seed_matches(self, started: Mapping[str, Any], seed: str) -> bool:
        """Whether ``seed`` is the one the first event's published hash commits to."""
        ...

    # --- start positions ----------------------------------------------------------------
    # A position document (JSON) says whatever the game's state holds: the round or turn,
    # whose turn and which step, hands, decks in order, tokens, tracks, and optionally the
    # ``rules_version`` / ``content_version`` it is played under (default: the newest).
    # A sandbox table's options carry it as ``position``: ``validate_options`` checks it
    # (through ``validate_position``) and ``start`` records it in the first event, which
    # ``setup_from_started`` re-derives from; the redaction hides its hidden parts (hands,
    # deck orders) exactly as a dealt game's.

    def validate_position(self, document: Any, seats: int) -> dict[str, Any]:
        """The position document as stored (defaults filled in), or ``RuleViolation``
        ``bad_position`` naming the ``field`` (a path: ``players.1.hand.2``)."""
        ...

    def position_of(self, state: Any) -> dict[str, Any]:
        """The position document of a running game's state: a game started from it
        continues as ``state`` would (``RuleViolation`` ``bad_position`` for a game that is
        over or not started)."""
        ...

    # --- the rules ----------------------------------------------------------------------

    def empty_state(self) -> Any: ...

    def decide(self, state: Any, seat: int | None, command: Any, *, now: int) -> tuple[Any, ...]:
        """The events ``command`` of ``seat`` (None: the system) produces, or
        ``RuleViolation``."""
        ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def status(self, state: Any) -> Status: ...

    def played_under(self, state: Any) -> Versions:
        """The rules and content version ``state``'s game is played under: the ones its
        first event recorded (an empty state: the newest)."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """How a finished game was decided (None while it runs), from the reasoning that
        decided it: the same code that picks the winners says why, so the two cannot
        disagree, and no client re-derives it."""
        ...

    def placements(self, state: Any) -> Placements | None:
        """A finished game's seats in finishing order, best first, ties sharing a group
        (None while it runs): the winners (``outcome``'s) first, then the rest as the
        game's rules rank them; ratings read it (docs/ratings.md)."""
        ...

    def names_its_step(self, command: Any) -> bool:
        """Whether the (decoded) command names the step it answers (a reaction its window,
        a bid its round): then a stale ``expected_version`` is not refused, the rules
        decide whether the step is still open."""
        ...

    def close_command(self, window: Window) -> dict[str, Any]:
        """The system's command that closes an overdue ``Status.window``."""
        ...

    def timeout_command(
        self, state: Any, seat: int, policy: str, seed: str
    ) -> dict[str, Any] | None:
        """The command played for an awaited ``seat`` whose turn clock ran out, under the
        table's ``policy`` (one of ``timeout_policies``); None: nothing to play."""
        ...

    def bot_command(self, state: Any, seat: int, kind: str, seed: str) -> dict[str, Any] | None:
        """A bot's command for an awaited ``seat``, deterministic in ``seed`` and the
        state; None: the bot lets the step run out. Chooses from what the seat may know."""
        ...

    # --- what leaves the server ---------------------------------------------------------

    def view(self, state: Any, viewer: Viewer, *, now: int) -> dict[str, Any]:
        """The game as ``viewer`` may see it. A seat's view lists what it may do now in
        ``legal``: options, each with ``send`` (a command as JSON) and ``ready`` (whether
        ``send`` is accepted as it is), and, for an option of several forms, ``variants``
        (each a whole command, accepted as it is), and ``label``: what the option is and
        what it gives, for people ("On the HQ: +1 Reputation with PKD Militia"); an option
        with ``variants`` may add ``variant_labels``, one for each variant, in order."""
        ...

    def redact_event(self, event: Any, viewer: Viewer, *, revealed: bool = False) -> dict[str, Any]:
        """``event`` as ``viewer`` may see it (everything once ``revealed``)."""
        ...

    def revealed_to(self, kind: str, payload: Mapping[str, Any]) -> Reveal:
        """The seats a stored event (kind without the game's prefix, payload) shows hidden
        information to, or ``ALL``: a command whose events reveal something cannot be
        undone (the undo boundary)."""
        ...

    # Whether an undo may take back a command whose events showed other seats hidden
    # cards (the next seat's draw): then ``undo_reshuffle`` hides them again. False (the
    # adapter's default): undo stops at reveals.
    undo_across_reveals: bool

    def undo_reshuffle(self, state: Any, seed: str) -> Sequence[Any]:
        """The events that follow an undo across a reveal: the cards shown since went back
        with the undo (``state`` is the game before the undone command), and these put the
        hidden cards in a new order drawn from ``seed``, a fresh seed committed in the undo
        marker (``games.undo``), so what was shown tells nobody the order. Pure."""
        ...

    def final_winners(self, kind: str, payload: Mapping[str, Any]) -> list[int] | None:
        """The winners if this stored event ends the game (a table list reads them from
        the stream's last event), else None."""
        ...

    def own_notices(
        self, kind: str, payload: Mapping[str, Any]
    ) -> Mapping[str, frozenset[int] | None]:
        """The notices of the game's own (kinds among ``notice_kinds``) that a stored event
        (kind without the game's prefix, payload) raises, with the seats each concerns
        (None: every seat). Optional: a game that says nothing has only the service's."""
        ...

    def legal_commands(self, state: Any, seat: int | None, *, now: int | None = None) -> Any: ...

    def review_marks(self, events: Sequence[Seen]) -> ReviewMarks:
        """Where the game's turns start and its notable moments happen, with labels a
        reviewer reads, from ``events`` as one viewer may see them (every event of the
        game so far that counts, in order; redacted for the viewer: so a mark can say
        only what that viewer may know). Pure; total on any prefix of a game."""
        ...

    def hidden_twin(self, events: Sequence[Any], viewer: Viewer, seed: str) -> tuple[Any, ...]:
        """What ``viewer`` may not know, said as another history: event for event one that
        ``viewer`` cannot tell from ``events``, with what it may not know (other seats'
        hidden cards and sealed choices, deck orders, the seed) drawn again from ``seed``
        and everything it may know kept. Nothing the game shows ``viewer`` may tell the two
        apart (tests/generic/test_hidden.py); the service never calls it."""
        ...

    # --- storage ------------------------------------------------------------------------

    # The shape (schema version) of the events ``encode_event`` writes; each stored event
    # keeps the version it was written with (``StoredEvent.schema_version``, hashed).
    event_schema_version: int

    def upcast_event(
        self, kind: str, payload: Mapping[str, Any], schema_version: int
    ) -> dict[str, Any]:
        """A stored event's payload (``kind`` without the game's prefix) written under
        ``schema_version``, in the shape ``decode_event`` and clients read today: pure, a
        new dict (the stored payload, which its hash covers, is never rewritten); the
        identity for the current version. Every read path goes through it
        (docs/event-store.md, "Upcasting an event's shape")."""
        ...

    def encode_event(self, event: Any) -> dict[str, Any]: ...

    def decode_event(self, data: Mapping[str, Any]) -> Any: ...

    def encode_command(self, command: Any) -> dict[str, Any]: ...

    def decode_command(self, data: Any) -> Any: ...

    def encode_state(self, state: Any) -> dict[str, Any]: ...

    def decode_state(self, data: Mapping[str, Any]) -> Any: ...


def union_reveals(reveals: Sequence[Reveal]) -> Reveal:
    """The seats several events together reveal something to."""
    seats: set[int] = set()
    for reveal in reveals:
        if reveal == ALL:
            return ALL
        seats.update(reveal)
    return frozenset(seats)
