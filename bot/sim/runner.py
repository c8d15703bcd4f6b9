"""Running many games: deterministic seeding, worker processes, results in game order.

Determinism. Game ``i`` of a run with seed ``s`` is dealt with ``random.Random(f"{s}:{i}:deal")``
and its AI players draw from ``random.Random(f"{s}:{i}:ai")``. Nothing else feeds randomness into
a game, so its outcome depends on (configuration, seed, i) only, not on which worker played it
nor on what that worker played before. Workers play chunks of consecutive game indices and the
chunks are reassembled in index order, so every figure is identical whatever ``workers`` is.
String seeds are hashed with SHA-512 by :class:`random.Random`, which is stable across Python
versions and unaffected by ``PYTHONHASHSEED``.

The deal of game ``i`` depends on the rule set only through the player count, the number of
sets and how the first player is chosen, so the rule sets of a comparison (same players and sets)
play exactly the same deals.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.engine import Deal, RuleSet, make_deal
from bot.sim.play import play_game
from bot.sim.record import GameRecord

__all__ = [
    "ConfigResult",
    "Progress",
    "SimConfig",
    "SimError",
    "ai_rng",
    "check_levels",
    "deal_for",
    "deal_rng",
    "default_workers",
    "known_levels",
    "play_one",
    "play_range",
    "run",
]

# Upper bound on games per task: small enough for a smooth progress bar and a fair share of work
# between workers, large enough that sending a task costs nothing next to playing it.
_MAX_CHUNK = 250


class SimError(ValueError):
    """A simulation that cannot run as asked (the message is meant for the user)."""


@dataclass(frozen=True, slots=True)
class SimConfig:
    """One configuration to simulate: a rule set and one AI level per seat (seat-list order)."""

    rules: RuleSet
    levels: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.levels) != self.rules.players:
            raise SimError(f"{len(self.levels)} AI levels given for {self.rules.players} seats")


@dataclass(frozen=True, slots=True)
class ConfigResult:
    """The games of one configuration, in game order, and the wall-clock time they took."""

    config: SimConfig
    records: tuple[GameRecord, ...]
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time (all workers together)."""
        return len(self.records) / self.seconds if self.seconds > 0 else math.inf


class Progress(Protocol):
    """What :func:`run` reports its progress to (the CLI shows a tqdm bar)."""

    def start(self, total: int) -> None:
        """Called once, before the first game, with the number of games of the whole run."""

    def advance(self, games: int) -> None:
        """Called whenever ``games`` more games are finished."""


def known_levels() -> list[str]:
    """The registered AI level names, sorted."""
    from bot.ai import AI_LEVELS  # importing the package registers every level

    return sorted(AI_LEVELS)


def check_levels(levels: Sequence[str]) -> None:
    """Raise :class:`SimError` naming the known levels if any level is not registered."""
    known = known_levels()
    for level in levels:
        if level not in known:
            raise SimError(f"unknown AI level '{level}': choose one of {', '.join(known)}")


def default_workers() -> int:
    """The number of CPU cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def deal_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index``'s deal."""
    return random.Random(f"{seed}:{index}:deal")


def ai_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index``'s AI choices."""
    return random.Random(f"{seed}:{index}:ai")


def deal_for(rules: RuleSet, seed: int, index: int) -> Deal:
    """The deal of game ``index`` (the same for every rule set with the same players and sets)."""
    return make_deal(rules, deal_rng(seed, index))


def play_one(config: SimConfig, seed: int, index: int) -> GameRecord:
    """Play game ``index`` of a run."""
    deal = deal_for(config.rules, seed, index)
    return play_game(config.rules, deal, config.levels, ai_rng(seed, index))


def play_range(config: SimConfig, seed: int, start: int, stop: int) -> list[GameRecord]:
    """Play games ``start .. stop-1`` of a run, in order."""
    return [play_one(config, seed, index) for index in range(start, stop)]


def _play_task(task: tuple[SimConfig, int, int, int]) -> list[GameRecord]:
    # Module level so that it pickles by name under both fork and spawn.
    config, seed, start, stop = task
    return play_range(config, seed, start, stop)


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(_MAX_CHUNK, math.ceil(games / (workers * 16))))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def run(
    configs: Sequence[SimConfig],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Progress | None = None,
) -> list[ConfigResult]:
    """Play ``games`` games of every configuration (one after the other, on the same deals).

    ``workers == 1`` plays in this process; more start a process pool. Results are the same
    for any ``workers``; only ``seconds`` differs.
    """
    if games < 1:
        raise SimError(f"the number of games must be at least 1, not {games}")
    if workers < 1:
        raise SimError(f"the number of workers must be at least 1, not {workers}")
    for config in configs:
        check_levels(config.levels)
    chunks = _chunks(games, workers)
    workers = min(workers, len(chunks))
    results: list[ConfigResult] = []
    if workers == 1:
        if progress is not None:
            progress.start(games * len(configs))
        for config in configs:
            began = time.perf_counter()
            records: list[GameRecord] = []
            for start, stop in chunks:
                records += play_range(config, seed, start, stop)
                if progress is not None:
                    progress.advance(stop - start)
            results.append(ConfigResult(config, tuple(records), time.perf_counter() - began))
        return results
    # The pool is started before the progress bar so that no thread exists when workers fork.
    with multiprocessing.get_context().Pool(workers) as pool:
        if progress is not None:
            progress.start(games * len(configs))
        for config in configs:
            began = time.perf_counter()
            records = []
            tasks = [(config, seed, start, stop) for start, stop in chunks]
            # imap keeps task order: records come back in game order.
            for chunk in pool.imap(_play_task, tasks):
                records += chunk
                if progress is not None:
                    progress.advance(len(chunk))
            results.append(ConfigResult(config, tuple(records), time.perf_counter() - began))
    return results
