"""The render facet of Tsung Shap: today's words (:mod:`bot.render.text`) behind
:class:`bot.render.family.GameRender`; an adapter until the game's code moves here (issue 19
steps 6 and 9)."""

from __future__ import annotations

from typing import Literal

from bot.games.dominoes.render.adapter import DominoRender
from bot.games.fishing.render.surface import FishingSurface
from bot.render.family import GameRender

__all__ = ["FACET", "FishingRender"]


class FishingRender(FishingSurface, DominoRender):
    """Tsung Shap for the render layer."""

    @property
    def where(self) -> Literal["hand", "table"]:
        """A seat plays on the table message: Tsung Shap hides nothing but the piles' order."""
        return "table"


FACET: GameRender = FishingRender()
"""Tsung Shap's render facet (``render_of("tsung-shap")``)."""
