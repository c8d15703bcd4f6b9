"""Statistics over simulated Tsung Shap games: pure functions of
:class:`~bot.games.fishing.sim.play.FishingRecord` sequences, and their partial statistics.

Tsung Shap (RULES.md §3) has scores instead of winning turns: score figures per seat (seat 0 =
the first player), win shares and the draw rate over all games, and counts of captures, misses
and claims per game. As for the collecting games (:mod:`bot.sim.stats`), every figure is a
function of integer counts and sums (a :class:`FishingTally`), which merge exactly in any order,
so :func:`summarize_fishing_tally` gives exactly what :func:`summarize_fishing` gives from the
records (``tests/sim/test_tally.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.games.fishing.sim.play import FishingRecord
from bot.sim.stats import (
    Chi2Test,
    add_counts,
    chi2_equal_shares,
    histogram_quantile,
    int_mean,
    mean,
    quantile,
)

__all__ = [
    "FishingSummary",
    "FishingTally",
    "summarize_fishing",
    "summarize_fishing_tally",
    "tally_fishing",
]


# ---------------------------------------------------------------------------------------------
# The summary of one configuration


@dataclass(frozen=True, slots=True)
class FishingSummary:
    """Every figure the simulator reports for one Tsung Shap configuration.

    Per-seat lists have two entries: seat 0 is the first player, seat 1 the other. Shares and
    per-game figures are over all games; ``difference_histogram`` counts games by the first
    player's score minus the second's.
    """

    games: int
    mean_score: list[float]
    median_score: list[float]
    p90_score: list[float]
    max_score: list[int]
    seat_wins: list[int]
    win_share: list[float]
    draw_rate: float
    win_share_advantage: float
    mean_score_difference: float
    median_score_difference: float
    captures_per_game: dict[str, float]
    missed_per_game: float
    claimed_per_game: float
    sweeps_per_game: float
    mean_turns: float
    chi2: Chi2Test
    difference_histogram: dict[int, int]

    def to_json(self) -> dict[str, object]:
        """JSON-friendly dict (histogram keys become strings, as JSON requires)."""
        return {
            "games": self.games,
            "mean_score": list(self.mean_score),
            "median_score": list(self.median_score),
            "p90_score": list(self.p90_score),
            "max_score": list(self.max_score),
            "seat_wins": list(self.seat_wins),
            "win_share": list(self.win_share),
            "draw_rate": self.draw_rate,
            "first_player_advantage": {
                "win_share": self.win_share_advantage,
                "mean_score_difference": self.mean_score_difference,
                "median_score_difference": self.median_score_difference,
            },
            "chi2": {
                "statistic": self.chi2.statistic,
                "df": self.chi2.df,
                "p_value": self.chi2.p_value,
            },
            "captures_per_game": dict(self.captures_per_game),
            "missed_per_game": self.missed_per_game,
            "claimed_per_game": self.claimed_per_game,
            "sweeps_per_game": self.sweeps_per_game,
            "mean_turns": self.mean_turns,
            "difference_histogram": {str(diff): n for diff, n in self.difference_histogram.items()},
        }


def _fixed(value: float | None) -> float:
    # Only called on non-empty data, where the helpers never return None.
    assert value is not None
    return value


def summarize_fishing(records: Sequence[FishingRecord]) -> FishingSummary:
    """All the figures of one Tsung Shap configuration from its records (in game order)."""
    games = len(records)
    if games == 0:
        raise ValueError("no games to summarize")
    by_seat = [sorted(r.relative_scores[seat] for r in records) for seat in (0, 1)]
    wins = [0, 0]
    for record in records:
        seat = record.relative_winner
        if seat is not None:
            wins[seat] += 1
    differences = [r.difference for r in records]
    claimed_sweeps = sum(r.claimed_sweeps for r in records)
    sweeps = sum(r.sweeps for r in records)
    return FishingSummary(
        games=games,
        mean_score=[_fixed(mean(scores)) for scores in by_seat],
        median_score=[_fixed(quantile(scores, 0.5)) for scores in by_seat],
        p90_score=[_fixed(quantile(scores, 0.9)) for scores in by_seat],
        max_score=[scores[-1] for scores in by_seat],
        seat_wins=wins,
        win_share=[w / games for w in wins],
        draw_rate=(games - sum(wins)) / games,
        win_share_advantage=(wins[0] - wins[1]) / games,
        mean_score_difference=_fixed(mean(differences)),
        median_score_difference=_fixed(quantile(sorted(differences), 0.5)),
        captures_per_game={
            "pair": sum(r.pairs for r in records) / games,
            "triplet": sum(r.triplets for r in records) / games,
            "sweep": sweeps / games,
        },
        missed_per_game=sum(r.missed for r in records) / games,
        claimed_per_game=sum(r.claimed for r in records) / games,
        sweeps_per_game=(sweeps + claimed_sweeps) / games,
        mean_turns=sum(r.turns for r in records) / games,
        chi2=chi2_equal_shares(wins),
        difference_histogram=dict(sorted(Counter(differences).items())),
    )


# ---------------------------------------------------------------------------------------------
# Partial statistics: integer counts that merge exactly


_FISHING_SUMS = ("pairs", "triplets", "sweeps", "missed", "claimed", "claimed_sweeps", "turns")


@dataclass(slots=True)
class FishingTally:
    """Partial statistics of some Tsung Shap games of one configuration: counts and sums only.

    ``scores`` holds one histogram (score -> games) per seat relative to the first player,
    ``differences`` one of the first player's score minus the second's; ``counts`` sums the
    records' ``pairs``, ``triplets``, ``sweeps``, ``missed``, ``claimed``, ``claimed_sweeps`` and
    ``turns``.
    """

    games: int = 0
    scores: tuple[dict[int, int], dict[int, int]] = field(default_factory=lambda: ({}, {}))
    seat_wins: list[int] = field(default_factory=lambda: [0, 0])
    differences: dict[int, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(_FISHING_SUMS, 0))

    def add(self, record: FishingRecord) -> None:
        """Count one more game."""
        self.games += 1
        for histogram, score in zip(self.scores, record.relative_scores, strict=True):
            histogram[score] = histogram.get(score, 0) + 1
        seat = record.relative_winner
        if seat is not None:
            self.seat_wins[seat] += 1
        difference = record.difference
        self.differences[difference] = self.differences.get(difference, 0) + 1
        for name in _FISHING_SUMS:
            self.counts[name] += getattr(record, name)

    def merge(self, other: FishingTally) -> None:
        """Add the games another tally (of the same configuration) counted."""
        self.games += other.games
        for mine, theirs in zip(self.scores, other.scores, strict=True):
            add_counts(mine, theirs)
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        add_counts(self.differences, other.differences)
        add_counts(self.counts, other.counts)


def tally_fishing(records: Sequence[FishingRecord]) -> FishingTally:
    """The tally of some Tsung Shap games' records."""
    tally = FishingTally()
    for record in records:
        tally.add(record)
    return tally


def summarize_fishing_tally(tally: FishingTally) -> FishingSummary:
    """Every figure of one Tsung Shap configuration from its tally: equal to
    :func:`summarize_fishing` of the records it counted."""
    games = tally.games
    if games == 0:
        raise ValueError("no games to summarize")
    by_seat = [dict(sorted(h.items())) for h in tally.scores]
    wins = list(tally.seat_wins)
    differences = dict(sorted((d, n) for d, n in tally.differences.items() if n))
    counts = tally.counts
    sweeps = counts["sweeps"]
    return FishingSummary(
        games=games,
        mean_score=[_fixed(int_mean(sum(s * n for s, n in h.items()), games)) for h in by_seat],
        median_score=[_fixed(histogram_quantile(h, games, 0.5)) for h in by_seat],
        p90_score=[_fixed(histogram_quantile(h, games, 0.9)) for h in by_seat],
        max_score=[max(s for s, n in h.items() if n) for h in by_seat],
        seat_wins=wins,
        win_share=[w / games for w in wins],
        draw_rate=(games - sum(wins)) / games,
        win_share_advantage=(wins[0] - wins[1]) / games,
        mean_score_difference=_fixed(int_mean(sum(d * n for d, n in differences.items()), games)),
        median_score_difference=_fixed(histogram_quantile(differences, games, 0.5)),
        captures_per_game={
            "pair": counts["pairs"] / games,
            "triplet": counts["triplets"] / games,
            "sweep": sweeps / games,
        },
        missed_per_game=counts["missed"] / games,
        claimed_per_game=counts["claimed"] / games,
        sweeps_per_game=(sweeps + counts["claimed_sweeps"]) / games,
        mean_turns=counts["turns"] / games,
        chi2=chi2_equal_shares(wins),
        difference_histogram=differences,
    )
