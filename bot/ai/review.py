"""Win-chance estimates by Monte Carlo play-outs, and the review of a player's decisions.

**What is estimated.** The chance that a seat wins the game if it plays a given action now and
everybody (itself included) then plays as the computer's play-out policy does. Only what the seat
could see is used: each play-out starts from :func:`bot.engine.hidden.determinize` (the tiles it
has not seen dealt at random into the other hands and the wall, or the Tsung Shap piles), never
from the true hidden tiles. Every action of one decision is played out on the *same* deals
(common random numbers), so the difference between two actions is measured with less noise than
either value.

**The play-out is pluggable, at two levels.**

* A :data:`PlayOut` takes a (determinized) state, the seat being judged and a random stream,
  plays the game to its end and returns 1.0 when that seat wins and 0.0 otherwise (a drawn game
  is not a win). :func:`expert_playout` plays every seat as the ``expert`` level through the
  engine's public API.
* An :data:`Estimator` does a whole decision's work at once: ``(state, seat, actions, rollouts,
  rng) -> scores`` (per action, one score per play-out, every action on the same deals).
  :func:`estimate_actions` is the one made from a play-out. :func:`default_estimator` is what
  reviews and ``kapshap analyse`` use: the compiled expert play-outs where numba is installed
  (:func:`kernel_estimator` for Kap Shap and Kap Tai Shap, the ``master`` level's kernel;
  :func:`fishing_estimator` for Tsung Shap, :mod:`bot.ai.fishing_kernel`), else the engine's
  (expert play-outs; greedy ones for Tsung Shap, whose Python expert is too slow to play out).

**Judging a decision** (:func:`assess`), within a budget of ``rollouts`` play-outs
(:func:`default_rollouts`: about the same time per decision in every game). Every distinct legal
action is a candidate (two Tsung Shap moves that leave mirror-image rows are one: a tie is not
a choice). Actions that end the game are scored exactly. The others are played out in two
phases:

* *The search* (at most two thirds of the budget when a move played is judged): rounds on
  fresh shared deals, each twice the last once every candidate has had :data:`MIN_DEALS`. A
  candidate behind the leader by more than :data:`ELIMINATE_Z` standard errors of the paired
  difference stops being played out; the search stops once no candidate left could beat the
  leader by more than :data:`MARGIN` at :data:`KNOWN_Z` standard errors (the best move is known
  within 2 points). So the play-outs go to the close moves.
* *The verdict*: the move played against the best one, in rounds of fresh deals until its
  verdict is settled (what it surely lost lies clearly on one side of every threshold, and
  the difference is known within :data:`MARGIN`) or the budget is spent. When other moves came
  close to the best, only these fresh deals count, so that the luck that made the leader the
  best among several does not count against the move played.

**Verdicts** (:class:`Verdict`) compare the move played with the *best* move by the estimates,
not with the expert's choice (which is shown beside it, so the expert's mistakes show too): the
loss is the best move's chance minus the played move's, in points (percentage points of the
chance to win). A verdict names what the move *surely* lost, at 95 % confidence (its loss less
:data:`CONFIDENCE_Z` standard errors): an inaccuracy from 4 points, a mistake from 8, a
blunder from 16 (:data:`THRESHOLDS`); less, or within noise, is "about as good". Each named
mistake comes with a reason in the game's terms (:func:`reason_words`).

**A review** (:func:`review_decision`, :func:`decisions_of`) takes a finished game's record and
one seat: each of its decisions with a real choice, numbered as the record numbers its actions
(``kapshap analyse FILE --at N`` opens the position in which action N was played).
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.ai.levels import player_for
from bot.engine import (
    KINDS,
    AnyAction,
    AnyState,
    AnyView,
    Capture,
    Claim,
    Declare,
    Discard,
    Draw,
    FishingPhase,
    FishingState,
    FishingView,
    GameState,
    Offer,
    Place,
    Swept,
    Take,
    Tile,
    apply,
    legal_actions,
    view,
)
from bot.engine.collecting import Phase
from bot.engine.hands import tile_values
from bot.engine.hidden import arrangements, determinize
from bot.engine.record import GameRecord, replay
from bot.engine.rules import Game, RuleSet

__all__ = [
    "ACTION_PHRASES",
    "BLUNDER",
    "CONFIDENCE_Z",
    "ELIMINATE_Z",
    "INACCURACY",
    "KNOWN_Z",
    "MARGIN",
    "MISTAKE",
    "REASONS",
    "REVIEW_TEMPLATES",
    "SENTENCES",
    "THRESHOLDS",
    "VERDICT_WORDS",
    "Assessment",
    "Decision",
    "Estimate",
    "Estimator",
    "Option",
    "PlayOut",
    "Verdict",
    "Words",
    "action_phrase",
    "action_words",
    "assess",
    "compiled",
    "decisions_of",
    "default_estimator",
    "default_playout",
    "default_rollouts",
    "estimate_actions",
    "exact_values",
    "expert_playout",
    "fishing_estimator",
    "greedy_playout",
    "kernel_estimator",
    "percent",
    "python_estimator",
    "reason_words",
    "review_decision",
    "sentence",
    "sentence_words",
]

PlayOut = Callable[[AnyState, int, random.Random], float]
"""Plays a state to its end; 1.0 if the given seat wins, else 0.0."""

Estimator = Callable[[AnyState, int, Sequence[AnyAction], int, random.Random], list[list[float]]]
"""``(state, seat, actions, rollouts, rng) -> scores``: per action, ``rollouts`` scores (1.0 a
win for ``seat``, else 0.0), every action played out on the same determinized deals."""

CONFIDENCE_Z = 1.96
"""Standard errors for 95 % confidence: a verdict is named only beyond this much noise."""
ELIMINATE_Z = 3.0
"""Standard errors by which a candidate must trail the leader to stop being played out: more
than the verdict's 1.96, as the leader is the best of several noisy estimates (its chance is
overstated while the deals are few)."""
KNOWN_Z = 2.0
"""Standard errors within which no candidate left may beat the leader by more than
:data:`MARGIN` for the best move to be known (after :data:`MIN_DEALS` deals each)."""
MARGIN = 0.02
"""The best move is known within this much (2 points) once sampling stops early."""
INACCURACY = 0.04
MISTAKE = 0.08
BLUNDER = 0.16
THRESHOLDS = (INACCURACY, MISTAKE, BLUNDER)
"""Losses (of the chance to win) from which a move is an inaccuracy, a mistake, a blunder."""
FIRST_DEALS = 64
"""Deals of the first round of play-outs (at most a quarter of the budget per candidate)."""
MIN_DEALS = 128
"""Deals every candidate gets before any stops being played out or sampling stops: fewer make
the standard errors, and the leader, too uncertain (the leader of eight moves after 32 deals is
often only the luckiest)."""

_ROLLOUTS = {Game.KAP_SHAP: 12_000, Game.KAP_TAI_SHAP: 12_000, Game.TSUNG_SHAP: 4_000}
"""Play-outs per decision by default with the compiled play-outs (Kap Tai Shap: up to six seats;
bigger tables get less, see :func:`default_rollouts`)."""
_PYTHON_SHARE = 20
"""Without numba the play-outs run through the engine, 20 to 30 times slower: the default
budget is this many times smaller."""


def compiled(game: Game | str) -> bool:
    """Whether the game's play-outs run compiled here (numba installed, the kernel on)."""
    try:
        if Game(game) is Game.TSUNG_SHAP:
            from bot.ai import fishing_kernel

            return fishing_kernel.ready()
        from bot.ai import kernel
    except ImportError:  # pragma: no cover - the modules import without numpy
        return False
    return kernel.available() and kernel.numpy_here()


def default_rollouts(rules: RuleSet) -> int:
    """The play-outs a review or an analysis may spend on one decision by default: about the
    same time per decision for every game (docs/benchmarks.md, "Reviews")."""
    budget = _ROLLOUTS[rules.game]
    if rules.game is Game.KAP_TAI_SHAP and rules.players > 6:
        # Beyond six seats a play-out lasts about N/6 times longer than at six.
        budget = max(1_000, budget * 6 // rules.players)
    if not compiled(rules.game):
        budget = max(100, budget // _PYTHON_SHARE)
    return budget


# ---------------------------------------------------------------------------------------------
# Play-outs and estimators


def _playout_with(level: str) -> PlayOut:
    def playout(state: AnyState, seat: int, rng: random.Random) -> float:
        players = [player_for(state.rules.game, level) for _ in range(state.rules.players)]
        while state.result is None:
            current = state.current
            legal = legal_actions(state)
            action = players[current].choose(view(state, current), legal, rng)
            state, _ = apply(state, action)
        return 1.0 if state.result.winner == seat else 0.0

    playout.__name__ = f"{level}_playout"
    playout.__doc__ = f"Every seat plays as the {level} level, through the public engine API."
    return playout


expert_playout: PlayOut = _playout_with("expert")
"""Every seat plays as the ``expert`` level, through the public engine API."""
greedy_playout: PlayOut = _playout_with("greedy")
"""Every seat plays as the ``greedy`` level (cheaper, weaker play-outs)."""


def default_playout(game: Game | str) -> PlayOut:
    """The play-out of the engine's estimator: the expert for the collecting games; greedy for
    Tsung Shap, whose Python expert searches the end of the game exactly and costs ten times
    more (the compiled estimator plays the expert)."""
    return greedy_playout if Game(game) is Game.TSUNG_SHAP else expert_playout


def default_estimator(game: Game | str) -> Estimator:
    """The estimator reviews and analyses use: the compiled expert play-outs where numba is
    installed (:func:`kernel_estimator`, :func:`fishing_estimator`); otherwise
    :func:`estimate_actions` with :func:`default_playout`."""
    if not compiled(game):
        return python_estimator(game)
    return fishing_estimator if Game(game) is Game.TSUNG_SHAP else kernel_estimator


def python_estimator(game: Game | str) -> Estimator:
    """:func:`estimate_actions` with :func:`default_playout`: the engine's public API only."""
    playout = default_playout(game)

    def estimate(
        state: AnyState,
        seat: int,
        actions: Sequence[AnyAction],
        rollouts: int,
        rng: random.Random,
    ) -> list[list[float]]:
        return estimate_actions(state, seat, actions, rollouts, rng, playout)

    return estimate


def kernel_estimator(
    state: AnyState,
    seat: int,
    actions: Sequence[AnyAction],
    rollouts: int,
    rng: random.Random,
) -> list[list[float]]:
    """An :data:`Estimator` for Kap Shap and Kap Tai Shap on the compiled kernel: the deals
    are uniform over what ``seat``'s view hides (as :func:`~bot.engine.hidden.determinize`),
    and every seat plays the expert (as :func:`expert_playout`), in the kernel of the
    ``master`` level. Falls back to :func:`estimate_actions` for anything it cannot map (Tsung
    Shap, a compulsory draw)."""
    from bot.ai.knowledge import read_view
    from bot.ai.master import play_outs

    fallback = python_estimator(state.rules.game)
    if state.current != seat or state.result is not None:
        raise ValueError("the estimate needs a state where the seat is to play")
    if not isinstance(state, GameState) or state.phase not in (
        Phase.TAKE_OR_DRAW,
        Phase.DISCARD,
    ):
        return fallback(state, seat, actions, rollouts, rng)
    columns: list[int] = []
    for action in actions:
        if isinstance(action, Take | Discard) and action.tile is not None:
            columns.append(action.tile.index)
        elif isinstance(action, Draw | Declare):
            columns.append(-1)
        else:
            return fallback(state, seat, actions, rollouts, rng)
    seat_view = view(state, seat)
    seen = read_view(seat_view, legal_actions(state))
    candidates = sorted(set(columns))
    keys = [rng.getrandbits(64) for _ in range(rollouts)]
    rows = play_outs(seat_view, seen, candidates, keys)
    # The kernel scores another seat's win below zero and a drawn game 0: only a win counts.
    return [[1.0 if row[candidates.index(c)] >= 1.0 else 0.0 for row in rows] for c in columns]


def fishing_estimator(
    state: AnyState,
    seat: int,
    actions: Sequence[AnyAction],
    rollouts: int,
    rng: random.Random,
) -> list[list[float]]:
    """An :data:`Estimator` for Tsung Shap on the compiled kernel: each action is applied to
    the public position (a sweep's new row is laid from the pile in the play-out; a capture the
    move misses is claimed at once, as the expert claims, since claims are not in the kernel),
    then both seats play the expert from the next turn (:func:`bot.ai.fishing_kernel.
    review_rollouts`) on random orders of the piles, every action on the same orders."""
    from bot.ai import fishing_kernel

    if state.current != seat or state.result is not None:
        raise ValueError("the estimate needs a state where the seat is to play")
    if not isinstance(state, FishingState):
        return python_estimator(state.rules.game)(state, seat, actions, rollouts, rng)
    seat_view = view(state, seat)
    starts: list[tuple[tuple[int, ...], int, int, int, int, int]] = []
    fixed: dict[int, float] = {}
    for index, action in enumerate(actions):
        start = _fishing_start(state, seat, action)
        if isinstance(start, float):
            fixed[index] = start
        else:
            starts.append(start)
    seed = rng.getrandbits(64)
    rows = (
        fishing_kernel.review_rollouts(
            state.rules,
            starts,
            seat_view.pile_sizes,
            [t.index for t in seat_view.unseen],
            seat,
            rollouts,
            seed,
        )
        if starts
        else [[] for _ in range(rollouts)]
    )
    out: list[list[float]] = []
    column = 0
    for index in range(len(actions)):
        if index in fixed:
            out.append([fixed[index]] * rollouts)
        else:
            out.append([row[column] for row in rows])
            column += 1
    return out


def _fishing_start(
    state: FishingState, seat: int, action: AnyAction
) -> float | tuple[tuple[int, ...], int, int, int, int, int]:
    """Where the kernel takes over after ``action``: ``(row, score 0, score 1, seat to turn
    over, turn, relay)`` for :func:`bot.ai.fishing_kernel.review_rollouts`, or the outcome (1.0
    or 0.0) when the action ends the game. Only public facts are used: the action is applied
    to a determinized state, and a tile turned over from its pile (a sweep's new row) is left
    to the play-out."""
    if isinstance(action, Draw):
        # Turning over lets any unclaimed miss lapse; the kernel turns the tile over.
        return _start(state, state.current, state.turn)
    world = determinize(state, seat, random.Random(0))
    after, events = apply(world, action)
    assert isinstance(after, FishingState)
    if after.result is not None:
        return 1.0 if after.result.winner == seat else 0.0
    if any(isinstance(e, Swept) for e in events):
        return ((), after.scores[0], after.scores[1], seat, state.turn, seat)
    after = _expert_claims(after)
    return _start(after, after.current, after.turn)


def _start(
    state: FishingState, current: int, turn: int
) -> tuple[tuple[int, ...], int, int, int, int, int]:
    """A play-out's start at ``current``'s turn ``turn`` of ``state``'s row and scores."""
    return (_row_kinds(state), state.scores[0], state.scores[1], current, turn, -1)


def _expert_claims(state: FishingState) -> FishingState:
    """``state`` after the player to turn over claims the capture he may claim, as the expert
    does (the best-scoring one)."""
    while state.phase is FishingPhase.TURN_OVER and not state.claimed:
        claims = [a for a in legal_actions(state) if isinstance(a, Claim)]
        if not claims:
            break
        choice = player_for(Game.TSUNG_SHAP, "expert").choose(
            view(state, state.current), legal_actions(state), random.Random(0)
        )
        if not isinstance(choice, Claim):
            break
        state, _ = apply(state, choice)
    return state


def _row_kinds(state: FishingState) -> tuple[int, ...]:
    return tuple(t.index for t in view(state, None).row)


def estimate_actions(
    state: AnyState,
    seat: int,
    actions: Sequence[AnyAction],
    rollouts: int,
    rng: random.Random,
    playout: PlayOut = expert_playout,
) -> list[list[float]]:
    """Per action, the scores of ``rollouts`` play-outs after it, on shared determinizations.

    ``state`` must be ``seat``'s turn. Each play-out deals the unseen tiles afresh
    (:func:`~bot.engine.hidden.determinize`); the same deal serves every action.
    """
    if state.current != seat or state.result is not None:
        raise ValueError("the estimate needs a state where the seat is to play")
    scores: list[list[float]] = [[] for _ in actions]
    for _ in range(rollouts):
        world = determinize(state, seat, rng)
        seed = rng.getrandbits(64)
        for index, action in enumerate(actions):
            after, _ = apply(world, action)
            scores[index].append(playout(after, seat, random.Random(seed)))
    return scores


def exact_values(
    state: AnyState, seat: int, actions: Sequence[AnyAction], playout: PlayOut = expert_playout
) -> list[float]:
    """Per action, the exact chance over every arrangement of the unseen tiles (each equally
    likely), for a play-out that uses no randomness. For small end positions only."""
    totals = [0.0] * len(actions)
    count = 0
    for world in arrangements(state, seat):
        count += 1
        for index, action in enumerate(actions):
            after, _ = apply(world, action)
            totals[index] += playout(after, seat, random.Random(0))
    return [t / count for t in totals]


# ---------------------------------------------------------------------------------------------
# Estimates


@dataclass(frozen=True, slots=True)
class Estimate:
    """A chance to win: ``mean`` over ``n`` play-outs, with a standard error that is never 0
    for a sampled chance; ``exact`` when the action decides the game (no play-out needed)."""

    mean: float
    se: float
    n: int
    exact: bool = False

    @classmethod
    def of(cls, scores: Sequence[float]) -> Estimate:
        """The mean of ``scores`` (1 a win, 0 not) and its standard error, from the
        Agresti–Coull interval (two wins and two losses added): all wins in 200 play-outs is
        "100 % ± 1 %", not "± 0 %"."""
        n = len(scores)
        if n == 0:
            return cls(0.0, 0.5, 0)
        wins = sum(scores)
        shrunk = (wins + 2) / (n + 4)
        return cls(wins / n, math.sqrt(shrunk * (1 - shrunk) / (n + 4)), n)

    @classmethod
    def certain(cls, value: float) -> Estimate:
        """The chance of an action that decides the game: 1.0 or 0.0, exactly."""
        return cls(value, 0.0, 0, exact=True)

    def __str__(self) -> str:
        if self.exact:
            return percent(self.mean)
        return f"{percent(self.mean)} ± {_points(self.se)} %"


def percent(chance: float) -> str:
    """``0.31`` -> ``31 %``."""
    return f"{chance:.0%}".replace("%", " %")


def _points(value: float) -> str:
    """A standard error in points: ``2``, or ``<1`` below half a point (never ``0``)."""
    return "<1" if value < 0.005 else f"{value * 100:.0f}"


def _difference(a: Sequence[float] | float, b: Sequence[float] | float) -> tuple[float, float]:
    """The mean of ``a - b`` and its standard error, paired deal by deal on the deals both
    were played on (a float is an exact chance). Two imaginary deals, one each way, are added
    to the spread, so a difference never seen in the play-outs is never reported as exact."""
    if isinstance(a, float) and isinstance(b, float):
        return a - b, 0.0
    if isinstance(a, float):
        mean, se = _difference(b, a)
        return -mean, se
    if isinstance(b, float):
        diffs = [x - b for x in a]
    else:
        n = min(len(a), len(b))
        diffs = [x - y for x, y in zip(a[:n], b[:n], strict=True)]
    n = len(diffs)
    if n == 0:
        return 0.0, 1.0
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) + 2.0) / (n + 1)
    return mean, math.sqrt(spread / n)


# ---------------------------------------------------------------------------------------------
# Judging a decision


class Verdict(enum.StrEnum):
    """What a move was, against the best move by the estimates."""

    BEST = "best"
    GOOD = "good"  # about as good as the best: within noise, or less than INACCURACY
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def named(self) -> bool:
        """Whether this is a mistake of some size (inaccuracy, mistake, blunder)."""
        return self in (Verdict.INACCURACY, Verdict.MISTAKE, Verdict.BLUNDER)


def verdict_of(loss: float, se: float, *, best: bool) -> Verdict:
    """The verdict of a move that trails the best by ``loss`` (standard error ``se``): the
    largest threshold of :data:`THRESHOLDS` it surely lost, at 95 % confidence (its loss less
    :data:`CONFIDENCE_Z` standard errors); "about as good" below the first."""
    if best:
        return Verdict.BEST
    surely = loss - CONFIDENCE_Z * se
    if surely >= BLUNDER:
        return Verdict.BLUNDER
    if surely >= MISTAKE:
        return Verdict.MISTAKE
    return Verdict.INACCURACY if surely >= INACCURACY else Verdict.GOOD


@dataclass(frozen=True, slots=True)
class Option:
    """One candidate of a decision: its action (and the equivalent ones), its chance, and how
    much it trails the best move (paired on the deals both were played on)."""

    action: str
    chance: Estimate
    loss: float
    loss_se: float
    verdict: Verdict
    same_as: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Assessment:
    """Every candidate of a decision, the best first, then by chance."""

    options: tuple[Option, ...]
    played: str | None
    expert: str | None
    rollouts: int

    @property
    def best(self) -> Option:
        """The best move by the estimates."""
        return self.options[0]

    def option(self, action: str) -> Option:
        """The option of ``action`` (or of an equivalent action)."""
        for option in self.options:
            if option.action == action or action in option.same_as:
                return option
        raise KeyError(action)


def _groups(state: AnyState, seat: int, legal: Sequence[AnyAction]) -> list[list[AnyAction]]:
    """The legal actions, equivalent ones together: in Tsung Shap two moves whose rows are
    mirror images of each other, everything else the same (the rules are the same both ways),
    as placing either side of a single tile."""
    if not isinstance(state, FishingState) or len(legal) < 2:
        return [[a] for a in legal]
    world = determinize(state, seat, random.Random(0))
    groups: dict[object, list[AnyAction]] = {}
    for action in legal:
        if isinstance(action, Draw | Claim):
            key: object = action
        else:
            after, events = apply(world, action)
            assert isinstance(after, FishingState)
            row = _row_kinds(after)
            pending = sorted((str(p.combination.kind), p.combination.score) for p in after.pending)
            key = (
                min(row, row[::-1]),
                after.scores,
                after.current,
                after.turn,
                after.result is not None,
                any(isinstance(e, Swept) for e in events),
                tuple(pending),
            )
        groups.setdefault(key, []).append(action)
    return list(groups.values())


def _outcome(state: AnyState, seat: int, action: AnyAction) -> float | None:
    """1.0 or 0.0 when ``action`` ends the game (a declaration, Tsung Shap's last tile), the
    same whatever the hidden tiles; None otherwise."""
    if isinstance(action, Draw):
        return None
    after, _ = apply(determinize(state, seat, random.Random(0)), action)
    if after.result is None:
        return None
    return 1.0 if after.result.winner == seat else 0.0


def distinct_choices(state: AnyState, seat: int) -> int:
    """How many really different moves ``seat`` has (equivalent ones counted once)."""
    return len(_groups(state, seat, legal_actions(state)))


def assess(
    state: AnyState,
    seat: int,
    *,
    rollouts: int,
    rng: random.Random,
    played: AnyAction | None = None,
    expert: AnyAction | None = None,
    estimator: Estimator | None = None,
    adaptive: bool = True,
) -> Assessment:
    """Every legal action of ``seat`` (to play in ``state``) estimated with at most
    ``rollouts`` play-outs in all, spent on the close moves (see the module's docstring), and
    judged against the best one. ``played`` is always played out until its verdict is known
    (or the budget spent); ``expert`` is only named in the result. ``adaptive=False`` spends
    the budget evenly on every move instead (a benchmark's reference)."""
    if estimator is None:
        estimator = default_estimator(state.rules.game)
    groups = _groups(state, seat, legal_actions(state))

    def group_of(action: AnyAction | None) -> int | None:
        return next((i for i, g in enumerate(groups) if action in g), None)

    mine, experts = group_of(played), group_of(expert)
    # Each choice is named by the move played (or the expert's) when it is one of its moves.
    reps: list[AnyAction] = [
        played if i == mine and played is not None else g[0] for i, g in enumerate(groups)
    ]
    if experts is not None and expert is not None and experts != mine:
        reps[experts] = expert
    exact: dict[int, float] = {}
    for i, action in enumerate(reps):
        outcome = _outcome(state, seat, action)
        if outcome is not None:
            exact[i] = outcome
    scores: dict[int, list[float]] = {i: [] for i in range(len(reps)) if i not in exact}
    fresh: dict[int, list[float]] = {}  # the deals that measure the loss of the move played

    def values(i: int, table: dict[int, list[float]] = scores) -> Sequence[float] | float:
        return exact[i] if i in exact else table[i]

    def mean(i: int) -> float:
        got = values(i)
        if isinstance(got, float):
            return got
        return sum(got) / len(got) if got else 0.0

    def leader_of(among: Sequence[int]) -> int:
        # Ties go to the move played, then to the expert's, then to the first.
        return max(among, key=lambda i: (mean(i), i == mine, i == experts, -i))

    def play(among: Sequence[int], deals: int, into: dict[int, list[float]]) -> int:
        got = estimator(state, seat, [reps[i] for i in among], deals, rng)
        for i, column in zip(among, got, strict=True):
            into.setdefault(i, []).extend(column)
        return deals * len(among)

    spent = 0
    alive = list(scores)
    leader = leader_of(list(range(len(reps))))
    if len(reps) > 1 and alive and not adaptive:
        spent = play(alive, max(1, rollouts // len(alive)), scores)
        leader = leader_of(list(range(len(reps))))
    elif len(reps) > 1 and alive:
        # The search: which move is best. A third of the budget is kept for the verdict.
        search = rollouts if mine is None else rollouts - rollouts // 3
        batch = max(1, min(FIRST_DEALS, search // (4 * len(alive))))
        dealt = 0  # the deals every candidate still played out has had
        while alive:
            n = min(batch, (search - spent) // len(alive))
            if n < 1:
                break
            spent += play(alive, n, scores)
            dealt += n
            leader = leader_of([*alive, *exact])
            if dealt < MIN_DEALS:
                continue  # too few deals to trust a standard error, or the leader
            alive = [
                i
                for i in alive
                if i in (leader, mine) or not _trails(values(leader), values(i), ELIMINATE_Z)
            ]
            if all(
                _upper(values(i), values(leader), KNOWN_Z) <= MARGIN for i in alive if i != leader
            ):
                break  # the best move is known within MARGIN
            batch *= 2
        # The verdict: the move played against the best one. When other moves came close to
        # the best, on fresh deals only, so that the luck that made the best move the leader
        # among them does not count against the move played; when none did, the deals so far
        # serve too (the leader was not picked from a crowd).
        pair = [i for i in (leader, mine) if i is not None and i not in exact]
        if mine is not None and mine != leader and pair:
            if set(alive) <= {leader, mine}:
                for i in pair:
                    fresh[i] = list(scores[i])
            batch = max(1, min(FIRST_DEALS, (rollouts - spent) // (4 * len(pair))))
            dealt = len(fresh.get(pair[0], ()))
            while True:
                n = min(batch, (rollouts - spent) // len(pair))
                if n < 1:
                    break
                spent += play(pair, n, fresh)
                dealt += n
                if dealt >= MIN_DEALS:
                    if _decided(values(leader, fresh), values(mine, fresh)):
                        break
                    batch *= 2
    order = [leader, *sorted((i for i in range(len(reps)) if i != leader), key=lambda i: -mean(i))]
    options: list[Option] = []
    for i in order:
        table = fresh if fresh and i in (leader, mine) else scores
        if i == leader:
            loss, se = 0.0, 0.0
        else:
            loss, se = _difference(values(leader, table), values(i, table))
        chance = Estimate.certain(exact[i]) if i in exact else Estimate.of(table[i])
        options.append(
            Option(
                action=str(reps[i]),
                chance=chance,
                loss=loss,
                loss_se=se,
                verdict=verdict_of(loss, se, best=i == leader),
                same_as=tuple(str(a) for a in groups[i] if a != reps[i]),
            )
        )
    # The best first, then by the chances shown.
    options[1:] = sorted(options[1:], key=lambda o: -o.chance.mean)
    return Assessment(
        options=tuple(options),
        played=None if played is None else str(played),
        expert=None if expert is None else str(expert),
        rollouts=spent,
    )


def _trails(leader: Sequence[float] | float, other: Sequence[float] | float, z: float) -> bool:
    """Whether ``other`` is worse than ``leader`` by more than ``z`` standard errors."""
    loss, se = _difference(leader, other)
    return loss > z * se


def _upper(other: Sequence[float] | float, leader: Sequence[float] | float, z: float) -> float:
    """How much ``other`` might beat ``leader`` by, at ``z`` standard errors."""
    gain, se = _difference(other, leader)
    return gain + z * se


def _decided(leader: Sequence[float] | float, played: Sequence[float] | float) -> bool:
    """Whether the played move's verdict is settled: what it surely lost (its loss less
    :data:`CONFIDENCE_Z` standard errors, :func:`verdict_of`) lies more than that many
    standard errors from every threshold, and the difference is known within
    :data:`MARGIN`, so that another run would most likely say the same."""
    loss, se = _difference(leader, played)
    surely = loss - CONFIDENCE_Z * se
    if any(abs(surely - threshold) <= CONFIDENCE_Z * se for threshold in THRESHOLDS):
        return False
    return se <= MARGIN or surely >= BLUNDER


# ---------------------------------------------------------------------------------------------
# Reviewing a game


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat, judged against the best move by the estimates.

    ``number`` is the action's number in the record (1-based): ``kapshap analyse FILE --at
    number`` opens the position it was played in. ``best_chance`` and ``played_chance`` are the
    chances to win after the best move and after the move played; ``loss`` (their difference,
    paired on the same deals) has the standard error ``loss_se``. ``expert`` is the expert's
    choice, shown beside. ``choices`` holds every distinct move, the best first.
    ``position`` is what the seat saw (its view) and ``legal`` what it could do, to show the
    position; ``reason`` says in the game's terms why a named mistake was worse (None for the
    others)."""

    number: int
    turn: int
    seat: int
    played: str
    best: str
    expert: str
    played_chance: Estimate
    best_chance: Estimate
    expert_chance: Estimate
    loss: float
    loss_se: float
    verdict: Verdict
    options: int
    rollouts: int
    choices: tuple[Option, ...] = ()
    reason: Words | None = None
    position: AnyView | None = None
    legal: tuple[AnyAction, ...] = ()

    @property
    def named(self) -> bool:
        """Whether the move is a mistake of some size (an inaccuracy, a mistake, a blunder)."""
        return self.verdict.named


def decisions_of(record: GameRecord, seat: int) -> list[int]:
    """The numbers (1-based) of ``seat``'s actions in ``record`` that were a real choice: more
    than one legal action, equivalent ones (mirror-image Tsung Shap moves) counted once."""
    out: list[int] = []
    for step in replay(record):
        state = step.before
        if (
            step.seat == seat
            and len(legal_actions(state)) > 1
            and distinct_choices(state, seat) > 1
        ):
            out.append(step.number)
    return out


def review_rng(seed: int, number: int) -> random.Random:
    """The random stream of the review of action ``number`` (``kapshap analyse --at number``
    with the same seed uses the same one, so both show the same figures)."""
    return random.Random(f"review:{seed}:{number}")


def review_decision(
    record: GameRecord,
    number: int,
    rollouts: int | None = None,
    seed: int = 0,
    estimator: Estimator | None = None,
    adaptive: bool = True,
) -> Decision:
    """Review action ``number`` of ``record`` (1-based) from its player's point of view, with
    at most ``rollouts`` play-outs (default: :func:`default_rollouts`; ``adaptive``: see
    :func:`assess`)."""
    steps = list(replay(record))
    if not 1 <= number <= len(steps):
        raise ValueError(f"the record has no action {number}")
    step = steps[number - 1]
    state, seat = step.before, step.seat
    legal = legal_actions(state)
    seen = view(state, seat)
    expert = player_for(state.rules.game, "expert").choose(seen, legal, random.Random(seed))
    budget = default_rollouts(state.rules) if rollouts is None else rollouts
    result = assess(
        state,
        seat,
        rollouts=budget,
        rng=review_rng(seed, number),
        played=step.action,
        expert=expert,
        estimator=estimator,
        adaptive=adaptive,
    )
    mine = result.option(str(step.action))
    best = result.best
    reason = None
    if mine.verdict.named:
        after = [(s.seat, str(s.action)) for s in steps[number:]]
        reason = reason_words(state, seat, step.action, _action_of(legal, best.action), after)
    return Decision(
        number=number,
        turn=state.turn,
        seat=seat,
        played=str(step.action),
        best=best.action,
        expert=str(expert),
        played_chance=mine.chance,
        best_chance=best.chance,
        expert_chance=result.option(str(expert)).chance,
        loss=mine.loss,
        loss_se=mine.loss_se,
        verdict=mine.verdict,
        options=len(result.options),
        rollouts=result.rollouts,
        choices=result.options,
        reason=reason,
        position=seen,
        legal=tuple(legal),
    )


def _action_of(legal: Sequence[AnyAction], notation: str) -> AnyAction:
    return next(a for a in legal if str(a) == notation)


# ---------------------------------------------------------------------------------------------
# Why a move was worse, in the game's terms


def reason_words(
    state: AnyState,
    seat: int,
    played: AnyAction,
    best: AnyAction,
    after: Sequence[tuple[int, str]] = (),
) -> Words:
    """Why ``played`` was worse than ``best`` in one sentence of the game's own terms
    (:data:`REASONS`): the first of these that holds. ``after`` is what happened next in the
    game, (seat, action) in order, for what only hindsight shows (the opponent took the tile
    and won). When none holds, the difference shows only in the play-outs, and it says so."""
    if isinstance(state, FishingState):
        return _fishing_reason(state, seat, played, best)
    assert isinstance(state, GameState)
    return _collecting_reason(state, seat, played, best, after)


def _collecting_reason(
    state: GameState,
    seat: int,
    played: AnyAction,
    best: AnyAction,
    after: Sequence[tuple[int, str]],
) -> Words:
    from bot.ai.core import UNIT, count_of, evaluator_for, weight
    from bot.ai.expert import completion_risk
    from bot.ai.knowledge import read_view

    if isinstance(best, Declare):
        return Words(REASONS["declare"])
    seen_view = view(state, seat)
    seen = read_view(seen_view, legal_actions(state))
    ev = evaluator_for(state.rules)
    unseen = seen.unseen()
    hand = seen.hand
    # Under Culin's offer every face-up discard may be taken later: it helps like an unseen one.
    pool = seen.faceup if state.rules.offer is Offer.ANY else 0

    def standing(held: int) -> tuple[int, int]:
        """(tiles missing from a winning hand, unseen or face-up tiles that bring it closer)."""
        missing, mask, _ = ev.info(held)
        return missing, weight(mask, unseen) + weight(mask, pool)

    def pool_wins(held: int) -> list[int]:
        """The kinds face up in the discards that would complete ``held`` (H-1 tiles)."""
        missing, _, improvers = ev.info(held)
        return [k for k in improvers if count_of(pool, k)] if missing == 1 else []

    def after_take(kind: int) -> tuple[int, int]:
        full = hand + UNIT[kind]
        if ev.table(full)[0]:
            return 0, 0
        return min(
            (standing(full - UNIT[k]) for k in range(len(UNIT)) if k != kind and _holds(full, k)),
            key=lambda s: (s[0], -s[1]),
        )

    def outcome(action: AnyAction) -> tuple[int, int]:
        if isinstance(action, Discard) and action.tile is not None:
            return standing(hand - UNIT[action.tile.index])
        if isinstance(action, Take) and action.tile is not None:
            return after_take(action.tile.index)
        return standing(hand)  # a draw: the hand as it is, before the tile drawn

    if isinstance(best, Take) and best.tile is not None and after_take(best.tile.index)[0] == 0:
        return Words(REASONS["winning-take"], (("tile", str(best.tile)),))
    mine, better = outcome(played), outcome(best)
    if mine[0] > better[0]:
        if isinstance(best, Take) and best.tile is not None:
            return Words(REASONS["take-closer"], (("tile", str(best.tile)),))
        if isinstance(played, Discard) and played.tile is not None:
            tile = played.tile
            if seen_view.hand.count(tile) >= 2:
                return Words(REASONS["broke-eye"], (("tile", str(tile)),))
            partner = _ten_pair_partner(tile, seen_view.hand, state.rules)
            if partner is not None:
                return Words(REASONS["broke-pair"], (("tile", str(tile)), ("other", str(partner))))
        return Words(REASONS["further"])
    if (
        isinstance(played, Discard)
        and isinstance(best, Discard)
        and played.tile is not None
        and best.tile is not None
    ):
        waiting = pool_wins(hand - UNIT[best.tile.index])
        if waiting and not pool_wins(hand - UNIT[played.tile.index]):
            return Words(
                REASONS["winning-pool"],
                (("tile", str(played.tile)), ("other", str(KINDS[waiting[0]]))),
            )
    if mine[0] == better[0] and mine[1] < better[1]:
        return Words(REASONS["fewer-outs"], (("after", str(mine[1])), ("before", str(better[1]))))
    if isinstance(played, Discard) and played.tile is not None:
        taker = _taken_to_win(played.tile, seat, after)
        if taker is not None:
            return Words(REASONS["gave-winner"], (("name", state.seats[taker]),))
        if isinstance(best, Discard) and best.tile is not None:
            risk = completion_risk(seen, ev)
            if risk[played.tile.index] > risk[best.tile.index] + 0.01:
                return Words(REASONS["riskier"])
    return Words(REASONS["play-outs"])


def _holds(key: int, kind: int) -> bool:
    from bot.ai.core import count_of

    return count_of(key, kind) > 0


def _ten_pair_partner(tile: Tile, hand: Sequence[Tile], rules: RuleSet) -> Tile | None:
    """Another tile of ``hand`` that makes a ten-pair with ``tile`` (values totalling 10 or
    20), if any."""
    four_two = rules.four_two_value
    for other in hand:
        if other == tile:
            continue
        if any(
            a + b in (10, 20)
            for a in tile_values(tile, four_two)
            for b in tile_values(other, four_two)
        ):
            return other
    return None


def _taken_to_win(tile: Tile, seat: int, after: Sequence[tuple[int, str]]) -> int | None:
    """The seat that took ``tile`` right after ``seat``'s turn and declared a win with it."""
    for index, (mover, action) in enumerate(after):
        if mover == seat:
            continue
        if action == f"take {tile}":
            follow = next((a for s, a in after[index + 1 :] if s == mover), None)
            return mover if follow == "declare" else None
        return None  # the next player did something else
    return None


def _fishing_reason(state: FishingState, seat: int, played: AnyAction, best: AnyAction) -> Words:
    seen = view(state, seat)
    captures = {str(c.capture): c.score for c in seen.options}
    claims = {str(c.claim): c.score for c in seen.pending}
    if isinstance(played, Place) and captures and not isinstance(best, Place):
        return Words(REASONS["missed-capture"], (("points", str(max(captures.values()))),))
    if isinstance(played, Capture) and isinstance(best, Capture):
        mine, better = captures.get(str(played), 0), captures.get(str(best), 0)
        if better > mine:
            return Words(
                REASONS["smaller-capture"], (("points", str(mine)), ("best_points", str(better)))
            )
    if isinstance(played, Draw) and isinstance(best, Claim):
        return Words(REASONS["no-claim"], (("points", str(claims.get(str(best), 0))),))
    if isinstance(played, Claim) and isinstance(best, Claim):
        mine, better = claims.get(str(played), 0), claims.get(str(best), 0)
        if better > mine:
            return Words(
                REASONS["smaller-claim"], (("points", str(mine)), ("best_points", str(better)))
            )
    if isinstance(played, Place) and isinstance(best, Place) and seen.turned is not None:
        open_mine = _exposure(state, seen, played)
        open_best = _exposure(state, seen, best)
        if open_mine > open_best:
            return Words(
                REASONS["exposed"], (("after", str(open_mine)), ("before", str(open_best)))
            )
    return Words(REASONS["play-outs-piles"])


def _exposure(state: FishingState, seen: FishingView, place: Place) -> int:
    """How many of the unseen tiles could capture at the ends of the row ``place`` leaves."""
    from bot.engine.fishing import row_captures

    assert seen.turned is not None
    row = [t.index for t in seen.row]
    row = [seen.turned.index, *row] if str(place.end) == "left" else [*row, seen.turned.index]
    return sum(1 for tile in seen.unseen if row_captures(state.rules, row, tile.index))


# ---------------------------------------------------------------------------------------------
# Words


#: The review's words as English templates (message ids). The AI layer may not import the
#: catalogue (bot.locale), so it returns :class:`Words` (a template and its values) and the
#: layers that speak a member's language translate them; the catalogue test reads these
#: tables. Values named ``tile`` and ``other`` are tiles in notation, ``kind`` and ``end``
#: words of the game (``pair``, ``left``: the catalogue's ``term`` context), ``name`` a
#: player's name; the others are numbers or chances.
ACTION_PHRASES: dict[str, str] = {
    "take": "taking {tile}",
    "take-offer": "taking",
    "draw": "drawing",
    "turn-over": "turning over your tile",
    "discard": "discarding {tile}",
    "declare": "declaring",
    "place": "placing on the {end}",
    "capture": "capturing a {kind} on the {end}",
    "capture-ends": "capturing a {kind} on both ends",
    "claim": "claiming a {kind} on the {end}",
    "claim-ends": "claiming a {kind} on both ends",
}
#: What a move was (:class:`Verdict`), as a column of ``kapshap analyse`` and in counts.
VERDICT_WORDS: dict[Verdict, str] = {
    Verdict.BEST: "best move",
    Verdict.GOOD: "about as good",
    Verdict.INACCURACY: "inaccuracy",
    Verdict.MISTAKE: "mistake",
    Verdict.BLUNDER: "blunder",
}
#: A decision in one sentence (``played`` and ``best`` are :data:`ACTION_PHRASES`; ``after``
#: and ``before`` the chances after the move played and after the best one, ``31 % ± 2 %``;
#: ``loss`` and ``se`` the loss in points and its standard error).
SENTENCES: dict[str, str] = {
    "best": "{played}: the best move ({after}).",
    "good": "{played}: about as good as {best} ({after} against {before}).",
    "inaccuracy": "Inaccuracy, −{loss} points (± {se}): {played} ({after}) instead of {best} "
    "({before}).",
    "mistake": "Mistake, −{loss} points (± {se}): {played} ({after}) instead of {best} ({before}).",
    "blunder": "Blunder, −{loss} points (± {se}): {played} ({after}) instead of {best} ({before}).",
    "expert": "The expert's choice: {expert} ({chance}).",
}
#: Why a named mistake was worse, in the game's terms (:func:`reason_words`).
REASONS: dict[str, str] = {
    "declare": "The hand was a winning hand: declaring wins at once.",
    "winning-take": "{tile} in the discards completed your hand.",
    "take-closer": "Taking {tile} brought the hand closer to winning.",
    "broke-eye": "It broke the eye {tile} + {tile}, leaving the hand further from winning.",
    "broke-pair": "It broke the ten-pair {tile} + {other}, leaving the hand further from winning.",
    "further": "It left the hand further from winning.",
    "winning-pool": "Keeping {tile} would have let you win with the {other} in the discards.",
    "fewer-outs": "It left fewer tiles to bring the hand closer to winning (unseen, or in the "
    "discards to take): {after} against {before}.",
    "gave-winner": "It gave {name} the tile he won with.",
    "riskier": "It was a riskier discard: more likely to complete another player's hand.",
    "play-outs": "The difference shows only in the play-outs: in what the others hold and draw.",
    "missed-capture": "It missed a capture of {points} points, which the opponent may claim.",
    "smaller-capture": "It took {points} points where {best_points} were on offer.",
    "no-claim": "It left unclaimed the {points} points the opponent missed.",
    "smaller-claim": "It claimed {points} points where {best_points} were on offer.",
    "exposed": "It left the opponent more to capture: {after} of the unseen tiles could "
    "capture at the row's ends, against {before}.",
    "play-outs-piles": "The difference shows only in the play-outs: in the order of the piles.",
}
#: Every template above (what a catalogue must translate).
REVIEW_TEMPLATES: tuple[str, ...] = (
    *ACTION_PHRASES.values(),
    *VERDICT_WORDS.values(),
    *SENTENCES.values(),
    *REASONS.values(),
)


@dataclass(frozen=True, slots=True)
class Words:
    """Words to say: an English ``template`` (a message id, ``{field}`` placeholders) and its
    ``values``, each plain text or :class:`Words` itself. :meth:`text` says them."""

    template: str
    values: tuple[tuple[str, str | Words], ...] = ()

    def text(self, say: Callable[[str, str, str | None], str] | None = None) -> str:
        """The words as text. ``say(kind, text, field)`` words each part: ``kind`` is
        ``"template"`` (``field`` None) or ``"value"`` (a plain value of ``field``); without
        ``say``, English."""
        template = self.template if say is None else say("template", self.template, None)
        values = {
            name: value.text(say)
            if isinstance(value, Words)
            else (value if say is None else say("value", value, name))
            for name, value in self.values
        }
        return template.format(**values) if values else template


def action_phrase(notation: str) -> Words:
    """An action as a gerund phrase: ``drawing``, ``taking 6-4``, ``placing on the left``,
    ``capturing a pair on the left`` … (:data:`ACTION_PHRASES`)."""
    words = notation.split()
    verb, rest = (words[0], words[1:]) if words else ("", [])
    if verb in ("capture", "claim") and len(rest) == 2:
        key = f"{verb}-ends" if rest[1] == "ends" else verb
        values: tuple[tuple[str, str | Words], ...] = (("kind", rest[0]),)
        if rest[1] != "ends":
            values += (("end", rest[1]),)
        return Words(ACTION_PHRASES[key], values)
    if verb == "place" and rest:
        return Words(ACTION_PHRASES["place"], (("end", rest[0]),))
    if verb in ("take", "discard") and len(rest) == 1:
        return Words(ACTION_PHRASES[verb], (("tile", rest[0]),))
    if verb == "take" and not rest:
        return Words(ACTION_PHRASES["take-offer"])
    if verb in ("draw", "declare") and not rest:
        return Words(ACTION_PHRASES[verb])
    return Words(notation)  # not an action the engine writes: shown as it is


def _phrase(notation: str, game: Game) -> Words:
    """:func:`action_phrase`, with Tsung Shap's ``draw`` said as turning over a tile."""
    if game is Game.TSUNG_SHAP and notation == "draw":
        return Words(ACTION_PHRASES["turn-over"])
    return action_phrase(notation)


def action_words(notation: str) -> str:
    """An action as a gerund for a sentence: ``drawing``, ``taking 6-4``, ``discarding 3-1``,
    ``placing left``, ``capturing a pair on the left`` …"""
    return action_phrase(notation).text()


def sentence_words(decision: Decision) -> Words:
    """The decision in one sentence, as :class:`Words` (:data:`SENTENCES`); :func:`sentence`
    says it in English."""
    game = decision.position.rules.game if decision.position is not None else Game.KAP_SHAP
    played = _phrase(decision.played, game)
    after = str(decision.played_chance)
    if decision.verdict is Verdict.BEST:
        return Words(SENTENCES["best"], (("played", played), ("after", after)))
    best = _phrase(decision.best, game)
    before = str(decision.best_chance)
    if decision.verdict is Verdict.GOOD:
        return Words(
            SENTENCES["good"],
            (("played", played), ("best", best), ("after", after), ("before", before)),
        )
    return Words(
        SENTENCES[str(decision.verdict)],
        (
            ("loss", f"{max(decision.loss, 0.0) * 100:.0f}"),
            ("se", _points(decision.loss_se)),
            ("played", played),
            ("after", after),
            ("best", best),
            ("before", before),
        ),
    )


def expert_words(decision: Decision) -> Words:
    """The expert's choice and its chance, as :class:`Words`."""
    game = decision.position.rules.game if decision.position is not None else Game.KAP_SHAP
    return Words(
        SENTENCES["expert"],
        (("expert", _phrase(decision.expert, game)), ("chance", str(decision.expert_chance))),
    )


def sentence(decision: Decision) -> str:
    """``Mistake, −18 points (± 2): discarding 3-1 (31 % ± 2 %) instead of taking 6-4 …``"""
    return _cap(sentence_words(decision).text())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
