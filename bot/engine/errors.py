"""Domain errors raised by the rules engine.

Every error carries a short message meant for a player: the Discord layer and the terminal client
show it as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # tiles.py imports this module
    from bot.engine.tiles import Tile


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(EngineError, ValueError):
    """A tile or an action written in notation could not be read."""


class AmbiguousTile(NotationError):
    """A name shared by two kinds of tile (``Nine``: 6-3 and 5-4); ``options`` holds both."""

    def __init__(self, message: str, options: tuple[Tile, ...]) -> None:
        super().__init__(message)
        self.options = options


class RulesError(EngineError, ValueError):
    """A rule set is invalid (bad flag value or impossible combination)."""


class IllegalAction(EngineError):
    """An action that the rules do not allow in this state."""
