"""The ``master`` computer player for Tsung Shap: determinized play-outs of its candidate moves.

Tsung Shap hides only the order of the piles (from everybody, the players included), so a
determinization is a random order of the unseen tiles (every tile not on the row, not captured
and not the turned one), cut into the two piles at their known sizes. The candidates are the
expert's: every capture the turned tile allows, else both placements (declining a capture only
hands the opponent the same tiles as a claim). Each is played out to the end of the game on the
same orders (common random numbers), and a play-out scores 1 for a win, 1/2 for a draw (plus
:data:`POINTS` per point of final lead, with the kernel).

* **With numba** (the simulator's extra) the play-outs run in the compiled kernel
  (:mod:`bot.games.fishing.ai.kernel`), both seats playing the expert (without its exact endgame),
  about ninety times faster than through the engine: :data:`KERNEL_BUDGET` per decision.
* **Without numba** they run through the engine's ``apply`` with the ``greedy`` player in both
  seats (the state of a play-out is built from the view and the sampled piles; the real game's
  state is never read), at a thirtieth of the budget.

The expert's move is the default; another replaces it only when its play-outs beat it by
:data:`MARGIN` standard errors of the paired difference. Claims, the draw and the exact endgame
(six tiles or fewer unseen, searched exactly by the expert) are the expert's. ``budget`` (or
``KAPSHAP_MASTER_BUDGET``) is the number of play-outs per decision. Against the expert this
search gains a point or two (docs/benchmarks.md, "The master level: Tsung Shap"): one step of
search on the expert can gain little more, while the same search on the true piles wins 79 %.

Everything the master reads is the :class:`~bot.engine.FishingView` (``tests/ai/
test_fishing_master.py`` checks that its decisions do not change with the hidden orders).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bot.ai.budget import default_budget
from bot.engine import Deal, apply, legal_actions, view
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET
from bot.games.fishing.ai.players import ExpertFishingPlayer, GreedyFishingPlayer
from bot.games.fishing.engine import FishingPhase, FishingState, FishingView
from bot.games.fishing.engine.actions import Capture, ComboKind, End, FishingAction, Place

__all__ = [
    "DEFAULT_BUDGET",
    "KERNEL_BUDGET",
    "MARGIN",
    "POINTS",
    "MasterFishingPlayer",
    "action_number",
    "pick",
]

KERNEL_BUDGET = 1_500
"""Play-outs per decision by default when the compiled kernel runs (docs/benchmarks.md)."""
DEFAULT_BUDGET = 60
"""Play-outs per decision by default without numba: they run in Python, about 4 ms each."""
_PYTHON_SHARE = 30
"""Without numba a given budget buys this many times fewer play-outs."""
MARGIN = 1.0
"""Standard errors by which a move must beat the expert's in the play-outs to be preferred."""
POINTS = 0.005
"""What each point of the final lead adds to a compiled play-out's score (a win scores 1)."""

_HOW = {
    (ComboKind.PAIR, End.LEFT): 0,
    (ComboKind.PAIR, End.RIGHT): 1,
    (ComboKind.TRIPLET, End.LEFT): 2,
    (ComboKind.TRIPLET, End.RIGHT): 3,
    (ComboKind.TRIPLET, End.ENDS): 4,
}


def action_number(action: Capture | Place) -> int:
    """The kernel's number of a capture or placement (:mod:`bot.games.fishing.ai.kernel`)."""
    if isinstance(action, Place):
        return 5 if action.end is End.LEFT else 6
    return _HOW[(action.kind, action.end)]


def pick(scores: Sequence[Sequence[float]], base: int, margin: float = MARGIN) -> int:
    """The column whose mean play-out score beats column ``base`` (the expert's move) by the
    most, if by more than ``margin`` standard errors of the paired difference; else ``base``."""
    n = len(scores)
    best, best_gain = base, 0.0
    if n < 2:
        return base
    for column in range(len(scores[0])):
        if column == base:
            continue
        diffs = [row[column] - row[base] for row in scores]
        mean = sum(diffs) / n
        if mean <= best_gain:
            continue
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > margin * math.sqrt(variance / n):
            best, best_gain = column, mean
    return best


def _pieces_by_kind(tile_count: int) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in KINDS]
    for piece in range(tile_count):
        out[PIECE_KINDS[piece % PIECES_PER_SET]].append(piece)
    return out


def _sampled_state(v: FishingView, rng: random.Random) -> FishingState:
    """A state the view cannot tell from the real one: the unseen tiles in a random order."""
    rules = v.rules
    free = _pieces_by_kind(rules.tile_count)

    def piece(index: int) -> int:
        return free[index].pop()

    row = tuple(piece(t.index) for t in v.row)
    captured = tuple(tuple(piece(t.index) for t in tiles) for tiles in v.captured)
    turned = piece(v.turned.index) if v.turned is not None else None
    unseen = [p for pieces in free for p in pieces]
    rng.shuffle(unseen)
    piles: list[tuple[int, ...]] = []
    at = 0
    for size in v.pile_sizes:
        piles.append(tuple(unseen[at : at + size]))
        at += size
    return FishingState(
        rules=rules,
        seats=v.seat_names,
        deal=Deal(order=tuple(range(rules.tile_count)), first_seat=v.first_seat),
        piles=tuple(piles),
        row=row,
        captured=captured,
        scores=v.scores,
        current=v.current,
        phase=v.phase,
        turn=v.turn,
        turned=turned,
        history=v.history,
    )


def _play_out(state: FishingState, first: FishingAction, seat: int, rng: random.Random) -> float:
    greedy = GreedyFishingPlayer()
    state, _ = apply(state, first)
    while state.result is None:
        mover = state.current
        state, _ = apply(state, greedy.choose(view(state, mover), legal_actions(state), rng))
    winner = state.result.winner
    return 0.5 if winner is None else (1.0 if winner == seat else 0.0)


def _python_scores(
    view: FishingView, candidates: Sequence[FishingAction], seat: int, deals: int, seed: int
) -> list[list[float]]:
    rng = random.Random(seed)
    scores: list[list[float]] = []
    for _ in range(deals):
        key = rng.getrandbits(64)
        state = _sampled_state(view, random.Random(key))
        scores.append([_play_out(state, a, seat, random.Random(key)) for a in candidates])
    return scores


class MasterFishingPlayer:
    """Determinized play-outs of each capture or placement the expert would consider."""

    level = "master"

    def __init__(
        self, budget: int | None = None, margin: float = MARGIN, points: float = POINTS
    ) -> None:
        self.budget = budget or default_budget()
        """Play-outs per decision (None: :data:`KERNEL_BUDGET`, or :data:`DEFAULT_BUDGET`
        without numba)."""
        self.margin = margin
        """Standard errors by which a move must beat the expert's (see :func:`pick`)."""
        self.points = points
        """What a point of final lead adds to a play-out's score (a win scores 1)."""
        self._expert = ExpertFishingPlayer()

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        """The expert's move unless the play-outs find a clearly better one."""
        fallback = self._expert.choose(view, legal, rng)
        if (
            view.phase is not FishingPhase.PLAY
            or view.turned is None
            or view.seat is None
            or len(view.unseen) <= ExpertFishingPlayer.exact_endgame
        ):
            return fallback
        captures: list[Capture | Place] = [a for a in legal if isinstance(a, Capture)]
        candidates = captures or [a for a in legal if isinstance(a, Place)]
        if len(candidates) < 2 or fallback not in candidates:
            return fallback
        seed = rng.getrandbits(64)
        scores = self.play_outs(view, candidates, seed)
        return candidates[pick(scores, candidates.index(fallback), self.margin)]

    def play_outs(
        self, view: FishingView, candidates: Sequence[Capture | Place], seed: int
    ) -> list[list[float]]:
        """The play-out scores of ``candidates`` (a row per deal), by the kernel if it runs."""
        from bot.games.fishing.ai import kernel as fishing_kernel

        assert view.seat is not None
        if fishing_kernel.ready():
            budget = self.budget or KERNEL_BUDGET
            deals = max(2, budget // len(candidates))
            return kernel_play_outs(view, candidates, deals, seed, points=self.points)
        budget = self.budget // _PYTHON_SHARE if self.budget else DEFAULT_BUDGET
        deals = max(2, budget // len(candidates))
        return _python_scores(view, candidates, view.seat, deals, seed)


def kernel_play_outs(
    view: FishingView,
    candidates: Sequence[Capture | Place],
    deals: int,
    seed: int,
    *,
    points: float,
    known: Sequence[Sequence[Sequence[int]]] = (),
) -> list[list[float]]:
    """The compiled kernel's play-out scores of ``candidates`` on ``deals`` deals of what the
    view hides (``known``: the piles' true orders instead, for a benchmark's ceiling only)."""
    from bot.games.fishing.ai import kernel as fishing_kernel

    assert view.turned is not None and view.seat is not None
    return fishing_kernel.rollouts(
        view.rules,
        [t.index for t in view.row],
        view.scores,
        view.seat,
        view.turn,
        view.turned.index,
        view.pile_sizes,
        [t.index for t in view.unseen],
        [action_number(a) for a in candidates],
        deals,
        seed,
        known=known,
        points=points,
    )
