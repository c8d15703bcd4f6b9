"""The terminal facet of the collecting games; an adapter until the client's table for it moves here
(issue 19 step 11)."""

from __future__ import annotations

from bot.games.dominoes.terminal.adapter import DominoTerminal
from bot.terminal.family import GameTerminal

__all__ = ["FACET", "CollectingTerminal"]


class CollectingTerminal(DominoTerminal):
    """Kap Shap and Kap Tai Shap for the terminal client."""


FACET: GameTerminal = CollectingTerminal()
"""The terminal facet of the collecting games (``terminal_of("kap-shap")``)."""
