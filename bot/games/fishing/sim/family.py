"""The sim facet of Tsung Shap: variants (flag sets) compared on the same deals, games played
through the engine by :func:`bot.games.fishing.sim.play.play_fishing`, and the report of scores
(:mod:`bot.games.fishing.sim.report`)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine import make_rules, with_flag
from bot.games.dominoes.sim.adapter import deal_for
from bot.games.fishing.sim import report
from bot.games.fishing.sim.play import FishingRecord, play_fishing
from bot.games.fishing.sim.stats import FishingTally, tally_fishing
from bot.locale import N_
from bot.sim.family import GameSim, sim_of
from bot.sim.options import UsageError, flag_overrides, levels
from bot.sim.runner import (
    MAX_CHUNK,
    ConfigResult,
    Progress,
    SimConfig,
    SimError,
    ai_rng,
    run,
)

__all__ = [
    "BASE_VARIANT",
    "FACET",
    "FISHING_VARIANT_FLAGS",
    "FishingConfigResult",
    "FishingSim",
    "play_fishing_one",
    "play_fishing_range",
    "run_fishing",
]

FISHING_VARIANT_FLAGS = (
    "auto_capture",
    "triplet_both_ends_only",
    "sweep_adds_pips",
    "second_may_capture_opening",
    "play_until_both_piles_empty",
)
"""The Tsung Shap flags ``--compare`` can switch on by name (``base`` switches none)."""

BASE_VARIANT = "base"

_REFUSALS = (
    N_(
        "--compare: '{name}' is not a Tsung Shap variant: choose from {known} (join flags with "
        "+ to switch several on)"
    ),
    N_("--compare: '{name}' names {flag} twice"),
    N_("Tsung Shap is played with exactly one set, not {n}"),
    N_(
        "--rules does not apply to tsung-shap (it has one rule set): choose variants with "
        "--rule NAME=VALUE or --compare base,auto_capture"
    ),
    N_("--compare needs variant names, e.g. base,auto_capture"),
    N_("--compare lists a variant twice"),
)


def _variant_flags(name: str) -> list[str]:
    """The flags a ``--compare`` entry switches on (``base``: none)."""
    if name == BASE_VARIANT:
        return []
    flags = []
    for part in name.split("+"):
        flag = part.strip().replace("-", "_")
        if flag not in FISHING_VARIANT_FLAGS:
            known = ", ".join((BASE_VARIANT, *FISHING_VARIANT_FLAGS))
            raise UsageError(
                f"--compare: '{part.strip()}' is not a Tsung Shap variant: choose from {known} "
                "(join flags with + to switch several on)"
            )
        if flag in flags:
            raise UsageError(f"--compare: '{name}' names {flag} twice")
        flags.append(flag)
    return flags


def play_fishing_one(config: SimConfig, seed: int, index: int) -> FishingRecord:
    """Play game ``index`` of a run (the same deal for every variant)."""
    deal = deal_for(config.rules, seed, index)
    return play_fishing(config.rules, deal, config.levels, ai_rng(seed, index))


def play_fishing_range(config: SimConfig, seed: int, start: int, stop: int) -> list[FishingRecord]:
    """Play games ``start .. stop-1`` of a run, in order."""
    return [play_fishing_one(config, seed, index) for index in range(start, stop)]


class FishingSim:
    """Tsung Shap for the simulator."""

    @property
    def refusals(self) -> tuple[str, ...]:
        """Its refusals of ``--players``, ``--sets``, ``--rules`` and ``--compare``."""
        return _REFUSALS

    def configs(self, game: str, args: argparse.Namespace) -> list[tuple[str, SimConfig]]:
        """The (variant name, configuration) pairs of a run: ``base``, or each of
        ``--compare``'s flag sets, on top of the ``--rule`` flags."""
        if args.players is not None and args.players != 2:
            raise UsageError(f"Tsung Shap is for exactly 2 players, not {args.players}")
        if args.sets is not None and args.sets != 1:
            raise UsageError(f"Tsung Shap is played with exactly one set, not {args.sets}")
        if args.rules is not None:
            raise UsageError(
                "--rules does not apply to tsung-shap (it has one rule set): choose variants "
                "with --rule NAME=VALUE or --compare base,auto_capture"
            )
        if args.compare is None:
            names = [BASE_VARIANT]
        else:
            names = [n.strip() for n in str(args.compare).split(",") if n.strip()]
            if not names:
                raise UsageError("--compare needs variant names, e.g. base,auto_capture")
            if len(set(names)) != len(names):
                raise UsageError("--compare lists a variant twice")
        base = make_rules(game)
        for flag, value in flag_overrides(args.rule):
            base = with_flag(base, flag, value)
        chosen = levels(args.ai, base.players, game)
        out = []
        for name in names:
            rules = base
            for flag in _variant_flags(name):
                rules = with_flag(rules, flag, "true")
            out.append((name, SimConfig(rules, chosen)))
        return out

    def new_tally(self, config: SimConfig) -> FishingTally:
        """An empty tally (:class:`bot.games.fishing.sim.stats.FishingTally`)."""
        return FishingTally()

    def play_chunk(
        self, config: SimConfig, seed: int, start: int, stop: int, keep: bool
    ) -> tuple[FishingTally, Sequence[Any] | None]:
        """Games ``start .. stop-1``, played through the engine."""
        records = play_fishing_range(config, seed, start, stop)
        return tally_fishing(records), records if keep else None

    def prepare(self, configs: Sequence[SimConfig]) -> int:
        """Warm the master's kernel where a master plays."""
        from bot.ai.warm import warm_master

        for game in sorted({str(c.rules.game) for c in configs if "master" in c.levels}):
            warm_master(game)
        return MAX_CHUNK

    def outcomes(self, results: Sequence[ConfigResult]) -> list[report.FishingOutcome]:
        """Summaries (:func:`bot.games.fishing.sim.report.outcomes`)."""
        return report.outcomes(results)

    def report(self, outcomes: Sequence[Any], seed: int, locale: str) -> str:
        """One column per variant (:func:`bot.games.fishing.sim.report.format_fishing_report`)."""
        return report.format_fishing_report(outcomes, seed, locale)

    def to_json(self, outcomes: Sequence[Any], seed: int) -> list[dict[str, Any]]:
        """One object per variant (:func:`bot.games.fishing.sim.report.fishing_to_json`)."""
        return [report.fishing_to_json(outcome, seed) for outcome in outcomes]

    def write_csv(self, outcomes: Sequence[Any], seed: int, path: Path) -> None:
        """One row per game (:func:`bot.games.fishing.sim.report.write_fishing_csv`)."""
        report.write_fishing_csv(outcomes, seed, path)

    def plot(self, outcomes: Sequence[Any], path: Path) -> None:
        """The score differences (:func:`bot.games.fishing.sim.report.plot`)."""
        report.plot(outcomes, path)


FACET: GameSim = FishingSim()
"""Tsung Shap's sim facet (``sim_of("tsung-shap")``)."""


# ---------------------------------------------------------------------------------------------
# Runs of Tsung Shap alone, each configuration named by its variant


@dataclass(frozen=True, slots=True)
class FishingConfigResult:
    """The games of one variant: records in game order (empty if the run did not keep them),
    the time they took and their tally. ``variant`` names the configuration (``base``, or a
    ``--compare`` entry such as ``auto_capture``)."""

    config: SimConfig
    variant: str
    records: tuple[FishingRecord, ...]
    seconds: float
    tally: FishingTally

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time (all workers together)."""
        return self.tally.games / self.seconds if self.seconds > 0 else math.inf


def run_fishing(
    configs: Sequence[tuple[str, SimConfig]],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Progress | None = None,
    keep_records: bool = True,
    on_compile: Callable[[], None] | None = None,
) -> list[FishingConfigResult]:
    """Play ``games`` Tsung Shap games of every (variant name, configuration) on the same
    deals (:func:`bot.sim.runner.run`): the figures do not depend on ``workers``,
    ``keep_records=False`` keeps only the tallies, and ``on_compile`` is called when a master's
    kernel compiles."""
    for _variant, config in configs:
        if sim_of(config.game) is not FACET:
            raise SimError(f"run_fishing plays Tsung Shap, not {config.rules.game}")
    results = run(
        [config for _, config in configs],
        games,
        seed,
        workers,
        progress,
        keep_records,
        on_compile,
        labels=[variant for variant, _ in configs],
    )
    return [FishingConfigResult(r.config, r.label, r.records, r.seconds, r.tally) for r in results]
