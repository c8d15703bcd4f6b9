"""An absent player's turn in the collecting games, played *passively*
(:meth:`bot.ai.family.GameAI.passive_action`).

Draw, then discard the least useful tile (the one the greedy computer player would let go);
never take a discard, never declare. An absent player therefore can never win a pot by the
computer's skill.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import KINDS, legal_actions, view
from bot.games.collecting.ai.core import evaluator_for
from bot.games.collecting.ai.greedy import best_discard
from bot.games.collecting.ai.knowledge import read_view
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.machine import GameState
from bot.games.dominoes.engine.actions import Draw

__all__ = ["passive_action"]


def passive_action(state: GameState, seat: int, rng: random.Random) -> Action:
    """The passive action for ``seat`` (the seat to act) in ``state``."""
    legal: list[Action] = legal_actions(state)
    if Draw() in legal:
        return Draw()
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        return _least_useful(state, seat, discards)
    # No draw and no discard left (an empty wall): anything but a win, if the rules allow it.
    return _not_winning(legal)


def _least_useful(state: GameState, seat: int, discards: Sequence[Discard]) -> Discard:
    """The discard that leaves the hand closest to a win (the greedy player's discard), even
    from a winning hand, which the greedy player itself would declare instead."""
    seen = read_view(view(state, seat), discards)
    evaluator = evaluator_for(state.rules)
    _, _, kind = best_discard(evaluator, seen.hand, seen.unseen(), seen.just_taken)
    choice = Discard(KINDS[kind]) if kind >= 0 else discards[0]
    return choice if choice in discards else discards[0]


def _not_winning(legal: Sequence[Action]) -> Action:
    for action in legal:
        if not isinstance(action, Declare | Take):
            return action
    for action in legal:
        if not isinstance(action, Declare):
            return action
    return legal[0]
