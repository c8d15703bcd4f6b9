"""Computer players: time per decision on a big table, and expert against greedy.

1. **Time per ``choose``.** A 20-player, 8-set Kap Tai Shap table under Culin is played by
   greedy seats that never declare (a winning hand discards on, so the game runs until the wall
   is nearly empty); every decision with a choice (more than one legal action) taken while at
   most ``--late`` tiles are left in the wall is kept as (view, legal actions). Each level then
   decides every kept state through its public ``choose`` (view in, action out: reading the
   view is part of the time), starting from empty memo tables (building the evaluator's fixed
   tables, once per process, is not counted). Prints mean, median and 99th percentile in ms.
2. **Expert against greedy** in two-player Kap Shap (Culin unless ``--duel-rules`` says
   otherwise): every deal is played twice,
   expert in seat 0 then in seat 1. Deal ``i`` comes from ``random.Random(f"{seed}:{i}:deal")``.
   Draws (the wall runs out) are counted apart: the win rate is given among decided games and
   among all games (a draw is then not a win), each with a 95 % confidence interval.

    .venv/bin/python benchmarks/bench_ai.py                 # both, about a minute
    .venv/bin/python benchmarks/bench_ai.py --duel-deals 0  # timing only
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import KINDS, RuleSet, apply, legal_actions, make_deal, make_rules, new_game, view
from bot.games.collecting.ai.core import evaluator_for, forget_evaluators
from bot.games.collecting.ai.greedy import best_discard
from bot.games.collecting.ai.knowledge import read_view
from bot.games.collecting.ai.levels import get_player
from bot.games.collecting.engine.actions import Action, Declare, Discard
from bot.games.collecting.engine.machine import View
from bot.games.collecting.sim.play import play_game


def late_states(
    rules: RuleSet, games: int, late: int, seed: int
) -> list[tuple[View, list[Action]]]:
    """Decision points with at most ``late`` tiles left in the wall, greedy seats playing on."""
    greedy = get_player("greedy")
    kept: list[tuple[View, list[Action]]] = []
    for game in range(games):
        rng = random.Random(f"{seed}:{game}:deal")
        state = new_game(rules, [f"s{i}" for i in range(rules.players)], make_deal(rules, rng))
        while state.result is None:
            legal = legal_actions(state)
            seat_view = view(state, state.current)
            if state.wall_size <= late and len(legal) > 1:
                kept.append((seat_view, legal))
            if Declare() in legal:  # a winning hand: play on with greedy's best discard
                seen = read_view(seat_view, legal)
                ev = evaluator_for(rules)
                kind = best_discard(ev, seen.hand, seen.unseen(), seen.just_taken)[2]
                action: Action = Discard(KINDS[kind])
            else:
                action = greedy.choose(seat_view, legal, rng)
            state, _ = apply(state, action)
    return kept


def time_choose(level: str, states: list[tuple[View, list[Action]]]) -> list[float]:
    """Milliseconds per ``choose`` over the states, from empty memo tables."""
    forget_evaluators()
    evaluator_for(states[0][0].rules)  # built once per process: not a decision's cost
    player = get_player(level)
    rng = random.Random(0)
    out = []
    for seat_view, legal in states:
        began = time.perf_counter_ns()
        action = player.choose(seat_view, legal, rng)
        out.append((time.perf_counter_ns() - began) / 1e6)
        assert action in legal
    return out


def _duel_task(task: tuple[str, int, int, int]) -> tuple[int, int, int, int, int]:
    """Games of deals ``start .. stop-1``: (expert wins as first, as second, losses, draws, n)."""
    rule_set, seed, start, stop = task
    rules = make_rules("kap-shap", 2, rule_set)
    first = second = losses = draws = 0
    for index in range(start, stop):
        deal = make_deal(rules, random.Random(f"{seed}:{index}:deal"))
        for expert_seat in (0, 1):
            levels = ["greedy", "greedy"]
            levels[expert_seat] = "expert"
            record = play_game(rules, deal, levels, random.Random(f"{seed}:{index}:ai"))
            if record.winner is None:
                draws += 1
            elif record.winner != expert_seat:
                losses += 1
            elif record.first_seat == expert_seat:
                first += 1
            else:
                second += 1
    return first, second, losses, draws, 2 * (stop - start)


def interval(wins: int, games: int) -> str:
    """Share with a 95 % Wilson interval, in percent."""
    if games == 0:
        return "n/a"
    z = 1.959964
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return f"{100 * p:.2f} % (95 % CI {100 * (centre - half):.2f} – {100 * (centre + half):.2f})"


def duel(rule_set: str, deals: int, seed: int, workers: int) -> None:
    """Expert against greedy, seats swapped, and print the result."""
    size = max(1, min(500, math.ceil(deals / (workers * 8))))
    tasks = [(rule_set, seed, start, min(start + size, deals)) for start in range(0, deals, size)]
    began = time.perf_counter()
    if workers == 1:
        results = [_duel_task(t) for t in tasks]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.map(_duel_task, tasks)
    seconds = time.perf_counter() - began
    first, second, losses, draws, games = (sum(r[i] for r in results) for i in range(5))
    wins = first + second
    decided = wins + losses
    print(f"expert vs greedy, Kap Shap {rule_set}: {deals} deals x 2 seatings = {games} games "
          f"({seconds:.1f} s, seed {seed})")  # fmt: skip
    print(f"  expert won {wins} (as first player {first}, as second {second}), "
          f"greedy won {losses}, drawn {draws} (wall exhausted)")  # fmt: skip
    print(f"  expert win rate among decided games: {interval(wins, decided)}")
    print(f"  expert win rate among all games:     {interval(wins, games)}")


def main(argv: list[str] | None = None) -> int:
    """Run the timing and the duel."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        type=int,
        default=3,
        help="20-player games played to collect late states (default 3)",
    )
    parser.add_argument(
        "--late",
        type=int,
        default=20,
        help="keep states with at most this many tiles in the wall (default 20)",
    )
    parser.add_argument(
        "--levels",
        nargs="*",
        default=["greedy", "expert"],
        help="levels to time (default: greedy expert)",
    )
    parser.add_argument(
        "--duel-deals",
        type=int,
        default=20_000,
        help="deals of expert against greedy, each played twice (default 20000; 0 skips the duel)",
    )
    parser.add_argument(
        "--duel-rules",
        default="culin",
        choices=["culin", "classic", "last-draw"],
        help="Kap Shap rule set of the duel (default culin)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=len(os.sched_getaffinity(0)),
        help="processes for the duel (default: every core)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    args = parser.parse_args(argv)

    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs")
    if args.levels:
        timing(args.games, args.late, args.levels, args.seed)
    if args.duel_deals > 0:
        duel(args.duel_rules, args.duel_deals, args.seed, args.workers)
    return 0


def timing(games: int, late: int, levels: list[str], seed: int) -> None:
    """Collect the late states of a big table and time every level on them."""
    rules = make_rules("kap-tai-shap", 20, "culin", 8)
    began = time.perf_counter()
    states = late_states(rules, games, late, seed)
    pools = [len(v.pool) for v, _ in states]
    print(f"{rules.describe()}: {len(states)} late decisions from {games} games "
          f"(wall <= {late}, {min(pools)}-{max(pools)} discards face up; "
          f"collected in {time.perf_counter() - began:.1f} s)")  # fmt: skip
    for level in levels:
        times = sorted(time_choose(level, states))
        p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
        mean, p50 = statistics.fmean(times), statistics.median(times)
        print(f"  {level:7s} ms per choose: mean {mean:.3f}  p50 {p50:.3f}  p99 {p99:.3f}  "
              f"max {times[-1]:.3f}")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
