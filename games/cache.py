"""Per-process caches of what the database keeps growing: folded games and started tables.

Neither can change an answer; each is checked against the database on every use, in the
query that reads what is new anyway:

- a game (``games.service.LoadedGame``) is extended by the events after its version; the
  same query re-reads the hash of that version, so an entry whose stream is not what it
  saw (a flushed test database, a transaction rolled back after it was cached) is dropped;
- a table is kept once started, when its seats are fixed; its status (started, then
  finished) is re-read on every use until it is finished, which is final.

Bounded LRU maps (``FB_CACHE_GAMES`` entries each; 0 turns them off), safe across the
threads of one process. The values are immutable (frozen states) or never mutated after
they are cached (tables), so readers share them without copying.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING, Generic, TypeVar

from django.conf import settings

if TYPE_CHECKING:  # games.service imports this module
    from games.models import Table
    from games.service import LoadedGame

V = TypeVar("V")


class Lru(Generic[V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def discard(self, key: Hashable) -> None:
        with self._lock:
            self._items.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


games: Lru[LoadedGame] = Lru(settings.FB_CACHE_GAMES)
tables: Lru[Table] = Lru(settings.FB_CACHE_GAMES)


def clear() -> None:
    """Forget everything (benchmarks timing cold loads; tests)."""
    games.clear()
    tables.clear()
