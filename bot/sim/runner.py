"""Running many games: deterministic seeding, worker processes, tallies and records.

The runner is blind to the games: each configuration's game names the family that plays it,
and the family's sim facet (:func:`bot.sim.family.sim_of`; :mod:`bot.sim.generic` for a family
without one) deals and plays a chunk of games, tallies it and compiles what it needs before the
workers fork. The runner only cuts a run into chunks, hands them to the workers and merges what
comes back.

Determinism. Game ``i`` of a run with seed ``s`` is dealt from the run's seed and ``i`` only
(the domino families from the splitmix64 stream keyed by
:func:`bot.games.dominoes.sim.seeding.deal_key`
``(s, i)``, which the compiled kernel reproduces exactly), and its AI players draw from
:func:`ai_rng` ``(s, i)``, ``random.Random(f"{s}:{i}:ai")``. Nothing else feeds randomness into
a game, so its outcome depends on (configuration, seed, i) only, not on which worker played it
nor on what that worker played before. Workers (:mod:`bot.sim.workers`) play chunks of
consecutive game indices and send back each chunk's tally (integer counts and sums, which merge
exactly in any order), plus its records only when the caller keeps them (reassembled in index
order). So every figure is identical whatever ``workers`` is, and the parent process, which only
merges, stays nearly idle while the workers play. String seeds are hashed with SHA-512 by
:class:`random.Random`, which is stable across Python versions and unaffected by
``PYTHONHASHSEED``.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.sim.config import (
    MAX_CHUNK,
    ConfigResult,
    SimConfig,
    SimError,
    ai_rng,
    check_levels,
    known_levels,
)
from bot.sim.family import GameSim, sim_of
from bot.sim.generic import FACET as GENERIC
from bot.sim.workers import Workers

if TYPE_CHECKING:
    from bot.sim.family import Tally

__all__ = [
    "MAX_CHUNK",
    "ConfigResult",
    "Progress",
    "SimConfig",
    "SimError",
    "ai_rng",
    "check_levels",
    "default_workers",
    "facet_for",
    "known_levels",
    "run",
]


class Progress(Protocol):
    """What :func:`run` reports its progress to (the CLI shows a tqdm bar)."""

    def start(self, total: int) -> None:
        """Called once, before the first game, with the number of games of the whole run."""

    def advance(self, games: int) -> None:
        """Called whenever ``games`` more games are finished."""


def facet_for(game: str) -> GameSim:
    """The sim facet that plays ``game``: its family's, or the generic fallback's
    (:mod:`bot.sim.generic`) when the family gives none (UnknownGame for an unknown name)."""
    facet = sim_of(game)
    return GENERIC if facet is None else facet


def default_workers() -> int:
    """The number of CPU cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True, slots=True)
class _Job:
    """What a run plays: every worker process holds it (inherited, or pickled once)."""

    configs: tuple[SimConfig, ...]
    seed: int
    records: bool  # whether the caller wants every game's record, not only the tally


_Chunk = tuple["Tally", Sequence[Any] | None]


def _play(job: _Job, task: tuple[int, int, int]) -> _Chunk:
    """The tally of games ``start .. stop-1`` of configuration ``which`` (task: ``which, start,
    stop``), and their records if the job keeps them: what a worker sends back, a few hundred
    bytes without records. Module level so that it pickles by name under spawn too."""
    which, start, stop = task
    config = job.configs[which]
    return facet_for(config.game).play_chunk(config, job.seed, start, stop, job.records)


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


def _prepare(job: _Job, on_compile: Callable[[], None] | None) -> int:
    """Let each family compile what the job runs (or load it from the disk cache) once, before
    the workers fork, so that they inherit it; ``on_compile`` is called if anything really
    compiles. The chunk cap: the smallest any family allows."""
    from bot.ai.warm import announcing

    by_game: dict[str, list[SimConfig]] = {}
    for config in job.configs:
        by_game.setdefault(config.game, []).append(config)
    cap = MAX_CHUNK
    with announcing(on_compile or (lambda: None)):
        caps = [facet_for(game).prepare(configs) for game, configs in by_game.items()]
    if caps:
        cap = min(caps)
    return cap


def _run_all(
    job: _Job,
    games: int,
    workers: int,
    progress: Progress | None,
    on_compile: Callable[[], None] | None = None,
) -> list[tuple[Tally, list[Any], float]]:
    """Play every configuration of ``job``: for each its merged tally, its records in game
    order (empty unless the job keeps them) and the seconds it took."""
    chunks = _chunks(games, workers, _prepare(job, on_compile))
    workers = min(workers, len(chunks))
    results: list[tuple[Tally, list[Any], float]] = []
    with contextlib.ExitStack() as stack:
        # Started before the progress bar so that no thread exists when workers fork.
        pool = stack.enter_context(Workers(workers, _play, job)) if workers > 1 else None
        if progress is not None:
            progress.start(games * len(job.configs))
        for which, config in enumerate(job.configs):
            began = time.perf_counter()
            tally = facet_for(config.game).new_tally(config)
            records: list[Any] = []
            tasks = [(which, start, stop) for start, stop in chunks]
            # Results come in task order: records in game order. Tallies merge exactly in any
            # order (integers), this one included.
            played = pool.map(tasks) if pool is not None else (_play(job, t) for t in tasks)
            for part, chunk_records in played:
                tally.merge(part)
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
    labels: Sequence[str] | None = None,
) -> list[ConfigResult]:
    """Play ``games`` games of every configuration (one after the other, on the same deals).

    ``workers == 1`` plays in this process; more start a process pool. Results are the same
    for any ``workers``; only ``seconds`` differs. Every result has the tally of its games;
    ``keep_records=False`` leaves its ``records`` empty, which saves building a record per game
    (the summary needs only the tally). ``on_compile`` is called when a compiled kernel really
    compiles (a fresh machine: about 15 s), before the first game. ``labels`` name the
    configurations (one each) in the results.
    """
    _check_run(games, workers)
    if labels is not None and len(labels) != len(configs):
        raise SimError(f"{len(labels)} labels given for {len(configs)} configurations")
    for config in configs:
        check_levels(config.levels, config.game)
    job = _Job(tuple(configs), seed, records=keep_records)
    played = _run_all(job, games, workers, progress, on_compile)
    names = [""] * len(configs) if labels is None else list(labels)
    return [
        ConfigResult(config, tuple(records), seconds, tally, label)
        for config, label, (tally, records, seconds) in zip(configs, names, played, strict=True)
    ]
