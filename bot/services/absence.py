"""What an absent player's turn looks like: played *passively*.

When a turn timer runs out, or a seat is out of the game (folded) but its turns must still pass,
the turn is played without trying to win: each game's family says how
(:meth:`bot.ai.family.GameAI.passive_action`: draw, then the least useful discard or placement;
never a take, a capture, a claim or a declaration). An absent player therefore can never win a
pot by the computer's skill.
"""

from __future__ import annotations

import random

from bot.ai.family import ai_of
from bot.engine.family import Action, State

__all__ = ["passive_action"]


def passive_action(state: State, seat: int, rng: random.Random) -> Action:
    """The passive action for ``seat`` (the seat to act) in ``state``, as its game plays it."""
    action: Action = ai_of(state.rules.game).passive_action(state, seat, rng)
    return action
