"""The collecting games' puzzles (:mod:`bot.ai.puzzles`): "What do you discard?" when the seat
to play must discard, and "Take or draw?" when it may take a discard or draw. A position where
a move wins at once (a declaration, a take that completes the hand) is no puzzle: the answer
would be obvious.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games import N_
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.collecting.engine.machine import GameState, Phase
from bot.games.dominoes.engine.actions import Draw

__all__ = ["KINDS", "kind"]

KINDS: dict[str, str] = {
    "discard": N_("What do you discard?"),
    "take-or-draw": N_("Take or draw?"),
}
"""Each kind of puzzle the collecting games pose and its question (an English message id)."""


def kind(state: Any, seat: int, legal: Sequence[Any]) -> str | None:
    """The kind of puzzle ``seat``'s decision in ``state`` is, or None when it is none."""
    if not isinstance(state, GameState) or state.current != seat or state.result is not None:
        return None
    if any(isinstance(action, Declare) for action in legal):
        return None
    if state.phase is Phase.DISCARD:
        discards = {str(a) for a in legal if isinstance(a, Discard)}
        return "discard" if len(discards) >= 2 and len(discards) == len(legal) else None
    if state.phase is Phase.TAKE_OR_DRAW:
        takes = [a for a in legal if isinstance(a, Take)]
        draws = [a for a in legal if isinstance(a, Draw)]
        if takes and draws and len(takes) + len(draws) == len(legal):
            return "take-or-draw"
    return None
