"""The ``master`` computer player for Kap Shap and Kap Tai Shap: it searches.

At each real choice (which discard to take or whether to draw; which tile to discard) it plays
every candidate out many times and keeps the one that wins most often:

* **Determinized rollouts, never peeking.** Each play-out deals the tiles this seat has not
  seen (the wall and the unknown part of the other hands) at random, consistently with what the
  seat knows: every other seat keeps the tiles it is known to hold (taken from the discards
  and not discarded since), and the hand sizes and the wall size are those of the view. The
  state of the table (the live discards and who threw them, the turn, the stall count, the
  compulsory draw to come) comes from the view and its public record.
* **Inference from public moves** (``infer``, by default 5): a forward filter of each
  opponent's hidden tiles (:func:`bot.games.collecting.ai.kernel._forward_filter`,
  :data:`FORWARD_PARTICLES`
  particles built once per decision). Each particle deals that opponent a hand and draws at
  random from the tiles it could have held, and replays the whole public record of the game
  from the deal. At every decision the opponent made, a particle whose expert would have
  decided otherwise loses almost all its weight, and one that discards a tile it does not hold
  dies; the particles are resampled as they thin out. The play-outs deal each opponent the
  hidden tiles of a particle drawn by weight. The earlier inferences stay selectable:
  ``infer`` 3 picks one of :data:`SIR_TRIES` uniform draws in proportion to an importance
  weight, the exponential of a weighted sum of public features of the drawn hand
  (:func:`bot.games.collecting.ai.kernel._hand_features`, weights fitted over games of experts by
  ``benchmarks/fit_inference.py``: :data:`INFER_WEIGHTS`); ``infer`` 1 and 2 rank the draws
  and keep the best of :data:`INFER_TRIES`; ``infer`` 4 weighs :data:`FILTER_PARTICLES`
  uniform draws once per decision by those features and by earlier discards judged on
  trajectories rebuilt backwards (it is also the fallback of ``infer`` 5 when every particle
  dies). Only public moves are used, so it never peeks (``tests/ai/test_master.py``); a
  benchmark's subclass may pass the true hands (:meth:`MasterPlayer.peek`) to measure what
  perfect knowledge would give.
* **Common random numbers.** Every candidate is played out on the same deals, so their
  difference is measured with much less noise than their values. With :data:`HALVING` the
  budget goes in rounds to fewer and fewer candidates (successive halving; off by default, as
  it measured no stronger).
* **Played out by the compiled kernel** (:mod:`bot.games.collecting.ai.kernel`), every seat playing
the expert,
  the player included after its candidate move. Without numba the same functions run
  uncompiled on numpy, with a fiftieth of the budget; without numpy the master plays the
  expert's move.
* A play-out scores 1 when this seat wins, minus 1/(players - 1) when another seat does. The
  expert's own choice is the default: another move replaces it only when its play-outs beat
  it by more than :data:`MARGIN` standard errors of the paired difference (the play-outs know
  nothing of the opponents' hands, so small differences are mostly noise).

``budget`` is the number of play-outs per decision, shared among the candidates (by default
:data:`DEFAULT_BUDGET` for two players, less at bigger tables; the ``KAPSHAP_MASTER_BUDGET``
environment variable sets it for every table); ``docs/benchmarks.md`` gives the
strength and the time per decision it buys. The random stream only picks the deals of the
play-outs, so a game replays the same for the same ``rng``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bot.ai.budget import default_budget
from bot.engine import KINDS, Offer
from bot.games.collecting.ai.core import DRAW, unpack
from bot.games.collecting.ai.expert import expert_discard, expert_take
from bot.games.collecting.ai.knowledge import Seen, read_view
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.machine import Phase, View
from bot.games.dominoes.engine.actions import Draw

__all__ = ["DEFAULT_BUDGET", "MasterPlayer"]

DEFAULT_BUDGET = 4_000
"""Play-outs per decision by default for two players; a table of N players gets 4/N² of it (at
least 200), since a play-out there costs about N times as much per turn over about N times as
many turns: a decision stays well under a second here (docs/benchmarks.md)."""
_MIN_PER_CANDIDATE = 8
TRIES = 4
"""Random draws per opponent hand in a play-out, of which the closest to winning is kept."""
INFER = 5
"""The default ``infer`` of :class:`MasterPlayer`: the forward filter."""
INFER_TRIES = 16
"""The same, when the draws are also judged by the opponent's latest discard (``infer``)."""
SIR_TRIES = 32
"""Uniform draws per opponent hand among which ``infer`` 3 resamples by importance weight."""
INFER_WEIGHTS = (3.085, -0.429, -1.162, -1.495, -10.963, -1.203, -0.254, -1.405, 0.382, -0.063)
"""Weights of the features of :func:`bot.games.collecting.ai.kernel._hand_features` in the log
importance
weight of a drawn opponent hand (``infer`` 3) at two players: the log ratio of real expert
hands to uniform draws, fitted over 600 games of experts at Kap Shap Culin by
``benchmarks/fit_inference.py``."""
TABLE_INFER_WEIGHTS = (1.318, -0.090, -0.609, -0.768, -13.552, -1.284, -1.721, -4.042, 0.154, 0.0)
"""The same for bigger tables, fitted over 150 games of 6 experts at Kap Tai Shap."""
FILTER_PARTICLES = 512
"""Particles per opponent hand of ``infer`` 4, built once per decision."""
FORWARD_PARTICLES = 2_048
"""Particles per opponent hand of ``infer`` 5 (the forward filter), built once per decision."""
FILTER_WEIGHTS = (
    2.722, -0.374, -1.108, -1.239, -10.465, -1.194, -0.252, -1.373, 0.317, -0.012, 0.0,
    -0.612, -0.359,
)  # fmt: skip
"""Weights of ``infer`` 4 at two players: those of :data:`INFER_WEIGHTS` (the whole-history
count off) then the two gaps of :func:`bot.games.collecting.ai.kernel._history_gaps` (earlier
discards judged on
trajectories consistent with the whole public history), fitted together over 300 games of
experts at Kap Shap Culin (``benchmarks/fit_inference.py --gaps 4``)."""
TABLE_FILTER_WEIGHTS = (
    0.722, -0.580, -0.994, -1.251, -13.225, -1.302, -1.690, -3.580, 0.138, 0.0, 0.0,
    -1.204, -0.588,
)  # fmt: skip
"""The same for bigger tables, fitted over 100 games of 6 experts at Kap Tai Shap."""
HALVING = False
"""Whether the budget is spent by successive halving over the candidates (else evenly)."""
MARGIN = 2.0
"""Standard errors by which a move must beat the expert's in the play-outs to be preferred."""


_EVENTS = {"discard": 0, "draw": 1, "take": 2}
"""The codes of public moves for :func:`bot.games.collecting.ai.kernel._history_feature` and
:func:`bot.games.collecting.ai.kernel._forward_filter`."""


def public_record(view: View) -> list[tuple[int, int, int]]:
    """Every seat's public moves in the order played, as (seat, code, kind) with the codes of
    :data:`_EVENTS` (kind -1 for a draw): what
    :func:`bot.games.collecting.ai.kernel._forward_filter` replays."""
    return [
        (move.seat, _EVENTS[move.verb], move.tile.index if move.tile else -1)
        for move in view.history
        if move.verb in _EVENTS
    ]


def _scalars(view: View, seen: Seen) -> dict[str, int]:
    """The turn state of the view, as the kernel keeps it."""
    rules = view.rules
    seat = seen.seat
    this_turn = [m for m in view.history if m.turn == view.turn and m.seat == seat]
    drew = any(m.verb == "draw" for m in this_turn)
    took = any(m.verb == "take" for m in this_turn)
    if drew:
        then_draw = False
    elif took:
        then_draw = rules.draw_after_take
    else:
        then_draw = view.turn == 1 and rules.first_turn_extra_draw
    last_kind = -1
    if rules.offer is not Offer.ANY and view.pool and not view.pool[-1].dead:
        last_kind = view.pool[-1].tile.index
    return {
        "current": seat,
        "turn": view.turn,
        "turns_without_draw": view.turns_without_draw,
        "drew": int(drew),
        "took": int(took),
        "then_draw": int(then_draw),
        "just_taken": seen.just_taken,
        "phase": 0 if view.phase is Phase.TAKE_OR_DRAW else 2,
        "last_kind": last_kind,
        "first": view.first_seat,
        "wall_size": view.wall_size,
    }


def _unknown(seen: Seen) -> int:
    # What this seat has not seen, less what it knows the others hold: seen.unseen() already
    # leaves out face-up tiles and every seat's known tiles (its own are in its hand).
    return seen.unseen()


def rollout_choice(
    view: View,
    seen: Seen,
    candidates: Sequence[int],
    fallback: int,
    budget: int,
    rng: random.Random,
    infer: int = 0,
    fixed: Sequence[Sequence[int]] = (),
) -> int:
    """The candidate (a kind, or -1 for draw / declare) with the best play-out score; with
    ``infer``, the opponents' hands are drawn to explain their latest discards too. ``fixed``
    (benchmarks only, see :meth:`MasterPlayer.peek`) gives the other seats' true hidden tiles."""
    from bot.games.collecting.ai import kernel  # numba and numpy load only when a master decides

    if len(candidates) < 2 or not kernel.numpy_here():
        return fallback
    if not kernel.available():
        budget = max(len(candidates), budget // 50)
        # Uncompiled, weighing SIR_TRIES draws per hand costs more than the play-outs.
        infer = min(infer, 2)

    def scores_of(among: Sequence[int], deals: int) -> list[list[float]]:
        if kernel.available():
            deals = max(deals, _MIN_PER_CANDIDATE)
        keys = [rng.getrandbits(64) for _ in range(max(1, deals))]
        if infer >= 4:
            table: tuple[float, ...] = (
                FILTER_WEIGHTS if view.rules.players == 2 else TABLE_FILTER_WEIGHTS
            )
            particles = FORWARD_PARTICLES if infer >= 5 else FILTER_PARTICLES
            return play_outs(view, seen, among, keys, particles, infer, fixed, table)
        if infer >= 3:
            weights = INFER_WEIGHTS if view.rules.players == 2 else TABLE_INFER_WEIGHTS
            return play_outs(view, seen, among, keys, SIR_TRIES, infer, fixed, weights)
        if infer:
            return play_outs(view, seen, among, keys, INFER_TRIES, infer, fixed)
        return play_outs(view, seen, among, keys, TRIES, 0, fixed)

    rounds = math.ceil(math.log2(len(candidates))) if HALVING and fallback in candidates else 1
    survivors = list(candidates)
    rows: list[list[float]] = []
    for round_ in range(rounds):
        # Successive halving: each round spends an equal share of the budget on the candidates
        # left, then keeps the better half by mean score (and always the expert's move), so
        # the close contenders get the most play-outs. Survivors share every deal so far.
        scores = scores_of(survivors, budget // rounds // len(survivors))
        rows = [*rows, *scores]  # a row per deal, a column per survivor
        if round_ == rounds - 1:
            break
        means = [sum(row[c] for row in rows) for c in range(len(survivors))]
        order = sorted(range(len(survivors)), key=lambda c: -means[c])
        keep = set(order[: (len(survivors) + 1) // 2]) | {survivors.index(fallback)}
        survivors = [survivors[c] for c in sorted(keep)]
        rows = [[row[c] for c in sorted(keep)] for row in rows]
    return _pick(survivors, rows, fallback)


def play_outs(
    view: View,
    seen: Seen,
    candidates: Sequence[int],
    keys: Sequence[int],
    tries: int = 1,
    infer: int = 0,
    fixed: Sequence[Sequence[int]] = (),
    weights: Sequence[float] = (),
) -> list[list[float]]:
    """The kernel's play-out scores of ``seat``'s candidates (kinds, or -1 for draw / declare),
    a row per key: one determinized deal of what the view hides each (``tries`` random draws
    per opponent hand, the closest to winning kept; 1 is a uniform deal)."""
    from bot.games.collecting.ai import kernel

    live = [(p.tile.index, p.seat) for p in view.pool if not p.dead]
    history = public_record(view) if infer >= 5 else []
    events: list[list[tuple[int, int]]] = [[] for _ in view.hand_sizes]
    if infer >= 4 or (infer >= 3 and len(weights) == kernel.N_FEATURES and weights[-1]):
        # Only the whole-history features (infer 4; off in infer 3's weights) read the moves.
        for move in view.history:
            code = _EVENTS.get(move.verb)
            if code is not None and move.seat != seen.seat:
                events[move.seat].append((code, move.tile.index if move.tile else -1))
    return kernel.rollout_scores(
        view.rules,
        seen.seat,
        {
            "hand": unpack(seen.hand),
            "unknown": unpack(_unknown(seen)),
            "faceup": unpack(seen.faceup),
            "public": unpack(seen.public),
        },
        {
            "known": [unpack(v) for v in seen.known],
            "discarded": [unpack(v) for v in seen.discarded],
            "passed": [unpack(v) for v in seen.passed],
            "recent": [unpack(v) for v in seen.recent],
        },
        list(view.hand_sizes),
        live,
        _scalars(view, seen),
        list(candidates),
        keys,
        tries=tries,
        infer=infer,
        fixed=fixed,
        weights=weights,
        events=events,
        history=history,
    )


def _pick(candidates: Sequence[int], scores: Sequence[Sequence[float]], fallback: int) -> int:
    """The candidate whose mean play-out score beats the fallback's (the expert's move) by the
    most, if by more than :data:`MARGIN` standard errors of the paired difference; otherwise
    the fallback. Differences are paired by deal (common random numbers)."""
    if fallback not in candidates:
        return fallback
    base = candidates.index(fallback)
    n = len(scores)
    best, best_gain = fallback, 0.0
    for column, candidate in enumerate(candidates):
        if column == base:
            continue
        diffs = [row[column] - row[base] for row in scores]
        mean = sum(diffs) / n
        if mean <= best_gain or n < 2:
            continue
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > MARGIN * math.sqrt(variance / n):
            best, best_gain = candidate, mean
    return best


class MasterPlayer:
    """Determinized play-outs of every candidate move, played by the kernel's experts."""

    level = "master"

    def __init__(self, budget: int | None = None, infer: int = INFER) -> None:
        self.budget = budget if budget is not None else default_budget()
        """Play-outs per decision; None: from :data:`DEFAULT_BUDGET` by the table's size."""
        self.infer = infer
        """How the play-outs' opponent hands are made to explain their public moves (0: not;
        1: the best of several draws by fewest missing after their latest discard; 2: and most
        improving kinds; 3: importance resampling by fitted weights, see :func:`rollout_choice`
        and :func:`bot.games.collecting.ai.kernel._likely_hand`; 4: a weighted particle set per
        opponent built
        once per decision, judged by its whole public history, see
        :func:`bot.games.collecting.ai.kernel._particles`; 5: a forward filter over the game's
        public record,
        see :func:`bot.games.collecting.ai.kernel._forward_filter`)."""

    def peek(self, view: View, seen: Seen) -> Sequence[Sequence[int]]:
        """The other seats' hidden tiles if this player may see them: never at a table (here
        always empty); a benchmark's subclass overrides it to measure the ceiling of search
        with perfect knowledge of the hands."""
        return ()

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Declare a win, else the take, draw or discard whose play-outs score best."""
        if Declare() in legal:
            return Declare()
        if view.phase is Phase.DRAW:
            return Draw()
        seen = read_view(view, legal)
        players = view.rules.players
        budget = self.budget or max(200, 4 * DEFAULT_BUDGET // (players * players))
        fixed = self.peek(view, seen)
        if view.phase is Phase.TAKE_OR_DRAW:
            kinds = sorted({a.tile.index for a in legal if isinstance(a, Take) and a.tile})
            candidates = kinds + ([DRAW] if Draw() in legal else [])
            kind = rollout_choice(
                view, seen, candidates, expert_take(seen), budget, rng, self.infer, fixed
            )
            return Draw() if kind == DRAW else Take(KINDS[kind])
        kinds = sorted({a.tile.index for a in legal if isinstance(a, Discard)})
        kind = rollout_choice(
            view, seen, kinds, expert_discard(seen), budget, rng, self.infer, fixed
        )
        return Discard(KINDS[kind])
