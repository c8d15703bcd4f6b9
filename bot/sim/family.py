"""What a family of games gives the simulator (its *sim facet*), and the one accessor that
fetches it: :func:`sim_of`.

A family may leave the role out: :func:`sim_of` is then None and the simulator plays the game
through the engine and the AI facets alone (:mod:`bot.sim.generic`, the fallback
:func:`bot.sim.runner.facet_for` hands out). A family's facet is the ``FACET`` of the module its
descriptor names for the role ``sim`` (``bot/games/<family>/sim/family.py``); that module
belongs to this layer (no asyncio, no database, no discord). See docs/architecture.md, "Games:
one place per game".

Figures must not depend on how a run is cut: a tally merges exactly (counts and sums), chunks
are played from the run's seed and the games' indices, and workers fork only after
:meth:`GameSim.prepare` compiled what they run.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from bot.games import load

if TYPE_CHECKING:
    from bot.sim.config import ConfigResult, SimConfig

__all__ = ["GameSim", "Tally", "sim_of"]


class Tally(Protocol):
    """Partial statistics of some games of one configuration: counts and sums only, so that
    merging the tallies of any chunks in any order gives the same figures."""

    @property
    def games(self) -> int:
        """Games counted."""
        ...

    def merge(self, other: Any) -> None:
        """Add another tally of the same configuration (of the same family) to this one."""
        ...


class GameSim(Protocol):
    """Everything a family gives the simulator: its configurations, how a chunk of games is
    played and tallied, and its report (text, JSON, CSV rows, chart)."""

    @property
    def refusals(self) -> tuple[str, ...]:
        """The English templates of the family's own refusals of ``kapshap sim``'s options
        (marked with ``N_``), so that ``--lang`` tells them in Chinese."""
        ...

    def configs(self, game: str, args: argparse.Namespace) -> list[tuple[str, SimConfig]]:
        """``kapshap sim``'s options (``--rules``, ``--compare``, ``--rule``, ``--players``,
        ``--sets``, ``--ai``) as labelled configurations of ``game``; UsageError
        (:mod:`bot.sim.options`) or the engine's RulesError says what is wrong."""
        ...

    def new_tally(self, config: SimConfig) -> Tally:
        """An empty tally of a configuration."""
        ...

    def play_chunk(
        self, config: SimConfig, seed: int, start: int, stop: int, keep: bool
    ) -> tuple[Tally, Sequence[Any] | None]:
        """Games ``start`` to ``stop - 1`` of a run: their tally, and their records when
        ``keep`` (``--csv``), else None. Game ``i`` depends only on the configuration, the seed
        and ``i`` (its computer players draw from :func:`bot.sim.runner.ai_rng`)."""
        ...

    def prepare(self, configs: Sequence[SimConfig]) -> int:
        """Compile (or load) the kernels the configurations run, before any worker forks;
        returns the most games one chunk may hold."""
        ...

    def outcomes(self, results: Sequence[ConfigResult]) -> Sequence[Any]:
        """The figures of a run's results (one per configuration), which the report, the JSON,
        the CSV file and the chart are made of."""
        ...

    def report(self, outcomes: Sequence[Any], seed: int, locale: str) -> str:
        """The text report of a run's outcomes, in a locale."""
        ...

    def to_json(self, outcomes: Sequence[Any], seed: int) -> list[dict[str, Any]]:
        """One JSON object per configuration (``--json``)."""
        ...

    def write_csv(self, outcomes: Sequence[Any], seed: int, path: Path) -> None:
        """One row per game, with a header row (``--csv``; the run kept the records)."""
        ...

    def plot(self, outcomes: Sequence[Any], path: Path) -> None:
        """The report's chart as a PNG file (``--plot``; matplotlib is there)."""
        ...


def sim_of(game: str) -> GameSim | None:
    """The sim facet of a game's family; None when the family gives none (UnknownGame for a
    name no family registered)."""
    return cast("GameSim | None", load(game, "sim"))
