"""The render facet of the collecting games: its words (``words.py``, ``rules_text.py``) and
pictures (``pictures.py``) and its surface (``surface.py``: buttons, verbs, choices) behind
:class:`bot.render.family.GameRender`."""

from __future__ import annotations

from typing import Literal

from bot.games.collecting.render.pictures import CollectingPictures
from bot.games.collecting.render.surface import CollectingSurface
from bot.games.collecting.render.words import CollectingWords
from bot.render.family import GameRender

__all__ = ["FACET", "CollectingRender"]


class CollectingRender(CollectingWords, CollectingPictures, CollectingSurface):
    """Kap Shap and Kap Tai Shap for the render layer."""

    @property
    def where(self) -> Literal["hand", "table"]:
        """A seat plays from his hand message: his tiles are his own."""
        return "hand"


FACET: GameRender = CollectingRender()
"""The collecting games' render facet (``render_of("kap-shap")``)."""
