"""Time to review a whole Kap Shap game at the default rollout count (docs/benchmarks.md).

Plays ``--games`` Kap Shap games (greedy in seat 0, expert in seat 1; deal i from
``random.Random(f"1:{i}:deal")``), then reviews seat 0's decisions as ``/review`` does: every
decision one task of a process pool of ``--workers`` spawned processes (the pool is started and
warmed before the clock starts, as in the bot, where it lives as long as the bot).

    .venv/bin/python benchmarks/bench_review.py                 # 10 games, 200 play-outs, 2 workers
    .venv/bin/python benchmarks/bench_review.py --rollouts 400 --games 5
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.base import player_for
from bot.ai.review import DEFAULT_ROLLOUTS, decisions_of
from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.record import GameRecord, RecordSeat, write_record
from bot.services.replays import review_task


def game(i: int) -> GameRecord:
    rules = make_rules("kap-shap", 2)
    deal = make_deal(rules, random.Random(f"1:{i}:deal"))
    players = [player_for("kap-shap", "greedy"), player_for("kap-shap", "expert")]
    rng = random.Random(i)
    state = new_game(rules, ["greedy", "expert"], deal)
    actions: list[str] = []
    while state.result is None:
        seat = state.current
        action = players[seat].choose(view(state, seat), legal_actions(state), rng)
        state, _ = apply(state, action)
        actions.append(str(action))
    return GameRecord(rules, (RecordSeat("greedy"), RecordSeat("expert")), deal, tuple(actions))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
        warm = write_record(game(10_000))
        numbers = decisions_of(game(10_000), 0) or [1]
        list(pool.map(review_task, [warm] * 2, numbers[:1] * 2, [4, 4], [0, 0]))
        times: list[float] = []
        counts: list[int] = []
        ses: list[float] = []
        for i in range(args.games):
            record = game(i)
            text = write_record(record)
            numbers = decisions_of(record, 0)
            start = time.perf_counter()
            n = len(numbers)
            decisions = list(
                pool.map(review_task, [text] * n, numbers, [args.rollouts] * n, [0] * n)
            )
            times.append(time.perf_counter() - start)
            counts.append(n)
            ses += [d.after.se for d in decisions]
            print(f"game {i}: {len(record.actions)} actions, {n} decisions, {times[-1]:.2f} s")
    print(
        f"{args.games} games, {args.rollouts} play-outs, {args.workers} workers: "
        f"mean {statistics.mean(times):.2f} s, max {max(times):.2f} s per game; "
        f"{statistics.mean(counts):.1f} decisions per game; "
        f"standard error of a value: mean {statistics.mean(ses or [0]):.3f}, "
        f"max {max(ses or [0]):.3f}"
    )


if __name__ == "__main__":
    main()
