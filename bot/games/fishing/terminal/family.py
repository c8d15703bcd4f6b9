"""The terminal facet of Tsung Shap; an adapter until the client's table for it moves here
(issue 19 step 11)."""

from __future__ import annotations

from bot.games.dominoes.terminal.adapter import DominoTerminal
from bot.terminal.family import GameTerminal

__all__ = ["FACET", "FishingTerminal"]


class FishingTerminal(DominoTerminal):
    """Tsung Shap for the terminal client."""


FACET: GameTerminal = FishingTerminal()
"""The terminal facet of Tsung Shap (``terminal_of("tsung-shap")``)."""
