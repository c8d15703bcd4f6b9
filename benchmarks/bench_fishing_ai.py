"""Tsung Shap AI strength: one level against another over seat-swapped games.

    .venv/bin/python benchmarks/bench_fishing_ai.py [--games 20000] [--seed 0]
        [--a expert] [--b greedy] [--rule flag=value ...] [--jobs 2]

Deal ``i`` comes from ``random.Random(f"{seed}:{i}")`` (``make_deal``, thrower seat 0) and is
played twice, once with ``--a`` in seat 0 and once with it in seat 1, through the public engine
API (``new_game`` / ``legal_actions`` / ``apply`` / ``view``); ``--games`` counts both. The
players' tie-breaks use ``random.Random(f"{seed}:{i}:{seating}:ai")``.

Prints A's wins, draws and losses, its score (a win 1, a draw 1/2) with a 95 % interval, and the
mean points. The interval is computed over deals (the two games of a deal are not independent).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bot.engine import (
    RuleSet,
    apply,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    view,
    with_flag,
)
from bot.games.fishing.ai.levels import fishing_player


def play(
    rules: RuleSet, seed: int, deal_no: int, seat_of_a: int, a: str, b: str
) -> tuple[float, int]:
    """One game; returns A's result (1, 1/2, 0) and A's points minus B's."""
    deal = make_deal(rules, random.Random(f"{seed}:{deal_no}"))
    rng = random.Random(f"{seed}:{deal_no}:{seat_of_a}:ai")
    players = [fishing_player(a), fishing_player(b)]
    if seat_of_a == 1:
        players.reverse()
    state = new_game(rules, ["seat 0", "seat 1"], deal)
    while state.result is None:
        seat = state.current
        action = players[seat].choose(view(state, seat), legal_actions(state), rng)
        state, _ = apply(state, action)
    result = state.result
    margin = result.scores[seat_of_a] - result.scores[1 - seat_of_a]
    if result.winner is None:
        return 0.5, margin
    return (1.0 if result.winner == seat_of_a else 0.0), margin


def play_deals(args: tuple[RuleSet, int, int, int, str, str]) -> list[tuple[float, float, int]]:
    """Deals ``start .. stop-1`` in both seatings: per deal, A's two results and margin."""
    rules, seed, start, stop, a, b = args
    out = []
    for i in range(start, stop):
        r0, m0 = play(rules, seed, i, 0, a, b)
        r1, m1 = play(rules, seed, i, 1, a, b)
        out.append((r0, r1, m0 + m1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="greedy")
    parser.add_argument("--rule", action="append", default=[], metavar="FLAG=VALUE")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rules = make_rules("tsung-shap")
    for item in args.rule:
        name, _, value = item.partition("=")
        rules = with_flag(rules, name.strip(), value.strip())
    deals = max(1, args.games // 2)
    chunk = max(1, math.ceil(deals / (args.jobs * 8)))
    tasks = [
        (rules, args.seed, start, min(deals, start + chunk), args.a, args.b)
        for start in range(0, deals, chunk)
    ]
    began = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = [row for part in pool.map(play_deals, tasks) for row in part]
    else:
        results = [row for task in tasks for row in play_deals(task)]
    elapsed = time.perf_counter() - began
    games = 2 * len(results)
    singles = [r for r0, r1, _ in results for r in (r0, r1)]
    wins = sum(1 for r in singles if r == 1.0)
    draws = sum(1 for r in singles if r == 0.5)
    losses = games - wins - draws
    per_deal = [(r0 + r1) / 2 for r0, r1, _ in results]
    mean = sum(per_deal) / len(per_deal)
    var = sum((x - mean) ** 2 for x in per_deal) / max(1, len(per_deal) - 1)
    half = 1.96 * math.sqrt(var / len(per_deal))
    margin = sum(m for _, _, m in results) / games
    print(f"rules: {rules.describe()}")
    print(
        f"{args.a} vs {args.b}: {games} games ({len(results)} deals x 2 seatings), seed {args.seed}"
    )
    print(f"  {args.a} wins {wins}, draws {draws}, losses {losses}")
    print(
        f"  {args.a} score {100 * mean:.2f} % (95 % interval {100 * (mean - half):.2f} - "
        f"{100 * (mean + half):.2f} %), mean margin {margin:+.1f} points"
    )
    print(f"  {elapsed:.1f} s ({1000 * elapsed / games:.2f} ms per game, {args.jobs} jobs)")


if __name__ == "__main__":
    main()
