"""The events every game has, which generic code may tell apart from a game's own events.

A game's other events are opaque outside its family (:data:`bot.engine.family.Event`); a turn
is not: every game has turns, and the services keep "Turn N: X to play" out of a table's recent
lines (the table message says whose turn it is) and out of a replay page's.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TurnStarted"]


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A new turn begins."""

    seat: int
    turn: int
