"""An absent player's turn in Tsung Shap, played *passively*
(:meth:`bot.ai.family.GameAI.passive_action`).

Turn the tile over, then place it (at either end, by lot); never capture, never claim. An
absent player therefore can never win a pot by the computer's skill.
"""

from __future__ import annotations

import random

from bot.engine import legal_actions
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.engine import FishingState
from bot.games.fishing.engine.actions import Capture, Claim, FishingAction, Place

__all__ = ["passive_action"]


def passive_action(state: FishingState, seat: int, rng: random.Random) -> FishingAction:
    """The passive action for ``seat`` (the seat to act) in ``state``."""
    legal: list[FishingAction] = legal_actions(state)
    if Draw() in legal:
        return Draw()
    places = [a for a in legal if isinstance(a, Place)]
    if places:
        return places[rng.randrange(len(places))] if len(places) > 1 else places[0]
    others = [a for a in legal if not isinstance(a, Capture | Claim)]
    return others[0] if others else legal[0]
