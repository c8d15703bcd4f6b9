"""Domain errors raised by the rules engine.

Every error carries a short message meant for a player: the Discord layer and the terminal client
show it as is.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(EngineError, ValueError):
    """A tile or an action written in notation could not be read."""


class RulesError(EngineError, ValueError):
    """A rule set is invalid (bad flag value or impossible combination)."""


class IllegalAction(EngineError):
    """An action that the rules do not allow in this state."""
