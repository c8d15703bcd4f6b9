"""Tsung Shap's puzzles (:mod:`bot.ai.puzzles`): "Which capture?" when the tile turned over
captures in two or more really different ways (mirror-image rows are one way,
:func:`bot.games.fishing.ai.review.choices`); laying it down instead is among the answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games import N_
from bot.games.fishing.ai.review import choices
from bot.games.fishing.engine import FishingState
from bot.games.fishing.engine.actions import Capture
from bot.games.fishing.engine.model import FishingPhase

__all__ = ["KINDS", "kind"]

KINDS: dict[str, str] = {"capture": N_("Which capture?")}
"""The kind of puzzle Tsung Shap poses and its question (an English message id)."""


def kind(state: Any, seat: int, legal: Sequence[Any]) -> str | None:
    """``capture`` when the tile turned over captures in two really different ways, else
    None."""
    if not isinstance(state, FishingState) or state.current != seat or state.result is not None:
        return None
    if state.phase is not FishingPhase.PLAY or state.pending:
        return None
    captures = [a for a in legal if isinstance(a, Capture)]
    if len(captures) < 2:
        return None
    groups = choices(state, seat, legal)
    ways = sum(1 for group in groups if isinstance(group[0], Capture))
    return "capture" if ways >= 2 else None
