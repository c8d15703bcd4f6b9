"""What the cogs report as interactions are answered (:class:`Observer`); a no-op by default."""

from __future__ import annotations

from typing import Protocol

__all__ = ["OUTCOMES", "NullObserver", "Observer"]

OUTCOMES: tuple[str, ...] = ("ok", "refused", "unavailable", "error", "answered")
"""How an interaction ended: done; refused (a player's mistake, told why); the database could not
be reached (told to try again); a bug (an incident); already answered by a first delivery."""


class Observer(Protocol):
    """Receives one call per interaction handled and per incident."""

    def interaction(self, command: str, outcome: str, seconds: float) -> None:
        """An interaction of ``command`` ended with ``outcome`` (one of :data:`OUTCOMES`) after
        ``seconds`` of handling."""
        ...

    def incident(self, kind: str) -> None:
        """Something failed: ``kind`` is ``bug`` (an incident id was logged) or
        ``database_unavailable`` (the database could not be reached)."""
        ...


class NullObserver:
    """The observer of a bot that serves no metrics: it forgets everything."""

    def interaction(self, command: str, outcome: str, seconds: float) -> None:
        """Nothing to count."""

    def incident(self, kind: str) -> None:
        """Nothing to count."""
