"""Our simulator against another one (a Java simulator, say) on one core, side by side in one run.

The other side is a command you supply, e.g. ``--java-cmd 'java -cp DIR Bench {config}
{games}'``: ``{config}`` becomes one of :data:`CONFIGS` and ``{games}`` the number of games to
play. It must play that many games of that configuration and exit; if it also prints a line
``warm games/s: X`` (games per CPU second once it has warmed up, e.g. after its JIT compiler
has), that rate is compared too. This repository holds no other simulator nor any recipe to
build one; docs/benchmarks.md says what was measured with which.

Our side is ``kapshap sim`` as a user runs it (``--workers 1``, greedy on every seat), timed as
a whole process, and this script again with ``--our-side``, which plays half the games to warm
up (the kernel loaded from numba's disk cache, the memos filled) and prints the rate of the
other half the same way. ``--python-path`` adds our pure-Python path (``KAPSHAP_KERNEL=0``).

Every process is pinned to one core (``taskset -c 0`` when it exists) and timed by its own CPU
seconds (user + system, ``getrusage`` of the finished child), which a shared, noisy machine
disturbs far less than the wall clock (printed too). Each repetition runs every side of every
configuration in turn, alternating which side goes first, and the ratios are taken pair by pair
within a repetition; the summary gives their minimum, median and maximum.

    .venv/bin/python benchmarks/bench_vs_java.py --java-cmd 'java -cp DIR Driver {config} \\
        {games}' --configs ks-culin kts10-culin --repeat 5 --python-path
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Config:
    """A configuration both sides play, and how many games make a process of a few seconds."""

    game: str
    players: int
    sets: int
    rule_set: str
    java_games: int
    kernel_games: int
    python_games: int

    @property
    def sim_args(self) -> list[str]:
        """The same configuration as ``kapshap sim`` options (greedy on every seat)."""
        return [
            *("--game", self.game, "--players", str(self.players), "--sets", str(self.sets)),
            *("--rules", self.rule_set, "--ai", "greedy"),
        ]


CONFIGS: dict[str, Config] = {
    "ks-culin": Config("kap-shap", 2, 1, "culin", 25_000, 200_000, 30_000),
    "ks-classic": Config("kap-shap", 2, 1, "classic", 25_000, 200_000, 30_000),
    "kts10-culin": Config("kap-tai-shap", 10, 4, "culin", 5_000, 100_000, 8_000),
    "kts10-classic": Config("kap-tai-shap", 10, 4, "classic", 5_000, 100_000, 8_000),
}
"""Kap Shap (2 players, 1 set) and Kap Tai Shap (10 players, 4 sets), Culin's or the classic
rules."""

WARM = re.compile(r"^warm games/s: ([0-9.]+)\s*$", re.M)


@dataclass(frozen=True)
class Timed:
    """One process: games played, its CPU and wall seconds, and its own warmed-up rate."""

    games: int
    cpu: float
    wall: float
    warm: float | None

    @property
    def rate(self) -> float:
        """Games per CPU second of the whole process (start-up included)."""
        return self.games / self.cpu


def _pinned(command: list[str], pin: bool) -> list[str]:
    if pin and shutil.which("taskset") and command[0] != "taskset":
        return ["taskset", "-c", "0", *command]
    return command


def _time(command: list[str], games: int, env: dict[str, str] | None = None) -> Timed:
    """Run one process to its end; its CPU seconds (all its threads) and its output's rate."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{shlex.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    found = WARM.search(done.stdout)
    return Timed(games, cpu, wall, float(found.group(1)) if found else None)


def _ours(key: str, games: int, python_path: bool, pin: bool) -> list[Timed]:
    """``kapshap sim`` as a whole process, then this script's warmed-up measure."""
    env = dict(os.environ, KAPSHAP_KERNEL="0" if python_path else "1")
    sim = [sys.executable, "-m", "bot", "sim", *CONFIGS[key].sim_args]
    whole = _time(
        _pinned([*sim, "--games", str(games), "--workers", "1", "--no-progress", "--json"], pin),
        games,
        env,
    )
    warm = _time(
        _pinned([sys.executable, __file__, "--our-side", key, str(games)], pin),
        games,
        env,
    )
    return [whole, warm]


def _measure(side: str, key: str, java_cmd: str, scale: float, pin: bool) -> list[Timed]:
    """One side of one configuration: the other simulator's process, or our two."""
    config = CONFIGS[key]
    if side == "java":
        games = max(1, round(config.java_games * scale))
        command = shlex.split(java_cmd.format(config=key, games=games))
        return [_time(_pinned(command, pin), games)]
    games = round((config.kernel_games if side == "kernel" else config.python_games) * scale)
    return _ours(key, max(2, games), side == "python", pin)


def our_side(argv: list[str]) -> int:
    """``--our-side CONFIG GAMES``: half the games to warm up, then the other half timed by
    this process's CPU clock, as ``kapshap sim --workers 1`` plays them; prints
    ``warm games/s: X``."""
    sys.path.insert(0, str(ROOT))
    from bot.engine import make_rules
    from bot.sim.runner import SimConfig, run

    key, games_text = argv
    config = CONFIGS[key]
    rules = make_rules(config.game, config.players, config.rule_set, sets=config.sets)
    configs = [SimConfig(rules, ("greedy",) * config.players)]
    games = int(games_text)
    warm = games // 2
    run(configs, warm, 1, workers=1, keep_records=False)
    began = time.process_time()
    run(configs, games - warm, 2, workers=1, keep_records=False)
    print(f"warm games/s: {(games - warm) / (time.process_time() - began):.1f}")
    return 0


def _summary(name: str, ratios: list[float]) -> str:
    low, mid, high = min(ratios), statistics.median(ratios), max(ratios)
    return f"{name}: min {low:.2f}, median {mid:.2f}, max {high:.2f} ({len(ratios)} pairs)"


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run every pair, print each pair and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--java-cmd", help="the other side: a command with {config} and {games}")
    parser.add_argument("--configs", nargs="+", choices=list(CONFIGS), default=["ks-culin"])
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (default 5)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--python-path", action="store_true", help="also our pure-Python path")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parser.add_argument("--json", type=Path, help="also write every measurement to this file")
    if argv is None and sys.argv[1:2] == ["--our-side"]:
        return our_side(sys.argv[2:])
    args = parser.parse_args(argv)
    if not args.java_cmd:
        parser.error("--java-cmd is required (the command of the other side)")
    pin = not args.no_pin
    pinned = pin and shutil.which("taskset") is not None
    rows: list[dict[str, object]] = []
    ratios: dict[str, list[float]] = {}
    print(f"python {sys.version.split()[0]}; pinned to core 0: {pinned}")
    sides = ["java", "kernel", *(["python"] if args.python_path else [])]
    for rep in range(args.repeat):
        for key in args.configs:
            # Alternate which side goes first: a drift in the machine's load hits both alike.
            order = sides if rep % 2 == 0 else sides[::-1]
            timed = {side: _measure(side, key, args.java_cmd, args.scale, pin) for side in order}
            [other] = timed["java"]
            line = [f"rep {rep + 1} {key}: java {other.rate:,.0f}/s ({other.wall:.1f} s wall)"]
            if other.warm:
                line.append(f"warm {other.warm:,.0f}/s")
            rows.append({"rep": rep, "config": key, "side": "java", **other.__dict__})
            for side in sides[1:]:
                whole, warm = timed[side]
                process = whole.rate / other.rate
                ratios.setdefault(f"{key} {side} / java, whole processes", []).append(process)
                line.append(f"{side} {whole.rate:,.0f}/s ({whole.wall:.1f} s wall) {process:.2f}x")
                if warm.warm and other.warm:
                    warmed = warm.warm / other.warm
                    ratios.setdefault(f"{key} {side} / java, warmed up", []).append(warmed)
                    line.append(f"warm {warm.warm:,.0f}/s {warmed:.2f}x")
                rows.append({"rep": rep, "config": key, "side": side, **whole.__dict__})
                rows.append({"rep": rep, "config": key, "side": f"{side} warm", **warm.__dict__})
            print("; ".join(line), flush=True)
    print()
    for name, values in ratios.items():
        print(_summary(name, values))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
