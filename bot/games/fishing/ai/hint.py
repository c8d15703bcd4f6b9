"""A hint in Tsung Shap: the expert's move for the seat to act, and why in one sentence (the
points it captures or claims, what a placed tile leaves the opponent to capture).

Tsung Shap hides only the order of the piles, which nobody knows: the view
(:class:`~bot.games.fishing.engine.FishingView`) is what the seat may see, and the expert
decides from it alone (its ties broken by a fixed stream, so a view gives one hint).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.review_words import HINTS, Words
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.ai.players import ExpertFishingPlayer
from bot.games.fishing.ai.review import phrase
from bot.games.fishing.engine import FishingView, row_captures
from bot.games.fishing.engine.actions import Capture, Claim, FishingAction, Place

__all__ = ["exposure", "hint"]


def hint(view: FishingView, legal: Sequence[FishingAction]) -> tuple[FishingAction, Words]:
    """The expert's move and the hint's one line (:data:`HINTS` ``line``)."""
    action = ExpertFishingPlayer().choose(view, legal, random.Random(0))
    return action, Words(
        HINTS["line"], (("move", phrase(str(action))), ("why", _why(view, action)))
    )


def exposure(view: FishingView, place: Place) -> int:
    """How many of the unseen tiles could capture at the ends of the row ``place`` leaves."""
    assert view.turned is not None
    row = [t.index for t in view.row]
    row = [view.turned.index, *row] if str(place.end) == "left" else [*row, view.turned.index]
    return sum(1 for tile in view.unseen if row_captures(view.rules, row, tile.index))


def _why(view: FishingView, action: FishingAction) -> Words:
    if isinstance(action, Capture):
        points = {str(c.capture): c.score for c in view.options}.get(str(action), 0)
        return Words(HINTS["capture"], (("points", str(points)),))
    if isinstance(action, Claim):
        points = {str(c.claim): c.score for c in view.pending}.get(str(action), 0)
        return Words(HINTS["claim"], (("points", str(points)),))
    if isinstance(action, Place) and view.turned is not None:
        return Words(HINTS["place"], (("after", str(exposure(view, action))),))
    if isinstance(action, Draw):
        return Words(HINTS["turn-over"])
    return Words(HINTS["turn-over"])
