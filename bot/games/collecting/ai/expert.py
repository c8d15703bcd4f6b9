"""The ``expert`` computer player: greedy's hand judgement, plus the pool and the opponents.

What it adds to :mod:`bot.games.collecting.ai.greedy` (measured against it in
``docs/benchmarks.md``):

* **The pool counts as outs.** When any discard may be taken (Culin), a face-up tile that would
  bring the hand closer is as good as in hand next turn: the player takes it before drawing.
  Each such face-up tile counts :data:`POOL_OUTS` unseen tiles. This is most of the gain: the
  expert keeps hands that the discards (its own included) already complete.
* **Sideways takes.** Under rules where the draw follows a take, a take is free, so every
  takeable tile is tried (take it, then the best discard) and kept if the hand comes out
  better by the same measure, not only when it saves a missing tile.
* **Safer discards.** Among the discards that leave the fewest tiles missing, it prefers those
  least likely to complete another hand: a player one tile short waits for one residue (or one
  kind, to finish his eye), and never for a tile he just passed over or discarded, nor (mostly)
  for a residue he has discarded. The estimated chance, per opponent who may take the tile,
  costs :data:`DANGER` outs. Under "take any discard" every other seat may take it; under Classic
  and Last+draw only the next one.

Like greedy it uses no randomness, and decides from a
:class:`~bot.games.collecting.ai.knowledge.Seen` only, so
the fast simulator plays it exactly as through a view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import KINDS, Offer
from bot.games.collecting.ai.core import (
    DECLARE,
    DOT_SHIFT,
    DRAW,
    FIELD_BITS,
    FIELD_MASK,
    KIND_COUNT,
    UNIT,
    HandEvaluator,
    count_of,
    evaluator_for,
)
from bot.games.collecting.ai.greedy import greedy_take
from bot.games.collecting.ai.knowledge import Seen, read_view
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.machine import Phase, View
from bot.games.dominoes.engine.actions import Draw

__all__ = ["ExpertPlayer", "completion_risk", "expert_discard", "expert_take"]

POOL_OUTS = 6
"""Unseen outs one face-up improving tile is worth (takeable next turn for certain)."""
DANGER = 10.0
"""Outs a discard costs per unit of chance that it completes another player's hand."""

# Chance that a tile completes a hand that is one tile short (measured over expert-vs-greedy
# Kap Shap games, where greedy is one tile short from its second turn on): a kind the player
# just passed over or discarded never does; a residue he did is rarely the one he waits for.
_P_KIND_PASSED = 0.005
_P_RESIDUE_PASSED = 0.05
_P_RESIDUE_DISCARDED = 0.03
_P_OTHER = 0.2


def completion_risk(seen: Seen, ev: HandEvaluator) -> list[float]:
    """Per kind, the estimated chance that discarding it lets another player complete his hand.

    Every seat that may take the discard counts (the next one only when just the most recent
    discard may be taken); the chances combine as independent.
    """
    players = seen.rules.players
    if seen.rules.offer is Offer.ANY:
        others = [s for s in range(players) if s != seen.seat]
    else:
        others = [(seen.seat + 1) % players]
    residue = ev.residue
    safe_chance = [1.0] * KIND_COUNT
    for seat in others:
        passed = seen.passed[seat] | seen.recent[seat]
        discarded = seen.discarded[seat]
        passed_residues = 0
        discarded_residues = 0
        for k in range(KIND_COUNT):
            if count_of(passed, k):
                passed_residues |= 1 << residue[k]
            if count_of(discarded, k):
                discarded_residues |= 1 << residue[k]
        for k in range(KIND_COUNT):
            bit = 1 << residue[k]
            if count_of(passed, k):
                p = _P_KIND_PASSED
            elif passed_residues & bit:
                p = _P_RESIDUE_PASSED
            elif discarded_residues & bit:
                p = _P_RESIDUE_DISCARDED
            else:
                p = _P_OTHER
            safe_chance[k] *= 1.0 - p
    return [1.0 - s for s in safe_chance]


def _live_pool(seen: Seen) -> int:
    # Under LAST a discard is takeable once, by the next player: nothing waits in the pool.
    return seen.faceup if seen.rules.offer is Offer.ANY else 0


def _hand_score(ev: HandEvaluator, hand: int, unseen: int, pool: int) -> tuple[int, int]:
    """``(missing, outs)`` of a hand between turns, face-up improving tiles included."""
    missing, mask, _ = ev.info(hand)
    outs = ((mask * unseen) >> DOT_SHIFT) & FIELD_MASK
    outs += POOL_OUTS * (((mask * pool) >> DOT_SHIFT) & FIELD_MASK)
    return missing, outs


def _best_discard(
    ev: HandEvaluator, hand: int, banned: int, unseen: int, pool: int, risk: Sequence[float]
) -> tuple[tuple[int, float], int]:
    """The discard with the fewest missing, then the most outs less the risk it carries.

    Returns ``((missing, -value), kind)``: smaller is better.
    """
    best = (99, 0.0)
    best_kind = -1
    for k in range(KIND_COUNT - 1, -1, -1):
        if k == banned or not (hand >> (FIELD_BITS * k)) & FIELD_MASK:
            continue
        missing, outs = _hand_score(ev, hand - UNIT[k], unseen, pool)
        score = (missing, DANGER * risk[k] - outs)
        if best_kind < 0 or score < best:
            best, best_kind = score, k
    return best, best_kind


def expert_take(seen: Seen) -> int:
    """The kind the expert takes from the discards, or
    :data:`~bot.games.collecting.ai.core.DRAW`."""
    ev = evaluator_for(seen.rules)
    hand = seen.hand
    takeable = seen.takeable
    missing, _, improvers = ev.info(hand)
    if missing == 1:
        for k in improvers:
            if (takeable >> (FIELD_BITS * k)) & FIELD_MASK:
                return k  # it wins
    unseen = seen.unseen()
    if not seen.rules.draw_after_take or not takeable:
        # A take replaces the draw: greedy's reasoning holds (only a step forward beats it).
        return greedy_take(ev, hand, unseen, takeable, seen.can_draw)
    risk = completion_risk(seen, ev)
    pool = _live_pool(seen)
    missing, outs = _hand_score(ev, hand, unseen, pool)
    best = (missing, -float(outs))
    best_kind = DRAW
    for k in range(KIND_COUNT):
        if (takeable >> (FIELD_BITS * k)) & FIELD_MASK:
            # Under LAST nothing waits in the pool (pool is 0): subtracting the taken tile
            # would make a negative vector, whose weights are meaningless.
            after = pool - UNIT[k] if pool else 0
            score, _ = _best_discard(ev, hand + UNIT[k], k, unseen, after, risk)
            if score < best:
                best, best_kind = score, k
    if best_kind == DRAW and not seen.can_draw:
        return greedy_take(ev, hand, unseen, takeable, False)
    return best_kind


def expert_discard(seen: Seen) -> int:
    """The kind the expert discards, or :data:`~bot.games.collecting.ai.core.DECLARE` when the hand
    wins."""
    ev = evaluator_for(seen.rules)
    if ev.table(seen.hand)[0]:
        return DECLARE
    risk = completion_risk(seen, ev)
    unseen = seen.unseen()
    return _best_discard(ev, seen.hand, seen.just_taken, unseen, _live_pool(seen), risk)[1]


class ExpertPlayer:
    """Greedy's judgement, plus face-up outs, free sideways takes and safer discards."""

    level = "expert"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Declare a win, else the expert's take, draw or discard (``rng`` is not used)."""
        if Declare() in legal:
            return Declare()
        if view.phase is Phase.DRAW:
            return Draw()
        seen = read_view(view, legal)
        if view.phase is Phase.TAKE_OR_DRAW:
            kind = expert_take(seen)
            return Draw() if kind == DRAW else Take(KINDS[kind])
        kind = expert_discard(seen)
        assert kind != DECLARE  # the engine offers Declare exactly when the hand wins
        return Discard(KINDS[kind])
