"""The ``greedy`` computer player: plays for the fewest tiles missing, then the most outs.

* It always declares a win.
* **Discard:** the tile whose removal leaves the fewest tiles missing from a winning hand
  (:class:`~bot.games.collecting.ai.core.HandEvaluator`); ties go to the discard that leaves the
  most *outs*:
  unseen tiles (not in its hand, not face up, not known to be in another hand) of a kind that
  would bring the hand one tile closer — for a hand one tile short, exactly the tiles that
  complete it. Remaining ties: the highest kind (military tiles before civil ones).
* **Take:** a discard is taken only when it leaves the hand one tile fewer missing after the best
  discard (a take that wins is always taken; among several, the one leaving the most outs).
  Under Classic a take *replaces* the draw: a sure step forward beats the draw, which helps only
  with probability outs / unseen, while a take that is not a step forward gives that chance up,
  so it never pays. Under Culin and Last+draw the draw still follows, so a take costs nothing —
  but then any improving take is also a sure step and the rule is the same; extra outs from
  side-ways takes are left to the expert. When the wall is empty and taking is the only move,
  it takes the discard that leaves the fewest missing, then the most outs.

No randomness: the ``rng`` argument is never used, so the game's random stream is untouched.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import KINDS
from bot.games.collecting.ai.core import (
    DECLARE,
    DOT_SHIFT,
    DRAW,
    FIELD_BITS,
    FIELD_MASK,
    UNIT,
    HandEvaluator,
    evaluator_for,
)
from bot.games.collecting.ai.knowledge import read_view
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.machine import Phase, View
from bot.games.dominoes.engine.actions import Draw

__all__ = ["GreedyPlayer", "best_discard", "greedy_discard", "greedy_take"]


def best_discard(ev: HandEvaluator, hand: int, unseen: int, banned: int) -> tuple[int, int, int]:
    """``(missing, outs, kind)`` of greedy's discard from a full hand, never kind ``banned``."""
    best_missing = 99
    best_outs = -1
    best_kind = -1
    for missing, kind, mask in ev.table(hand)[1]:
        if kind == banned:
            continue
        if missing > best_missing:
            break  # rows are sorted by missing
        outs = ((mask * unseen) >> DOT_SHIFT) & FIELD_MASK
        if outs > best_outs:
            best_missing, best_outs, best_kind = missing, outs, kind
    return best_missing, best_outs, best_kind


def greedy_discard(ev: HandEvaluator, hand: int, unseen: int, just_taken: int) -> int:
    """The kind greedy discards from a full hand, or :data:`DECLARE` when the hand wins."""
    if ev.table(hand)[0]:
        return DECLARE
    return best_discard(ev, hand, unseen, just_taken)[2]


def greedy_take(ev: HandEvaluator, hand: int, unseen: int, takeable: int, can_draw: bool) -> int:
    """The kind greedy takes from the discards, or :data:`DRAW`.

    ``takeable`` packs the discards this seat may take now.
    """
    missing, _, improvers = ev.info(hand)
    candidates = [k for k in improvers if (takeable >> (FIELD_BITS * k)) & FIELD_MASK]
    if not candidates:
        return DRAW if can_draw else forced_take(ev, hand, unseen, takeable)
    if missing == 1 or len(candidates) == 1:
        # One tile short, every improving take wins (the first is as good as any); a single
        # candidate needs no comparison.
        return candidates[0]
    best_kind = DRAW
    best_outs = -1
    best_rows: tuple[tuple[int, int, int], ...] = ()
    for kind, (outs, rows) in zip(
        candidates, ev.outs_after_takes(hand, candidates, unseen), strict=True
    ):
        if outs > best_outs:
            best_kind, best_outs, best_rows = kind, outs, rows
    ev.remember_table(hand + UNIT[best_kind], best_rows)  # the discard comes next
    return best_kind


def forced_take(ev: HandEvaluator, hand: int, unseen: int, takeable: int) -> int:
    """A take when no draw is possible and no take improves: fewest missing, then most outs.

    A fallback only: with the wall empty the engine offers nothing but winning takes
    (RULES.md §2.4), and a winning take always improves the hand.
    """
    best: tuple[int, int] | None = None
    best_kind = DRAW
    for kind in range(len(KINDS)):
        if not (takeable >> (FIELD_BITS * kind)) & FIELD_MASK:
            continue
        with_it = hand + UNIT[kind]
        if ev.table(with_it)[0]:
            return kind
        missing, outs, _ = best_discard(ev, with_it, unseen, kind)
        score = (-missing, outs)
        if best is None or score > best:
            best, best_kind = score, kind
    return best_kind


class GreedyPlayer:
    """Fewest tiles missing, then most outs; takes only discards that bring it closer."""

    level = "greedy"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Declare a win, else greedy's take, draw or discard (``rng`` is not used)."""
        if Declare() in legal:
            return Declare()
        if view.phase is Phase.DRAW:
            return Draw()
        seen = read_view(view, legal)
        ev = evaluator_for(view.rules)
        unseen = seen.unseen()
        if view.phase is Phase.TAKE_OR_DRAW:
            kind = greedy_take(ev, seen.hand, unseen, seen.takeable, seen.can_draw)
            return Draw() if kind == DRAW else Take(KINDS[kind])
        kind = greedy_discard(ev, seen.hand, unseen, seen.just_taken)
        assert kind != DECLARE  # the engine offers Declare exactly when the hand wins
        return Discard(KINDS[kind])
