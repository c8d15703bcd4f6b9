"""The ``--plot`` pictures: histogram of the winning turn (collecting games) or of the score
difference (Tsung Shap), one series per configuration.

Drawn with matplotlib's Agg canvas directly (no pyplot): no GUI backend is ever selected, no
global figure state is kept, and it works without a display.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["Series", "plot_difference_histograms", "plot_turn_histograms"]


@dataclass(frozen=True, slots=True)
class Series:
    """One line of the plot: games per value (winning turn, or score difference), out of
    ``games`` games."""

    label: str
    histogram: Mapping[int, int]
    games: int


def plot_turn_histograms(series: Sequence[Series], path: Path | str, title: str) -> None:
    """Write a PNG with the share of games won at each turn, one step line per series.

    Shares (not counts) are plotted so that series of different sizes compare; they are over
    all games, so the area under a line is that configuration's win rate.
    """
    if not series:
        raise ValueError("nothing to plot")
    last = max((max(s.histogram, default=0) for s in series), default=0)
    last = max(last, 1)
    edges = [turn + 0.5 for turn in range(last + 1)]  # bin k covers [k - 0.5, k + 0.5)
    figure = Figure(figsize=(9, 5), dpi=100)
    FigureCanvasAgg(figure)  # attaches the Agg canvas to the figure
    axes = figure.add_subplot()
    for s in series:
        shares = [s.histogram.get(turn, 0) / s.games for turn in range(1, last + 1)]
        axes.stairs(shares, edges, label=s.label, linewidth=1.5)
    axes.set_xlim(0.5, last + 0.5)
    axes.set_xlabel("winning turn T (every player turn counts, the opening turn is 1)")
    axes.set_ylabel("share of all games won at turn T")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(str(path), format="png")


def plot_difference_histograms(series: Sequence[Series], path: Path | str, title: str) -> None:
    """Write a PNG with the share of games at each score difference (first player minus
    second), one step line per series; a dotted line marks 0 (a draw).

    The bins are as wide as the greatest common divisor of the differences seen (10 in Tsung
    Shap, where every capture scores a multiple of ten), each centred on its value.
    """
    if not series:
        raise ValueError("nothing to plot")
    values = [d for s in series for d in s.histogram]
    width = 0
    for value in values:
        width = math.gcd(width, value)
    width = width or 10
    low = min(values, default=0)
    high = max(values, default=0)
    bins = list(range(low, high + width, width))
    edges = [b - width / 2 for b in bins] + [high + width / 2]
    figure = Figure(figsize=(9, 5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for s in series:
        shares = [s.histogram.get(b, 0) / s.games for b in bins]
        axes.stairs(shares, edges, label=s.label, linewidth=1.5)
    axes.axvline(0, color="grey", linestyle=":", linewidth=1)
    axes.set_xlim(edges[0], edges[-1])
    axes.set_xlabel("score difference: first player minus second player (points)")
    axes.set_ylabel("share of all games")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(str(path), format="png")
