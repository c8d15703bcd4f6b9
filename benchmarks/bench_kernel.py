"""The compiled kernel against the pure-Python fast path: games per second side by side.

For each configuration ((a) Kap Shap Culin, (b) Kap Shap Classic, (c) Kap Tai Shap 10 players
4 sets Culin, (d) the same Classic; greedy on every seat, then (e) Kap Shap Culin expert vs
greedy) it times, in this one run and interleaved so that the machine's load hits both alike:

* **old**: the simulator before the kernel, one process: game ``i`` dealt by
  ``make_deal(rules, random.Random(f"{seed}:{i}:deal"))`` and played by
  ``bot.sim.play.play_game`` (the pure-Python fast path) with ``random.Random(f"{seed}:{i}:ai")``;
* **new**: ``bot.sim.runner.run(..., workers=1)``, which deals and plays in the kernel;
* **new x2**: the same with ``workers=2`` (a process pool; the kernel is compiled or loaded once
  before the workers fork).

Each figure is the median of ``--repeat`` rounds. The compile time of the kernel is measured in
fresh processes: once with an empty numba cache directory (cold: the first call on a fresh
machine) and once more with that directory filled (warm: every later process).

    .venv/bin/python benchmarks/bench_kernel.py               # about two minutes
    .venv/bin/python benchmarks/bench_kernel.py --scale 0.3 --repeat 1 --configs a c
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import RuleSet, make_deal, make_rules
from bot.sim import kernel
from bot.sim.play import play_game
from bot.sim.runner import SimConfig, run


@dataclass(frozen=True)
class Config:
    """One timed configuration."""

    key: str
    title: str
    rules: RuleSet
    levels: tuple[str, ...]
    old_games: int  # games timed on the old path at --scale 1
    new_games: int  # games timed in the kernel at --scale 1


def _configs() -> tuple[Config, ...]:
    shap = make_rules("kap-shap", 2, "culin")
    classic = make_rules("kap-shap", 2, "classic")
    big = make_rules("kap-tai-shap", 10, "culin", sets=4)
    big_classic = make_rules("kap-tai-shap", 10, "classic", sets=4)
    return (
        Config("a", "Kap Shap, Culin", shap, ("greedy",) * 2, 6_000, 60_000),
        Config("b", "Kap Shap, Classic", classic, ("greedy",) * 2, 6_000, 60_000),
        Config(
            "c", "Kap Tai Shap, 10 players, 4 sets, Culin", big, ("greedy",) * 10, 1_500, 15_000
        ),
        Config(
            "d",
            "Kap Tai Shap, 10 players, 4 sets, Classic",
            big_classic,
            ("greedy",) * 10,
            1_500,
            15_000,
        ),
        Config("e", "Kap Shap, Culin, expert vs greedy", shap, ("expert", "greedy"), 3_000, 30_000),
    )


def old_path(config: Config, seed: int, games: int) -> float:
    """Games per second of the simulator as it was before the kernel (one process)."""
    rules, levels = config.rules, config.levels
    began = time.perf_counter()
    for index in range(games):
        deal = make_deal(rules, random.Random(f"{seed}:{index}:deal"))
        play_game(rules, deal, levels, random.Random(f"{seed}:{index}:ai"))
    return games / (time.perf_counter() - began)


def new_path(config: Config, seed: int, games: int, workers: int) -> float:
    """Games per second of ``bot.sim.runner.run`` with the kernel."""
    result = run([SimConfig(config.rules, config.levels)], games, seed, workers=workers)[0]
    return result.games_per_second


def compile_seconds(cache_dir: str) -> float:
    """Seconds a fresh process spends in its first kernel call, with this numba cache dir."""
    code = (
        "import time; from bot.sim import kernel; t = time.perf_counter(); "
        "kernel.compile_kernel(); print(time.perf_counter() - t)"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    root = str(Path(__file__).resolve().parent.parent)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def main() -> None:
    """Time every chosen configuration and print old and new games/s side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per figure (median)")
    parser.add_argument("--configs", nargs="*", default=None, help="keys of the configurations")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-compile", action="store_true", help="skip the compile timing")
    args = parser.parse_args()
    if not kernel.available():
        sys.exit("the kernel is not available here: pip install '.[sim]' (and KAPSHAP_KERNEL!=0)")

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as cache:
            cold = compile_seconds(cache)
            warm = compile_seconds(cache)
        print(f"kernel first call: {cold:.1f} s compiling (cold cache), {warm:.2f} s (warm cache)")
    kernel.compile_kernel()

    chosen = [c for c in _configs() if args.configs is None or c.key in args.configs]
    header = f"{'config':<44} {'old/s':>8} {'new/s':>8} {'new÷old':>8} {'new x2/s':>9} {'x2÷x1':>6}"
    print(header)
    for config in chosen:
        old_n = max(1, int(config.old_games * args.scale))
        new_n = max(1, int(config.new_games * args.scale))
        old, new, two = [], [], []
        for round_no in range(args.repeat):
            seed = args.seed + round_no
            old.append(old_path(config, seed, old_n))
            new.append(new_path(config, seed, new_n, 1))
            two.append(new_path(config, seed, new_n, 2))
        o, n, t = statistics.median(old), statistics.median(new), statistics.median(two)
        print(f"{config.key}) {config.title:<41} {o:>8,.0f} {n:>8,.0f} {n / o:>8.1f} {t:>9,.0f} "
              f"{t / n:>6.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
