"""Simulator throughput: games per second with ``greedy`` on every seat.

Four configurations: (a) Kap Shap, Culin; (b) Kap Shap, Classic; (c) Kap Tai Shap, 10 players,
4 sets, Culin; (d) the same, Classic. Each is timed in one process and then with every CPU core
(a ``multiprocessing`` pool). Games go through ``bot.sim.play.play_game`` (the simulator's entry
point, which takes the fast path). Game ``i`` is dealt from ``random.Random(f"{seed}:{i}:deal")``
and its players draw from ``random.Random(f"{seed}:{i}:ai")``, as in ``bot.sim.runner``; dealing
is part of the timed work. Each worker starts with empty memo tables, and the time to fill them
is part of the figure (workers are spawned, so they do not inherit warm tables).

    .venv/bin/python benchmarks/bench_sim.py            # defaults: about a minute
    .venv/bin/python benchmarks/bench_sim.py --scale 0.2 --configs a c
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import RuleSet, make_deal, make_rules
from bot.games.collecting.sim.play import play_game
from bot.sim.record import GameRecord


@dataclass(frozen=True)
class Config:
    """One timed configuration."""

    key: str
    title: str
    rules: RuleSet
    single_games: int  # games timed in one process at --scale 1
    pool_games: int  # games timed with every worker at --scale 1


CONFIGS = (
    Config("a", "Kap Shap, Culin", make_rules("kap-shap", 2, "culin"), 40_000, 160_000),
    Config("b", "Kap Shap, Classic", make_rules("kap-shap", 2, "classic"), 40_000, 160_000),
    Config(
        "c",
        "Kap Tai Shap, 10 players, 4 sets, Culin",
        make_rules("kap-tai-shap", 10, "culin", sets=4),
        8_000,
        40_000,
    ),
    Config(
        "d",
        "Kap Tai Shap, 10 players, 4 sets, Classic",
        make_rules("kap-tai-shap", 10, "classic", sets=4),
        8_000,
        40_000,
    ),
)


def play_range(rules: RuleSet, seed: int, start: int, stop: int) -> list[GameRecord]:
    """Games ``start .. stop-1``, greedy on every seat."""
    levels = ["greedy"] * rules.players
    out = []
    for index in range(start, stop):
        deal = make_deal(rules, random.Random(f"{seed}:{index}:deal"))
        out.append(play_game(rules, deal, levels, random.Random(f"{seed}:{index}:ai")))
    return out


def _task(task: tuple[RuleSet, int, int, int]) -> list[GameRecord]:
    rules, seed, start, stop = task
    return play_range(rules, seed, start, stop)


def timed(rules: RuleSet, games: int, seed: int, workers: int) -> tuple[float, list[GameRecord]]:
    """Wall-clock seconds and records of ``games`` games on ``workers`` processes."""
    if workers == 1:
        began = time.perf_counter()
        records = play_range(rules, seed, 0, games)
        return time.perf_counter() - began, records
    size = max(1, min(2_000, math.ceil(games / (workers * 8))))
    tasks = [(rules, seed, start, min(start + size, games)) for start in range(0, games, size)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        pool.map(_task, [(rules, seed, 0, 0)] * workers)  # start every worker before timing
        began = time.perf_counter()
        records = [r for chunk in pool.imap(_task, tasks) for r in chunk]
        return time.perf_counter() - began, records


def summary(records: list[GameRecord]) -> str:
    """A one-line sanity check of the games played."""
    reasons = Counter(r.reason for r in records)
    turns = sum(r.turns for r in records) / len(records)
    declared = 100 * reasons["declared"] / len(records)
    return f"{declared:.1f} % won, mean {turns:.2f} turns"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per configuration and worker count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--configs",
        nargs="+",
        default=[c.key for c in CONFIGS],
        choices=[c.key for c in CONFIGS],
        help="which configurations (a b c d)",
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply every game count by this (default 1)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=len(os.sched_getaffinity(0)),
        help="processes for the all-workers run (default: every core)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--single-only", action="store_true", help="skip the all-workers run")
    args = parser.parse_args(argv)  # fmt: skip

    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, workers {args.workers}")
    for config in CONFIGS:
        if config.key not in args.configs:
            continue
        runs = [(1, config.single_games)]
        if not args.single_only and args.workers > 1:
            runs.append((args.workers, config.pool_games))
        for workers, games in runs:
            games = max(1, round(games * args.scale))
            seconds, records = timed(config.rules, games, args.seed, workers)
            print(
                f"({config.key}) {config.title:42s} workers {workers}: {games:7d} games in "
                f"{seconds:6.2f} s = {games / seconds:8.0f} games/s  [{summary(records)}]",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
