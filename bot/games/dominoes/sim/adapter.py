"""What the two domino families' sim facets share until the simulator's code moves behind them
(issue 19 step 12): every method but ``new_tally`` raises NotImplementedError naming that step,
and nothing calls them before (``bot/sim/cli.py`` and ``bot/sim/runner.py`` still run both
families themselves)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.sim.family import Tally
from bot.sim.runner import SimConfig

__all__ = ["DominoSim"]

_STEP = "moves in step 12 (today bot/sim/cli.py and bot/sim/runner.py)"


class DominoSim:
    """The shared part of a domino family's sim facet."""

    def configs(self, args: argparse.Namespace) -> list[tuple[str, SimConfig]]:
        """Not here yet."""
        raise NotImplementedError(_STEP)

    def play_chunk(
        self, config: SimConfig, seed: int, start: int, stop: int, keep: bool
    ) -> tuple[Tally, Sequence[Any] | None]:
        """Not here yet."""
        raise NotImplementedError(_STEP)

    def prepare(self, configs: Sequence[SimConfig]) -> int:
        """Not here yet."""
        raise NotImplementedError(_STEP)

    def report(self, outcomes: Sequence[Any], locale: str) -> str:
        """Not here yet."""
        raise NotImplementedError(_STEP)

    def to_json(self, outcomes: Sequence[Any]) -> dict[str, Any]:
        """Not here yet."""
        raise NotImplementedError(_STEP)

    def write_csv(self, outcomes: Sequence[Any], path: Path) -> None:
        """Not here yet."""
        raise NotImplementedError(_STEP)

    def plot(self, outcomes: Sequence[Any], path: Path) -> None:
        """Not here yet."""
        raise NotImplementedError(_STEP)
