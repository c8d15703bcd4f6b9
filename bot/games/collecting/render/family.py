"""The render facet of the collecting games: today's words (:mod:`bot.render.text`) behind
:class:`bot.render.family.GameRender`; an adapter until the game's code moves here (issue 19
steps 6 and 9)."""

from __future__ import annotations

from typing import Literal

from bot.games.collecting.render.surface import CollectingSurface
from bot.games.dominoes.render.adapter import DominoRender
from bot.render.family import GameRender

__all__ = ["FACET", "CollectingRender"]


class CollectingRender(CollectingSurface, DominoRender):
    """Kap Shap and Kap Tai Shap for the render layer."""

    @property
    def where(self) -> Literal["hand", "table"]:
        """A seat plays from his hand message: his tiles are his own."""
        return "hand"


FACET: GameRender = CollectingRender()
"""The collecting games' render facet (``render_of("kap-shap")``)."""
