"""Running many games: deterministic seeding, worker processes, tallies and records.

Determinism. Game ``i`` of a run with seed ``s`` is dealt from the splitmix64 stream keyed by
:func:`bot.sim.seeding.deal_key` ``(s, i)`` (cheap, and reproduced exactly by the compiled
kernel), and its AI players draw from ``random.Random(f"{s}:{i}:ai")`` (only ``random`` and
``master`` draw at all). Nothing else feeds randomness into a game, so its outcome depends on
(configuration, seed, i) only, not on which worker played it nor on what that worker played
before. Workers (:mod:`bot.sim.workers`) play chunks of consecutive game indices and send back
each chunk's tally (:class:`~bot.sim.stats.GameTally`: integer counts and sums, which merge
exactly in any order), plus its records only when the caller keeps them (reassembled in index
order). So every figure is identical whatever ``workers`` is, and the parent process, which only
merges, stays nearly idle while the workers play. String seeds are hashed with SHA-512
by :class:`random.Random`, which is stable across Python versions and unaffected by
``PYTHONHASHSEED``.

Speed. When the compiled kernel (:mod:`bot.sim.kernel`, the ``.[sim]`` extra) is installed and
every seat plays a level it knows, a chunk of collecting games is dealt and played there in one
call (its rows tallied with numpy, no record built); otherwise game by game in Python
(:func:`bot.sim.play.play_game`). Both give the same records (``tests/sim/test_kernel.py``).

The deal of game ``i`` depends on the rule set only through the player count, the number of
sets and how the first player is chosen, so the rule sets of a comparison (same players and sets)
play exactly the same deals. The same holds for Tsung Shap, whose variants (flag sets) all play
the deals of the same seed.

:func:`run` plays the collecting games (records are :class:`~bot.sim.record.GameRecord`);
:func:`run_fishing` plays Tsung Shap (records are :class:`~bot.sim.fishing.FishingRecord`). Both
share the seeding, the chunking and the worker pool.
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from bot.engine import Deal, Game, RuleSet
from bot.sim.fishing import FishingRecord, play_fishing
from bot.sim.play import play_game
from bot.sim.record import GameRecord
from bot.sim.seeding import deal_from_key, deal_key
from bot.sim.stats import FishingTally, GameTally, tally_fishing, tally_games
from bot.sim.workers import Workers

__all__ = [
    "ConfigResult",
    "FishingConfigResult",
    "Progress",
    "SimConfig",
    "SimError",
    "ai_rng",
    "check_levels",
    "deal_for",
    "default_workers",
    "kernel_plays",
    "known_levels",
    "play_fishing_one",
    "play_fishing_range",
    "play_one",
    "play_range",
    "run",
    "run_fishing",
]

# Upper bound on games per task: small enough for a smooth progress bar, large enough that
# sending a task and merging its tally cost nothing next to playing it. Games in the kernel take
# 10-40 µs, so their chunks are larger (at most about a tenth of a second each).
_MAX_CHUNK = 250
_MAX_KERNEL_CHUNK = 4096


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
    """The games of one configuration: their records in game order (empty if the run did not
    keep them), the wall-clock time they took and their tally (what the summary needs)."""

    config: SimConfig
    records: tuple[GameRecord, ...]
    seconds: float
    tally: GameTally

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time (all workers together)."""
        return self.tally.games / self.seconds if self.seconds > 0 else math.inf


@dataclass(frozen=True, slots=True)
class FishingConfigResult:
    """The Tsung Shap games of one configuration: records in game order (empty if the run did
    not keep them), the time they took and their tally.

    ``variant`` names the configuration (``base``, or a ``--compare`` entry such as
    ``auto_capture``).
    """

    config: SimConfig
    variant: str
    records: tuple[FishingRecord, ...]
    seconds: float
    tally: FishingTally

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time (all workers together)."""
        return self.tally.games / self.seconds if self.seconds > 0 else math.inf


class Progress(Protocol):
    """What :func:`run` reports its progress to (the CLI shows a tqdm bar)."""

    def start(self, total: int) -> None:
        """Called once, before the first game, with the number of games of the whole run."""

    def advance(self, games: int) -> None:
        """Called whenever ``games`` more games are finished."""


def known_levels(game: Game | str = Game.KAP_SHAP) -> list[str]:
    """The AI level names ``game`` offers, sorted (the collecting games share theirs)."""
    if Game(game) is Game.TSUNG_SHAP:
        from bot.ai.levels import levels_for

        return sorted(levels_for(Game.TSUNG_SHAP))
    from bot.ai import AI_LEVELS  # importing the package registers every level

    return sorted(AI_LEVELS)


def check_levels(levels: Sequence[str], game: Game | str = Game.KAP_SHAP) -> None:
    """Raise :class:`SimError` naming the known levels if ``game`` has no such level."""
    known = known_levels(game)
    for level in levels:
        if level not in known:
            raise SimError(f"unknown AI level '{level}': choose one of {', '.join(known)}")


def default_workers() -> int:
    """The number of CPU cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def ai_rng(seed: int, index: int) -> random.Random:
    """The random source of game ``index``'s AI choices."""
    return random.Random(f"{seed}:{index}:ai")


def deal_for(rules: RuleSet, seed: int, index: int) -> Deal:
    """The deal of game ``index`` (the same for every rule set with the same players and sets)."""
    return deal_from_key(rules, deal_key(seed, index))


def kernel_plays(config: SimConfig) -> bool:
    """Whether the compiled kernel is here and plays every seat of ``config``."""
    if config.rules.game is Game.TSUNG_SHAP:
        return False
    if not set(config.levels) <= {"greedy", "expert"}:
        return False
    from bot.ai import kernel

    return kernel.available()


def play_one(config: SimConfig, seed: int, index: int) -> GameRecord:
    """Play game ``index`` of a run."""
    deal = deal_for(config.rules, seed, index)
    return play_game(config.rules, deal, config.levels, ai_rng(seed, index))


def play_range(config: SimConfig, seed: int, start: int, stop: int) -> list[GameRecord]:
    """Play games ``start .. stop-1`` of a run, in order."""
    if kernel_plays(config):
        from bot.sim import kernel

        keys = [deal_key(seed, index) for index in range(start, stop)]
        return kernel.play_batch(config.rules, config.levels, keys)
    return [play_one(config, seed, index) for index in range(start, stop)]


def play_fishing_one(config: SimConfig, seed: int, index: int) -> FishingRecord:
    """Play Tsung Shap game ``index`` of a run (the same deal for every variant)."""
    deal = deal_for(config.rules, seed, index)
    return play_fishing(config.rules, deal, config.levels, ai_rng(seed, index))


def play_fishing_range(config: SimConfig, seed: int, start: int, stop: int) -> list[FishingRecord]:
    """Play Tsung Shap games ``start .. stop-1`` of a run, in order."""
    return [play_fishing_one(config, seed, index) for index in range(start, stop)]


@dataclass(frozen=True, slots=True)
class _Job:
    """What a run plays: every worker process holds it (inherited, or pickled once)."""

    configs: tuple[SimConfig, ...]
    seed: int
    fishing: bool
    records: bool  # whether the caller wants every game's record, not only the tally


_Chunk = tuple[GameTally | FishingTally, Sequence[GameRecord] | Sequence[FishingRecord] | None]


def _play(job: _Job, task: tuple[int, int, int]) -> _Chunk:
    """The tally of games ``start .. stop-1`` of configuration ``which`` (task: ``which, start,
    stop``), and their records if the job keeps them: what a worker sends back, a few hundred
    bytes without records. Module level so that it pickles by name under spawn too."""
    which, start, stop = task
    config, seed = job.configs[which], job.seed
    if job.fishing:
        fishing = play_fishing_range(config, seed, start, stop)
        return tally_fishing(fishing), fishing if job.records else None
    if kernel_plays(config):
        from bot.sim import kernel

        return kernel.play_games(config.rules, config.levels, seed, start, stop, job.records)
    records = play_range(config, seed, start, stop)
    return tally_games(records, config.rules.players), records if job.records else None


def _chunks(games: int, workers: int, cap: int) -> list[tuple[int, int]]:
    """Consecutive ranges covering ``0 .. games-1``: each a ``1/(4·workers)`` share of the
    games left (at most ``cap``, at least a 64th of it), so large chunks first and small ones
    last, and the workers finish within a small chunk of each other."""
    out = []
    start = 0
    smallest = max(1, cap // 64)
    while start < games:
        size = min(cap, max(smallest, math.ceil((games - start) / (4 * workers))))
        out.append((start, min(games, start + size)))
        start += size
    return out


def _check_run(games: int, workers: int) -> None:
    if games < 1:
        raise SimError(f"the number of games must be at least 1, not {games}")
    if workers < 1:
        raise SimError(f"the number of workers must be at least 1, not {workers}")


def _compile(job: _Job, on_compile: Callable[[], None] | None) -> None:
    """Compile the kernel the job runs (or load it from the disk cache) once, before the
    workers fork, so that they inherit it; ``on_compile`` is called if it really compiles."""
    from bot.ai.warm import announcing, warm_master

    with announcing(on_compile or (lambda: None)):
        if not job.fishing and any(kernel_plays(config) for config in job.configs):
            from bot.sim import kernel

            kernel.compile_kernel()
        for game in sorted({c.rules.game for c in job.configs if "master" in c.levels}):
            warm_master(game)


def _run_all(
    job: _Job,
    games: int,
    workers: int,
    progress: Progress | None,
    on_compile: Callable[[], None] | None = None,
) -> list[tuple[GameTally | FishingTally, list[GameRecord | FishingRecord], float]]:
    """Play every configuration of ``job``: for each its merged tally, its records in game
    order (empty unless the job keeps them) and the seconds it took."""
    in_kernel = not job.fishing and all(kernel_plays(config) for config in job.configs)
    chunks = _chunks(games, workers, _MAX_KERNEL_CHUNK if in_kernel else _MAX_CHUNK)
    workers = min(workers, len(chunks))
    _compile(job, on_compile)
    results: list[tuple[GameTally | FishingTally, list[GameRecord | FishingRecord], float]] = []
    with contextlib.ExitStack() as stack:
        # Started before the progress bar so that no thread exists when workers fork.
        pool = stack.enter_context(Workers(workers, _play, job)) if workers > 1 else None
        if progress is not None:
            progress.start(games * len(job.configs))
        for which, config in enumerate(job.configs):
            began = time.perf_counter()
            tally: GameTally | FishingTally = (
                FishingTally() if job.fishing else GameTally(config.rules.players)
            )
            records: list[GameRecord | FishingRecord] = []
            tasks = [(which, start, stop) for start, stop in chunks]
            # Results come in task order: records in game order. Tallies merge exactly in any
            # order (integers), this one included.
            played = pool.map(tasks) if pool is not None else (_play(job, t) for t in tasks)
            for part, chunk_records in played:
                tally.merge(part)  # type: ignore[arg-type]  # the same kind as the job's
                if chunk_records is not None:
                    records += chunk_records
                if progress is not None:
                    progress.advance(part.games)
            results.append((tally, records, time.perf_counter() - began))
    return results


def run(
    configs: Sequence[SimConfig],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Progress | None = None,
    keep_records: bool = True,
    on_compile: Callable[[], None] | None = None,
) -> list[ConfigResult]:
    """Play ``games`` games of every configuration (one after the other, on the same deals).

    ``workers == 1`` plays in this process; more start a process pool. Results are the same
    for any ``workers``; only ``seconds`` differs. Every result has the tally of its games;
    ``keep_records=False`` leaves its ``records`` empty, which saves building a record per game
    (the summary needs only the tally). ``on_compile`` is called when the compiled kernel
    really compiles (a fresh machine: about 15 s), before the first game. For Tsung Shap use
    :func:`run_fishing`.
    """
    _check_run(games, workers)
    for config in configs:
        if config.rules.game is Game.TSUNG_SHAP:
            raise SimError("Tsung Shap games are simulated with run_fishing")
        check_levels(config.levels)
    job = _Job(tuple(configs), seed, fishing=False, records=keep_records)
    played = _run_all(job, games, workers, progress, on_compile)
    return [
        ConfigResult(
            config, cast(tuple[GameRecord, ...], tuple(records)), seconds, cast(GameTally, tally)
        )
        for config, (tally, records, seconds) in zip(configs, played, strict=True)
    ]


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
    deals; like :func:`run`, the figures do not depend on ``workers``, ``keep_records=False``
    keeps only the tallies, and ``on_compile`` is called when a master's kernel compiles."""
    _check_run(games, workers)
    for _variant, config in configs:
        if config.rules.game is not Game.TSUNG_SHAP:
            raise SimError(f"run_fishing plays Tsung Shap, not {config.rules.game}")
        check_levels(config.levels, Game.TSUNG_SHAP)
    job = _Job(tuple(config for _, config in configs), seed, fishing=True, records=keep_records)
    played = _run_all(job, games, workers, progress, on_compile)
    return [
        FishingConfigResult(
            config,
            variant,
            cast(tuple[FishingRecord, ...], tuple(records)),
            seconds,
            cast(FishingTally, tally),
        )
        for (variant, config), (tally, records, seconds) in zip(configs, played, strict=True)
    ]
