"""The one action both domino families share: ``draw`` (from the wall in the collecting
games; turning over one's next tile in Tsung Shap). Each family's ``actions`` module has the
rest of its notation."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Draw"]


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next tile (from the wall; in Tsung Shap, from one's own pile)."""

    def __str__(self) -> str:
        return "draw"
