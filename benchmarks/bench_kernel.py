"""The compiled kernel against the pure-Python fast path: games per second side by side.

For each configuration ((a) Kap Shap Culin, (b) Kap Shap Classic, (c) Kap Tai Shap 10 players
4 sets Culin, (d) the same Classic; greedy on every seat, then (e) Kap Shap Culin expert vs
greedy) it times, in this one run and interleaved so that the machine's load hits both alike:

* **old**: the simulator before the kernel, one process: game ``i`` dealt by
  ``make_deal(rules, random.Random(f"{seed}:{i}:deal"))`` and played by
  ``bot.sim.play.play_game`` (the pure-Python fast path) with ``random.Random(f"{seed}:{i}:ai")``;
* **new**: what ``kapshap sim`` does without ``--csv``: ``bot.sim.runner.run(...,
  workers=1, keep_records=False)``, which deals, plays and tallies in the kernel, then the
  summary of the tally; timed as a whole (wall clock);
* **new x2**: the same with ``workers=2`` (worker processes forked once the kernel is compiled
  or loaded; each sends back a tally per chunk, the parent only merges).

Each figure is the median of ``--repeat`` rounds. The compile time of the kernel is measured in
fresh processes: once with an empty numba cache directory (cold: the first call on a fresh
machine) and once more with that directory filled (warm: every later process).

``--workers-only`` times just new (1 worker) against new x2, interleaved, and adds the CPU
seconds of the parent process and of the two workers during the two-worker runs: the parent's
share shows whether it is the bottleneck, whatever else loads the machine. ``--records`` keeps
every game's record as ``kapshap sim --csv`` does.

    .venv/bin/python benchmarks/bench_kernel.py               # about two minutes
    .venv/bin/python benchmarks/bench_kernel.py --scale 0.3 --repeat 1 --configs a c
    .venv/bin/python benchmarks/bench_kernel.py --workers-only  # a-e, about a minute
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import RuleSet, make_deal, make_rules
from bot.games.collecting.sim import kernel
from bot.games.collecting.sim.play import play_game
from bot.sim.runner import SimConfig, run
from bot.sim.stats import summarize_tally


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


@dataclass(frozen=True)
class Timing:
    """One timed run of the new path."""

    games_per_second: float
    parent_cpu: float  # CPU seconds of this process (user + system) during the run
    workers_cpu: float  # CPU seconds of the worker processes


def timed_run(config: Config, seed: int, games: int, workers: int, records: bool) -> Timing:
    """``bot.sim.runner.run`` with the kernel and the summary, as ``kapshap sim`` does them."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time()
    began = time.perf_counter()
    result = run(
        [SimConfig(config.rules, config.levels)], games, seed, workers, keep_records=records
    )[0]
    summarize_tally(result.tally)
    seconds = time.perf_counter() - began
    parent = time.process_time() - cpu
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # workers are reaped by run()
    spent = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    return Timing(games / seconds, parent, spent)


def new_path(config: Config, seed: int, games: int, workers: int) -> float:
    """Games per second of ``bot.sim.runner.run`` with the kernel (tallies only)."""
    return timed_run(config, seed, games, workers, records=False).games_per_second


def workers_only(chosen: list[Config], args: argparse.Namespace) -> None:
    """1 worker against 2, interleaved, with the parent's and the workers' CPU seconds."""
    print(f"{'config':<44} {'games':>7} {'1 w/s':>8} {'2 w/s':>8} {'2÷1':>5} "
          f"{'parent CPU':>10} {'workers CPU':>11} {'parent %':>8}")  # fmt: skip
    for config in chosen:
        games = max(1, int(config.new_games * args.scale))
        one, two = [], []
        for round_no in range(args.repeat):
            seed = args.seed + round_no
            one.append(timed_run(config, seed, games, 1, args.records))
            two.append(timed_run(config, seed, games, 2, args.records))
        o = statistics.median(t.games_per_second for t in one)
        t = statistics.median(t.games_per_second for t in two)
        parent = statistics.median(t.parent_cpu for t in two)
        workers = statistics.median(t.workers_cpu for t in two)
        share = parent / (parent + workers)
        print(f"{config.key}) {config.title:<41} {games:>7} {o:>8,.0f} {t:>8,.0f} {t / o:>5.2f} "
              f"{parent:>9.3f}s {workers:>10.2f}s {share:>8.1%}")  # fmt: skip


def compile_seconds(cache_dir: str) -> float:
    """Seconds a fresh process spends in its first kernel call, with this numba cache dir."""
    code = (
        "import time; from bot.games.collecting.sim import kernel; t = time.perf_counter(); "
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
    parser.add_argument(
        "--workers-only", action="store_true", help="only 1 against 2 workers, with CPU shares"
    )
    parser.add_argument(
        "--records", action="store_true", help="keep every record (as kapshap sim --csv)"
    )
    args = parser.parse_args()
    if not kernel.available():
        sys.exit("the kernel is not available here: pip install '.[sim]' (and KAPSHAP_KERNEL!=0)")

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f} at the start")  # fmt: skip
    chosen = [c for c in _configs() if args.configs is None or c.key in args.configs]
    if args.workers_only:
        kernel.compile_kernel()
        workers_only(chosen, args)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
        return
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as cache:
            cold = compile_seconds(cache)
            warm = compile_seconds(cache)
        print(f"kernel first call: {cold:.1f} s compiling (cold cache), {warm:.2f} s (warm cache)")
    kernel.compile_kernel()

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
