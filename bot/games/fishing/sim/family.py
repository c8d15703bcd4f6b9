"""The sim facet of Tsung Shap; an adapter until the simulator's code moves here (issue 19
step 12)."""

from __future__ import annotations

from bot.games.dominoes.sim.adapter import DominoSim
from bot.sim.family import GameSim
from bot.sim.runner import SimConfig
from bot.sim.stats import FishingTally

__all__ = ["FACET", "FishingSim"]


class FishingSim(DominoSim):
    """Tsung Shap for the simulator."""

    def new_tally(self, config: SimConfig) -> FishingTally:
        """An empty tally (:class:`bot.sim.stats.FishingTally`)."""
        return FishingTally()


FACET: GameSim = FishingSim()
"""Tsung Shap's sim facet (``sim_of("tsung-shap")``)."""
