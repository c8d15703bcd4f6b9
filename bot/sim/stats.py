"""Statistics over simulated games: pure functions of :class:`GameRecord` sequences.

Definitions (docs/simulator.md lists them with the JSON keys):

* The **winning turn** T is ``record.turns`` of a won game: 1-based, counting every player turn,
  the first player's opening turn included. Turn figures are over won games only.
* The **round** of a win is ``ceil(T / players)``: round 1 is everyone's first turn.
* **Seats are relative to the first player**: seat 0 is the first player, seat k the player k
  seats after him in play order. Win shares are over won games.
* Rates (win, draw, cap, round-1 wins) are over all games.
* Percentiles interpolate linearly between order statistics (the common "type 7" definition, as
  numpy's default), so the median of 1, 2, 3, 4 is 2.5.

The figures of a game that counts something else (Tsung Shap's scores, a game without a sim
role of its own) are its family's (``bot/games/<family>/sim/``, or :mod:`bot.sim.generic`); the
helpers here (the χ² test, quantiles, histograms) serve them all.

**Partial statistics.** Every figure is a function of a few integer counts and sums (a histogram
of winning turns, wins per seat, ...): a :class:`GameTally`. Worker processes tally their chunks
of games and the simulator only merges the tallies, instead of sending every game back. Integers
add up exactly in any order, so merged tallies are the tally of all the games whatever the
chunks, and :func:`summarize_tally` gives exactly (to the last bit of every float) what
:func:`summarize` gives from the records (``tests/sim/test_tally.py``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from bot.sim.record import GameRecord

__all__ = [
    "WIN_BY",
    "Chi2Test",
    "GameTally",
    "Summary",
    "add_counts",
    "chi2_equal_shares",
    "chi2_sf",
    "dealt_wins_by_first_player",
    "histogram_quantile",
    "int_mean",
    "mean",
    "quantile",
    "regularized_gamma_q",
    "relative_seat",
    "seat_wins",
    "summarize",
    "summarize_tally",
    "tally_games",
    "turn_histogram",
    "win_by_counts",
    "winning_turns",
]

WIN_BY = ("dealt", "take", "draw")
"""Where the tile that completed a winning hand came from (GameRecord.win_by values)."""

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITERATIONS = 10_000


# ---------------------------------------------------------------------------------------------
# The chi-squared distribution


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function.

    Series for P = 1 - Q when x < a + 1 (it converges fast there), Lentz's continued fraction
    for Q otherwise (Numerical Recipes §6.2), so neither side loses precision by subtraction
    where it matters.
    """
    if a <= 0:
        raise ValueError(f"a must be positive, not {a}")
    if x < 0:
        raise ValueError(f"x must not be negative, not {x}")
    if x == 0:
        return 1.0
    log_prefactor = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = 1.0 / a
        total = term
        denominator = a
        for _ in range(_MAX_ITERATIONS):
            denominator += 1
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return min(1.0, math.exp(log_prefactor) * h)


def chi2_sf(x: float, df: int) -> float:
    """Survival function of the χ² distribution: P(X ≥ x) for ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    return regularized_gamma_q(df / 2, x / 2)


@dataclass(frozen=True, slots=True)
class Chi2Test:
    """Pearson's χ² goodness-of-fit test against equal shares."""

    statistic: float | None  # None when there is nothing to test (no observations)
    df: int
    p_value: float | None


def chi2_equal_shares(counts: Sequence[int]) -> Chi2Test:
    """Test whether ``counts`` (e.g. wins per seat) are consistent with equal probabilities."""
    df = len(counts) - 1
    total = sum(counts)
    if df < 1 or total == 0:
        return Chi2Test(None, max(df, 0), None)
    expected = total / len(counts)
    statistic = sum((c - expected) ** 2 for c in counts) / expected
    return Chi2Test(statistic, df, chi2_sf(statistic, df))


# ---------------------------------------------------------------------------------------------
# Small helpers


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean, or None for no values."""
    return math.fsum(values) / len(values) if values else None


def quantile(sorted_values: Sequence[float], q: float) -> float | None:
    """The q-quantile (0 ≤ q ≤ 1) of sorted values, interpolating linearly; None if empty."""
    if not 0 <= q <= 1:
        raise ValueError(f"q must be between 0 and 1, not {q}")
    if not sorted_values:
        return None
    position = (len(sorted_values) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = position - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * fraction


def winning_turns(records: Sequence[GameRecord]) -> list[int]:
    """The winning turn T of every won game, in game order."""
    return [r.turns for r in records if r.winner is not None]


def turn_histogram(records: Sequence[GameRecord]) -> dict[int, int]:
    """Won games per winning turn, by increasing turn (turns with no win are left out)."""
    return dict(sorted(Counter(winning_turns(records)).items()))


def relative_seat(record: GameRecord, players: int) -> int | None:
    """The winner's seat counted from the first player (0 = first player); None for a draw."""
    if record.winner is None:
        return None
    return (record.winner - record.first_seat) % players


def seat_wins(records: Sequence[GameRecord], players: int) -> list[int]:
    """Wins per relative seat (index 0 = first player)."""
    wins = [0] * players
    for record in records:
        seat = relative_seat(record, players)
        if seat is not None:
            wins[seat] += 1
    return wins


def win_by_counts(records: Sequence[GameRecord]) -> dict[str, int]:
    """Won games by where the winning tile came from: ``dealt``, ``take``, ``draw``."""
    counts = dict.fromkeys(WIN_BY, 0)
    for record in records:
        if record.winner is not None and record.win_by is not None:
            counts[record.win_by] = counts.get(record.win_by, 0) + 1
    return counts


def dealt_wins_by_first_player(records: Sequence[GameRecord]) -> int:
    """Games the first player won with his dealt hand (the oracle's observed count)."""
    return sum(1 for r in records if r.win_by == "dealt" and r.winner == r.first_seat)


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


# ---------------------------------------------------------------------------------------------
# The summary of one configuration


@dataclass(frozen=True, slots=True)
class Summary:
    """Every figure the simulator reports for one configuration (see docs/simulator.md)."""

    games: int
    wins: int
    win_rate: float
    draw_rate: float
    cap_rate: float
    mean_turn: float | None
    median_turn: float | None
    p10_turn: float | None
    p25_turn: float | None
    p75_turn: float | None
    p90_turn: float | None
    histogram: dict[int, int]
    mean_round: float | None
    round1_win_rate: float
    seat_wins: list[int]
    seat_win_share: list[float | None]
    chi2: Chi2Test
    win_by_count: dict[str, int]
    win_by: dict[str, float | None]
    takes_per_game: float
    mean_pool_at_take: float | None
    dealt_wins_first_player: int

    def to_json(self) -> dict[str, object]:
        """JSON-friendly dict (histogram keys become strings, as JSON requires)."""
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "draw_rate": self.draw_rate,
            "cap_rate": self.cap_rate,
            "mean_turn": self.mean_turn,
            "median_turn": self.median_turn,
            "p10_turn": self.p10_turn,
            "p25_turn": self.p25_turn,
            "p75_turn": self.p75_turn,
            "p90_turn": self.p90_turn,
            "histogram": {str(turn): n for turn, n in self.histogram.items()},
            "mean_round": self.mean_round,
            "round1_win_rate": self.round1_win_rate,
            "seat_wins": list(self.seat_wins),
            "seat_win_share": list(self.seat_win_share),
            "chi2": {
                "statistic": self.chi2.statistic,
                "df": self.chi2.df,
                "p_value": self.chi2.p_value,
            },
            "win_by_count": dict(self.win_by_count),
            "win_by": dict(self.win_by),
            "takes_per_game": self.takes_per_game,
            "mean_pool_at_take": self.mean_pool_at_take,
        }


def summarize(records: Sequence[GameRecord], players: int) -> Summary:
    """All the figures of one configuration from its game records (in game order)."""
    games = len(records)
    if games == 0:
        raise ValueError("no games to summarize")
    turns = winning_turns(records)
    ordered = sorted(turns)
    wins = len(turns)
    rounds = [math.ceil(t / players) for t in turns]
    by_seat = seat_wins(records, players)
    by_how = win_by_counts(records)
    reasons: Mapping[str, int] = Counter(r.reason for r in records)
    takes = sum(r.takes for r in records)
    return Summary(
        games=games,
        wins=wins,
        win_rate=wins / games,
        draw_rate=reasons.get("wall", 0) / games,
        cap_rate=reasons.get("cap", 0) / games,
        mean_turn=mean(turns),
        median_turn=quantile(ordered, 0.5),
        p10_turn=quantile(ordered, 0.1),
        p25_turn=quantile(ordered, 0.25),
        p75_turn=quantile(ordered, 0.75),
        p90_turn=quantile(ordered, 0.9),
        histogram=turn_histogram(records),
        mean_round=mean(rounds),
        round1_win_rate=sum(1 for r in rounds if r == 1) / games,
        seat_wins=by_seat,
        seat_win_share=[_share(w, wins) for w in by_seat],
        chi2=chi2_equal_shares(by_seat),
        win_by_count=by_how,
        win_by={how: _share(n, wins) for how, n in by_how.items()},
        takes_per_game=takes / games,
        mean_pool_at_take=_share(sum(r.take_pool_total for r in records), takes),
        dealt_wins_first_player=dealt_wins_by_first_player(records),
    )


# ---------------------------------------------------------------------------------------------
# Partial statistics: integer counts that merge exactly


_K = TypeVar("_K")


def add_counts(into: dict[_K, int], counts: Mapping[_K, int]) -> None:
    """Add a histogram's counts (value -> how many) into another."""
    for value, n in counts.items():
        into[value] = into.get(value, 0) + n


def histogram_quantile(histogram: Mapping[int, int], count: int, q: float) -> float | None:
    """:func:`quantile` of the ``count`` values a histogram (value -> how many) holds, with the
    same arithmetic, so the same float."""
    if not count:
        return None
    position = (count - 1) * q
    low = math.floor(position)
    high = min(low + 1, count - 1)
    fraction = position - low
    low_value = high_value = None
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if low_value is None and seen > low:
            low_value = value
        if seen > high:
            high_value = value
            break
    assert low_value is not None and high_value is not None
    return low_value + (high_value - low_value) * fraction


def int_mean(total: int, count: int) -> float | None:
    """The mean of ``count`` integers summing to ``total`` (None for none): the same float as
    :func:`mean` of the values."""
    # math.fsum of integers is their exact sum rounded once, as is float(total): the same float
    # as mean() of the values, divided the same way.
    return float(total) / count if count else None


@dataclass(slots=True)
class GameTally:
    """Partial statistics of some games of one collecting configuration: counts and sums only.

    ``turns`` counts won games by winning turn; ``seat_wins`` are by seat relative to the first
    player; ``reasons`` counts games by how they ended (``declared``, ``wall``, ``cap``) and
    ``win_by`` won games by where the winning tile came from.
    """

    players: int
    games: int = 0
    turns: dict[int, int] = field(default_factory=dict)
    seat_wins: list[int] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    win_by: dict[str, int] = field(default_factory=dict)
    takes: int = 0
    take_pool_total: int = 0
    dealt_wins_first_player: int = 0

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players

    def add(self, record: GameRecord) -> None:
        """Count one more game."""
        self.games += 1
        self.reasons[record.reason] = self.reasons.get(record.reason, 0) + 1
        self.takes += record.takes
        self.take_pool_total += record.take_pool_total
        seat = relative_seat(record, self.players)
        if seat is None:
            return
        self.turns[record.turns] = self.turns.get(record.turns, 0) + 1
        self.seat_wins[seat] += 1
        if record.win_by is not None:
            self.win_by[record.win_by] = self.win_by.get(record.win_by, 0) + 1
            if record.win_by == "dealt" and seat == 0:
                self.dealt_wins_first_player += 1

    def merge(self, other: GameTally) -> None:
        """Add the games another tally (of the same configuration) counted."""
        if other.players != self.players:
            raise ValueError("tallies of different player counts do not merge")
        self.games += other.games
        add_counts(self.turns, other.turns)
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        add_counts(self.reasons, other.reasons)
        add_counts(self.win_by, other.win_by)
        self.takes += other.takes
        self.take_pool_total += other.take_pool_total
        self.dealt_wins_first_player += other.dealt_wins_first_player


def tally_games(records: Sequence[GameRecord], players: int) -> GameTally:
    """The tally of some games' records."""
    tally = GameTally(players)
    for record in records:
        tally.add(record)
    return tally


def summarize_tally(tally: GameTally) -> Summary:
    """Every figure of one configuration from its tally: equal to :func:`summarize` of the
    records it counted."""
    games = tally.games
    if games == 0:
        raise ValueError("no games to summarize")
    players = tally.players
    histogram = {turn: n for turn, n in sorted(tally.turns.items()) if n}
    wins = sum(histogram.values())
    rounds = {turn: math.ceil(turn / players) for turn in histogram}
    by_seat = list(tally.seat_wins)
    by_how = dict.fromkeys(WIN_BY, 0)
    add_counts(by_how, tally.win_by)
    takes = tally.takes
    return Summary(
        games=games,
        wins=wins,
        win_rate=wins / games,
        draw_rate=tally.reasons.get("wall", 0) / games,
        cap_rate=tally.reasons.get("cap", 0) / games,
        mean_turn=int_mean(sum(t * n for t, n in histogram.items()), wins),
        median_turn=histogram_quantile(histogram, wins, 0.5),
        p10_turn=histogram_quantile(histogram, wins, 0.1),
        p25_turn=histogram_quantile(histogram, wins, 0.25),
        p75_turn=histogram_quantile(histogram, wins, 0.75),
        p90_turn=histogram_quantile(histogram, wins, 0.9),
        histogram=histogram,
        mean_round=int_mean(sum(rounds[t] * n for t, n in histogram.items()), wins),
        round1_win_rate=sum(n for t, n in histogram.items() if rounds[t] == 1) / games,
        seat_wins=by_seat,
        seat_win_share=[_share(w, wins) for w in by_seat],
        chi2=chi2_equal_shares(by_seat),
        win_by_count=by_how,
        win_by={how: _share(n, wins) for how, n in by_how.items()},
        takes_per_game=takes / games,
        mean_pool_at_take=_share(tally.take_pool_total, takes),
        dealt_wins_first_player=tally.dealt_wins_first_player,
    )
