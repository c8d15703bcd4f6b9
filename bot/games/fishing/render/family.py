"""The render facet of Tsung Shap: its words (``words.py``, ``rules_text.py``) and
pictures (``pictures.py``) behind :class:`bot.render.family.GameRender`, with the kit's adapter
for what has not moved here yet (issue 19 step 9b)."""

from __future__ import annotations

from typing import Literal

from bot.games.dominoes.render.adapter import DominoRender
from bot.games.fishing.render.pictures import FishingPictures
from bot.games.fishing.render.surface import FishingSurface
from bot.games.fishing.render.words import FishingWords
from bot.render.family import GameRender

__all__ = ["FACET", "FishingRender"]


class FishingRender(FishingWords, FishingPictures, FishingSurface, DominoRender):
    """Tsung Shap for the render layer."""

    @property
    def where(self) -> Literal["hand", "table"]:
        """A seat plays on the table message: Tsung Shap hides nothing but the piles' order."""
        return "table"


FACET: GameRender = FishingRender()
"""Tsung Shap's render facet (``render_of("tsung-shap")``)."""
