"""The sim facet of the collecting games; an adapter until the simulator's code moves here
(issue 19 step 12)."""

from __future__ import annotations

from bot.games.dominoes.sim.adapter import DominoSim
from bot.sim.family import GameSim
from bot.sim.runner import SimConfig
from bot.sim.stats import GameTally

__all__ = ["FACET", "CollectingSim"]


class CollectingSim(DominoSim):
    """Kap Shap and Kap Tai Shap for the simulator."""

    def new_tally(self, config: SimConfig) -> GameTally:
        """An empty tally (:class:`bot.sim.stats.GameTally`, per seat of the table)."""
        return GameTally(config.rules.players)


FACET: GameSim = CollectingSim()
"""The collecting games' sim facet (``sim_of("kap-shap")``)."""
