"""The half of a ``games.core.Game`` that only hands over to the game's own modules.

A game's adapter (``games/<name>/game.py``) subclasses ``Adapter[GameState]`` and names its
codec, view, hidden-information and review modules (``codec = codec``, ``views = view``,
``hidden = hidden``, ``review = review``); the storage methods (``encode_event`` ...
``decode_state``), ``view``, ``redact_event``, ``hidden_twin``, ``review_marks``,
``final_winners`` and ``seed_matches`` then come from here, so the adapter holds only what
is its own: its tables and setup, its status, timeouts and bots, what its events reveal.

Pure like ``games.core``: the standard library, ``games.core`` and ``games.rng`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from games.core import ReviewMarks, RuleViolation, Seen, Versions, Viewer
from games.rng import seed_hash

S = TypeVar("S")
S_in = TypeVar("S_in", contravariant=True)


class Codec(Protocol[S]):
    """A game's codec module: its events, commands and states to and from JSON."""

    def encode_event(self, event: Any, /) -> dict[str, Any]: ...

    def decode_event(self, data: dict[str, Any], /) -> Any: ...

    def encode_command(self, command: Any, /) -> dict[str, Any]: ...

    def decode_command(self, data: Any, /) -> Any: ...

    def encode_state(self, state: S, /) -> dict[str, Any]: ...

    def decode_state(self, data: dict[str, Any], /) -> S: ...


class Views(Protocol[S_in]):
    """A game's view module: what a viewer may see of a state and of an event."""

    def view(self, state: S_in, viewer: Viewer, *, now: int) -> dict[str, Any]: ...

    def redact_event(
        self, event: Any, viewer: Viewer, *, revealed: bool = False
    ) -> dict[str, Any]: ...


class Twins(Protocol):
    """A game's hidden-information module: what a viewer may not know, as a twin history."""

    def hidden_twin(
        self, events: Sequence[Any], viewer: Viewer, seed: str, /
    ) -> tuple[Any, ...]: ...


class Marks(Protocol):
    """A game's review module: its turns and notable moments, for replays."""

    def review_marks(self, events: Sequence[Seen], /) -> ReviewMarks: ...


class Adapter(Generic[S]):
    """The ``Game`` methods every game answers by handing over to its codec, views and
    hidden-information modules, and the ones every game answers alike."""

    codec: Codec[S]
    views: Views[S]
    hidden: Twins  # no default: a game that does not say what it hides fails the tests
    review: Marks  # what a replay steps and jumps by

    def review_marks(self, events: Sequence[Seen]) -> ReviewMarks:
        return self.review.review_marks(events)

    # --- versions (games.core.Game: rules_version ... content_versions) -----------------

    rules_version: int  # every game sets its own (games.core.Game)
    content_version: str | None = None  # no stand-in data unless the game says so
    content_versions: tuple[str, ...] = ()

    def played_under(self, state: S) -> Versions:
        """The versions recorded by the game's first event, which every game's state
        carries as ``rules_version`` (0 before the start: then the newest) and, for a game
        with stand-in data, ``content_version``."""
        rules = getattr(state, "rules_version", 0) or self.rules_version
        content = getattr(state, "content_version", None) if self.content_versions else None
        return Versions(int(rules), content or self.content_version)

    # --- setup --------------------------------------------------------------------------

    def seed_matches(self, started: Mapping[str, Any], seed: str) -> bool:
        """Whether ``seed`` is the one the first event's published hash commits to (every
        game's first event records ``salt`` and ``seed_hash``: ``games.rng.seed_hash``)."""
        return seed_hash(seed, started.get("salt", "")) == started.get("seed_hash")

    # --- start positions (a game without any refuses them) ------------------------------

    def validate_position(self, document: Any, seats: int) -> dict[str, Any]:
        raise RuleViolation("bad_position", "This game has no start positions.", field="position")

    def position_of(self, state: S) -> dict[str, Any]:
        raise RuleViolation("bad_position", "This game has no start positions.", field="position")

    # --- what leaves the server ---------------------------------------------------------

    def view(self, state: S, viewer: Viewer, *, now: int) -> dict[str, Any]:
        return self.views.view(state, viewer, now=now)

    def redact_event(self, event: Any, viewer: Viewer, *, revealed: bool = False) -> dict[str, Any]:
        return self.views.redact_event(event, viewer, revealed=revealed)

    def hidden_twin(self, events: Sequence[Any], viewer: Viewer, seed: str) -> tuple[Any, ...]:
        return self.hidden.hidden_twin(events, viewer, seed)

    def final_winners(self, kind: str, payload: Mapping[str, Any]) -> list[int] | None:
        """The winners of a ``GameEnded`` event (every game's last), else None."""
        return list(payload["winners"]) if kind == "GameEnded" else None

    # --- undo across reveals (games.core.Game): none unless the game says how ---------

    undo_across_reveals: bool = False

    def undo_reshuffle(self, state: S, seed: str) -> Sequence[Any]:
        raise RuleViolation("undo_after_reveal", "This game cannot take back a reveal.")

    # --- notices (webhooks) -----------------------------------------------------------

    notice_kinds: tuple[str, ...] = ()  # none of its own: the service derives the rest

    def own_notices(
        self, kind: str, payload: Mapping[str, Any]
    ) -> Mapping[str, frozenset[int] | None]:
        return {}

    # --- storage ------------------------------------------------------------------------

    event_schema_version: int = 1  # a game whose event shapes never changed

    def upcast_event(
        self, kind: str, payload: Mapping[str, Any], schema_version: int
    ) -> dict[str, Any]:
        """The identity: a game that renames an event's fields overrides it (and
        ``event_schema_version``) with its own pure upcaster."""
        return dict(payload)

    def encode_event(self, event: Any) -> dict[str, Any]:
        return self.codec.encode_event(event)

    def decode_event(self, data: Mapping[str, Any]) -> Any:
        return self.codec.decode_event(dict(data))

    def encode_command(self, command: Any) -> dict[str, Any]:
        return self.codec.encode_command(command)

    def decode_command(self, data: Any) -> Any:
        return self.codec.decode_command(data)

    def encode_state(self, state: S) -> dict[str, Any]:
        return self.codec.encode_state(state)

    def decode_state(self, data: Mapping[str, Any]) -> S:
        return self.codec.decode_state(dict(data))
