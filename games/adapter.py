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

from games.core import ReviewMarks, Seen, Viewer
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

    # --- setup --------------------------------------------------------------------------

    def seed_matches(self, started: Mapping[str, Any], seed: str) -> bool:
        """Whether ``seed`` is the one the first event's published hash commits to (every
        game's first event records ``salt`` and ``seed_hash``: ``games.rng.seed_hash``)."""
        return seed_hash(seed, started.get("salt", "")) == started.get("seed_hash")

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

    # --- notices (webhooks) -----------------------------------------------------------

    notice_kinds: tuple[str, ...] = ()  # none of its own: the service derives the rest

    def own_notices(
        self, kind: str, payload: Mapping[str, Any]
    ) -> Mapping[str, frozenset[int] | None]:
        return {}

    # --- storage ------------------------------------------------------------------------

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
