"""The render facet of the collecting games: its words (``words.py``, ``rules_text.py``) and
pictures (``pictures.py``) behind :class:`bot.render.family.GameRender`, with the kit's adapter
for what has not moved here yet (issue 19 step 9b)."""

from __future__ import annotations

from typing import Literal

from bot.games.collecting.render.pictures import CollectingPictures
from bot.games.collecting.render.surface import CollectingSurface
from bot.games.collecting.render.words import CollectingWords
from bot.games.dominoes.render.adapter import DominoRender
from bot.render.family import GameRender

__all__ = ["FACET", "CollectingRender"]


class CollectingRender(CollectingWords, CollectingPictures, CollectingSurface, DominoRender):
    """Kap Shap and Kap Tai Shap for the render layer."""

    @property
    def where(self) -> Literal["hand", "table"]:
        """A seat plays from his hand message: his tiles are his own."""
        return "hand"


FACET: GameRender = CollectingRender()
"""The collecting games' render facet (``render_of("kap-shap")``)."""
