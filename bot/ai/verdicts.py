"""What a chance to win is worth as evidence, and what a move was: the statistics of reviews.

An :class:`Estimate` is a chance to win measured by play-outs (or known exactly); two moves are
compared deal by deal (:func:`_difference`, paired on the same deals). A move is judged against
the best one by what it *surely* lost, at 95 % confidence (:func:`verdict_of`): an inaccuracy
from 4 points, a mistake from 8, a blunder from 16 (:data:`THRESHOLDS`). Game-blind: standard
library only. :mod:`bot.ai.judging` spends the play-outs, :mod:`bot.ai.review` reviews a game.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "BLUNDER",
    "CONFIDENCE_Z",
    "ELIMINATE_Z",
    "FIRST_DEALS",
    "INACCURACY",
    "KNOWN_Z",
    "MARGIN",
    "MIN_DEALS",
    "MISTAKE",
    "THRESHOLDS",
    "Assessment",
    "Estimate",
    "Option",
    "Verdict",
    "percent",
    "verdict_of",
]

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
