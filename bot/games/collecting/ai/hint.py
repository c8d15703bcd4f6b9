"""A hint in the collecting games: the expert's move for the seat to act, and why in one
sentence about the hand it leaves (the eye and ten-pairs it keeps, the tiles it waits on).

Everything is read from the seat's own view (:class:`~bot.games.collecting.engine.machine.View`)
and its legal actions: the expert decides from them alone
(:mod:`bot.games.collecting.ai.expert`), and the words come from the hand guide
(:func:`bot.games.collecting.engine.hands.guide_hand`) of the hand the move leaves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.review_words import HINTS, REASONS, Words, action_phrase, nt
from bot.games.collecting.ai.expert import ExpertPlayer
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.hands import HandGuide, guide_hand
from bot.games.collecting.engine.machine import View

__all__ = ["hint", "made_words"]


def hint(view: View, legal: Sequence[Action]) -> tuple[Action, Words]:
    """The expert's move and the hint's one line (:data:`HINTS` ``line``)."""
    # The expert uses no randomness: the same view always gives the same move.
    action = ExpertPlayer().choose(view, legal, random.Random(0))
    move = action_phrase(str(action))
    return action, Words(HINTS["line"], (("move", move), ("why", _why(view, action))))


def made_words(guide: HandGuide) -> Words:
    """What a hand has grouped: the eye and how many ten-pairs."""
    pairs = len(guide.pairs)
    if guide.eye is not None and pairs:
        return nt(None, "the eye and {n} ten-pair", "the eye and {n} ten-pairs", pairs)
    if pairs:
        return nt(None, "{n} ten-pair", "{n} ten-pairs", pairs)
    return Words(HINTS["eye"] if guide.eye is not None else HINTS["nothing"])


def _why(view: View, action: Action) -> Words:
    rules = view.rules
    hand = list(view.hand)
    if isinstance(action, Declare):
        return Words(HINTS["declare"])
    if isinstance(action, Take) and action.tile is not None:
        guide = guide_hand([*hand, action.tile], rules)
        if guide.winning:
            return Words(REASONS["winning-take"], (("tile", str(action.tile)),))
        return Words(HINTS["take"], (("tile", str(action.tile)), ("made", made_words(guide))))
    if isinstance(action, Discard) and action.tile is not None:
        kept = list(hand)
        kept.remove(action.tile)
        guide = guide_hand(kept, rules)
        if guide.waiting:
            tiles = ", ".join(str(t) for t in guide.waiting)
            return nt(
                None,
                "It keeps {made} and waits on {n} tile: {tiles}.",
                "It keeps {made} and waits on {n} tiles: {tiles}.",
                len(guide.waiting),
                made=made_words(guide),
                tiles=tiles,
            )
        return Words(HINTS["keeps"], (("made", made_words(guide)),))
    return Words(HINTS["draw"])
