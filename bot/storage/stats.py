"""What the database tells the operations layer about itself: block timings and pool use.

Storage knows nothing of Prometheus (docs/architecture.md, section 2): :class:`DatabaseStats` is a
hook a reader subscribes to (``bot.ops`` turns each timing into a histogram observation), and
:class:`PoolUse` is a plain value read when asked. With no subscriber a timing costs one call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["BlockObserver", "DatabaseStats", "PoolUse"]

BlockObserver = Callable[[str, float], None]
"""Called after each block with its kind (``"read"`` or ``"write"``) and its seconds."""


@dataclass(frozen=True, slots=True)
class PoolUse:
    """The connections of the database right now."""

    size: int
    """Connections open (SQLite: its one connection)."""
    in_use: int
    """Connections lent to a block right now."""
    max_size: int
    """The most the pool may open."""


class DatabaseStats:
    """The subscribers to a database's block timings (one object per :class:`Database`)."""

    __slots__ = ("_observers",)

    def __init__(self) -> None:
        """No subscriber yet."""
        self._observers: list[BlockObserver] = []

    def subscribe(self, observer: BlockObserver) -> None:
        """Call ``observer(kind, seconds)`` after every read block and write transaction."""
        self._observers.append(observer)

    def unsubscribe(self, observer: BlockObserver) -> None:
        """Stop calling ``observer`` (nothing happens if it was not subscribed)."""
        if observer in self._observers:
            self._observers.remove(observer)

    def observe(self, kind: str, seconds: float) -> None:
        """Report one block (called by :class:`bot.storage.db.Database`)."""
        for observer in self._observers:
            observer(kind, seconds)
