"""What a run of the simulator is made of, for every game: a configuration (a rule set and one
computer level per seat), the result of its games, the refusal of a run that cannot be, the
computer levels a game offers and the random source of a game's players.

The runner (:mod:`bot.sim.runner`), the options (:mod:`bot.sim.options`), the fallback
(:mod:`bot.sim.generic`) and the families' sim facets share these; this module imports nothing
else of the simulator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import default_game

__all__ = [
    "MAX_CHUNK",
    "ConfigResult",
    "SimConfig",
    "SimError",
    "ai_rng",
    "check_levels",
    "known_levels",
]

MAX_CHUNK = 250
"""Upper bound on games per task when a family has no faster way: small enough for a smooth
progress bar, large enough that sending a task and merging its tally cost nothing next to
playing it (a family whose games take microseconds raises it, :meth:`GameSim.prepare`)."""


class SimError(ValueError):
    """A simulation that cannot run as asked (the message is meant for the user)."""


@dataclass(frozen=True, slots=True)
class SimConfig:
    """One configuration to simulate: a rule set and one AI level per seat (seat-list order).

    ``rules`` is the game's own rule set (``rules.game`` names the game); the runner reads only
    what every game's rules have (:class:`bot.engine.family.Rules`)."""

    rules: Any
    levels: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.levels) != self.rules.players:
            raise SimError(f"{len(self.levels)} AI levels given for {self.rules.players} seats")

    @property
    def game(self) -> str:
        """The game played (the registry's name)."""
        game: str = str(self.rules.game)
        return game


@dataclass(frozen=True, slots=True)
class ConfigResult:
    """The games of one configuration: their records in game order (empty if the run did not
    keep them), the wall-clock time they took and their tally (what the summary needs).

    ``label`` names the configuration in the report (a rule set, a variant; empty when the run
    was given none). Records and tally are the family's own (:meth:`GameSim.play_chunk`)."""

    config: SimConfig
    records: tuple[Any, ...]
    seconds: float
    tally: Any
    label: str = ""

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time (all workers together)."""
        games: int = self.tally.games
        return games / self.seconds if self.seconds > 0 else math.inf


def known_levels(game: str | None = None) -> list[str]:
    """The AI level names ``game`` plays (default: the default game), sorted: the levels it
    offers and those no longer offered, which the simulator still measures."""
    from bot.ai.levels import playable_levels

    name = default_game() if game is None else str(game)
    return sorted(playable_levels(name))


def check_levels(levels: Sequence[str], game: str | None = None) -> None:
    """Raise :class:`SimError` naming the known levels if ``game`` has no such level."""
    known = known_levels(game)
    for level in levels:
        if level not in known:
            raise SimError(f"unknown AI level '{level}': choose one of {', '.join(known)}")


def ai_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index``'s AI choices."""
    return random.Random(f"{seed}:{index}:ai")
