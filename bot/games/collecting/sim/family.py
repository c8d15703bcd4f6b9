"""The sim facet of the collecting games (Kap Shap, Kap Tai Shap): rule sets compared on the same
deals, games played in the compiled kernel when it plays every seat, and the report of winning
turns (:mod:`bot.games.collecting.sim.report`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.engine import make_rules, with_flag
from bot.engine.rules import RULE_SET_NAMES
from bot.games.collecting.sim import play, report
from bot.sim.family import GameSim
from bot.sim.options import flag_overrides, levels, rule_names
from bot.sim.runner import MAX_CHUNK, ConfigResult, SimConfig
from bot.sim.stats import GameTally

__all__ = ["FACET", "CollectingSim"]

_MAX_KERNEL_CHUNK = 4096
"""Games per task in the kernel: games there take 10-40 µs, so a chunk is at most about a tenth
of a second."""


class CollectingSim:
    """Kap Shap and Kap Tai Shap for the simulator."""

    @property
    def refusals(self) -> tuple[str, ...]:
        """None of its own: the generic options' and the engine's words say it all."""
        return ()

    def configs(self, game: str, args: argparse.Namespace) -> list[tuple[str, SimConfig]]:
        """One configuration per rule set (``--rules``, or each of ``--compare``'s), every
        one with ``--players``, ``--sets``, the ``--rule`` flags and the ``--ai`` levels."""
        out = []
        for name in rule_names(args, tuple(RULE_SET_NAMES)):
            rules = make_rules(game, args.players, name, args.sets)
            for flag, value in flag_overrides(args.rule):
                rules = with_flag(rules, flag, value)
            out.append(
                (rules.rule_set_name, SimConfig(rules, levels(args.ai, rules.players, game)))
            )
        return out

    def new_tally(self, config: SimConfig) -> GameTally:
        """An empty tally (:class:`bot.sim.stats.GameTally`, per seat of the table)."""
        return GameTally(config.rules.players)

    def play_chunk(
        self, config: SimConfig, seed: int, start: int, stop: int, keep: bool
    ) -> tuple[GameTally, Sequence[Any] | None]:
        """Games ``start .. stop-1`` (:func:`bot.games.collecting.sim.play.play_chunk`)."""
        return play.play_chunk(config, seed, start, stop, keep)

    def prepare(self, configs: Sequence[SimConfig]) -> int:
        """Compile the kernel if it plays any configuration, warm the master where one plays;
        chunks of kernel size when the kernel plays them all."""
        from bot.ai.warm import warm_master

        if any(play.kernel_plays(config) for config in configs):
            from bot.games.collecting.sim import kernel

            kernel.compile_kernel()
        for game in sorted({str(c.rules.game) for c in configs if "master" in c.levels}):
            warm_master(game)
        in_kernel = bool(configs) and all(play.kernel_plays(config) for config in configs)
        return _MAX_KERNEL_CHUNK if in_kernel else MAX_CHUNK

    def outcomes(self, results: Sequence[ConfigResult]) -> list[report.Outcome]:
        """Summaries and the oracle's checks (:func:`bot.games.collecting.sim.report.outcomes`)."""
        return report.outcomes(results)

    def report(self, outcomes: Sequence[Any], seed: int, locale: str) -> str:
        """One column per rule set (:func:`bot.games.collecting.sim.report.format_report`)."""
        return report.format_report(outcomes, seed, locale)

    def to_json(self, outcomes: Sequence[Any], seed: int) -> list[dict[str, Any]]:
        """One object per rule set (:func:`bot.games.collecting.sim.report.to_json`)."""
        return [report.to_json(outcome, seed) for outcome in outcomes]

    def write_csv(self, outcomes: Sequence[Any], seed: int, path: Path) -> None:
        """One row per game (:func:`bot.games.collecting.sim.report.write_csv`)."""
        report.write_csv(outcomes, seed, path)

    def plot(self, outcomes: Sequence[Any], path: Path) -> None:
        """The winning turns (:func:`bot.games.collecting.sim.report.plot`)."""
        report.plot(outcomes, path)


FACET: GameSim = CollectingSim()
"""The collecting games' sim facet (``sim_of("kap-shap")``)."""
