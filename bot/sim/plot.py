"""The ``--plot`` picture: histogram of the winning turn, one series per configuration.

Drawn with matplotlib's Agg canvas directly (no pyplot): no GUI backend is ever selected, no
global figure state is kept, and it works without a display.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["Series", "plot_turn_histograms"]


@dataclass(frozen=True, slots=True)
class Series:
    """One line of the plot: won games per winning turn, out of ``games`` games."""

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
