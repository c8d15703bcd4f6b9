"""Reviews of the three games: whole-review time, and how far the verdicts can be trusted
(docs/benchmarks.md, "Reviews").

The games: Kap Shap (Culin; greedy in seat 0 against the expert), Kap Tai Shap at 6 seats
(Classic; greedy and expert alternating, greedy in seat 0) and Tsung Shap (greedy in seat 0
against the expert); game *i* of a kind is dealt from ``random.Random(f"1:{i}:deal")``. The
review is of seat 0, every decision with a real choice one task of a pool of ``--workers``
spawned processes (started and warmed, the compiled kernels loaded, before any clock starts),
as ``/review`` runs it.

**Time** (default): each game's review is run ``--repeat`` times (the same work: the seeds are
fixed), and for each decision the least CPU time of its runs is kept (measured in its worker
with ``time.process_time``), the one least disturbed by other jobs. Printed: the play-outs
spent (the same on any machine), the least wall-clock time from the first task submitted to
the last result, the CPU seconds of the decisions and, from those, the time the review would
take on ``--workers`` otherwise idle processes (each task in turn to the first one free): on a
machine shared with other jobs, the figures that depend least on the load.

**Quality** (``--quality``): for the decisions of ``--games`` games of each kind, the review at
the default budget with ``--seeds`` seeds (0, 1, …) and at ``--scale`` times the budget with
seed 1000 (the reference). Printed per game and in all:

* *best move agreement*: the share of (decision, seed) where the default budget's best move is
  the reference's (or an equivalent one);
* *cost of the chosen best move*: the reference's estimate of how much the default budget's
  best move trails the reference's best, in points, averaged (0 when they agree);
* *named verdicts that keep their word*: of the (decision, seed) named an inaccuracy, a mistake
  or a blunder, the share that every other seed names the same (``all``), and the share of
  (named run, other run) pairs that agree (``pairs``); and the same against the reference.

    .venv/bin/python benchmarks/bench_review.py                      # time, 10 games per kind
    .venv/bin/python benchmarks/bench_review.py --games 20
    .venv/bin/python benchmarks/bench_review.py --quality            # 20 decisions per kind
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.levels import player_for
from bot.ai.review import Decision, compiled, decisions_of, default_rollouts, review_decision
from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.record import GameRecord, RecordSeat, parse_record, write_record
from bot.services.replays import init_worker

KINDS: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "Kap Shap": ("kap-shap", 2, ("greedy", "expert")),
    "Kap Tai Shap, 6 seats": ("kap-tai-shap", 6, ("greedy", "expert")),
    "Tsung Shap": ("tsung-shap", 2, ("greedy", "expert")),
}


def game(kind: str, i: int) -> GameRecord:
    """Game ``i`` of a kind of :data:`KINDS`, played by its levels (seat 0 the first)."""
    name, players, levels = KINDS[kind]
    rules = make_rules(name, players)
    deal = make_deal(rules, random.Random(f"1:{i}:deal"))
    seats = [player_for(name, levels[s % len(levels)]) for s in range(players)]
    names = [f"{levels[s % len(levels)]} {s}" for s in range(players)]
    rng = random.Random(i)
    state = new_game(rules, names, deal)
    actions: list[str] = []
    while state.result is None:
        seat = state.current
        action = seats[seat].choose(view(state, seat), legal_actions(state), rng)
        state, _ = apply(state, action)
        actions.append(str(action))
    return GameRecord(rules, tuple(RecordSeat(n) for n in names), deal, tuple(actions))


def task(
    text: str, number: int, rollouts: int | None, seed: int, adaptive: bool = True
) -> tuple[Decision, float]:
    """One decision reviewed in a worker, and the CPU seconds it took there."""
    start = time.process_time()
    decision = review_decision(parse_record(text), number, rollouts, seed, adaptive=adaptive)
    return decision, time.process_time() - start


def warm(pool: ProcessPoolExecutor, workers: int) -> None:
    """Load the compiled kernels in every worker (compiling them once if need be)."""
    jobs = []
    for kind in KINDS:
        record = game(kind, 10_000)
        number = decisions_of(record, 0)[0]
        jobs += [pool.submit(task, write_record(record), number, 50, 0) for _ in range(workers)]
    for job in jobs:
        job.result()


def makespan(seconds: Sequence[float], workers: int) -> float:
    """How long tasks of these CPU seconds take on ``workers`` otherwise idle processes, each
    task (in order) to the first process free, as the pool hands them out: the review's wall
    time on an idle machine, whatever the load when it was measured."""
    free = [0.0] * workers
    for cost in seconds:
        free[free.index(min(free))] += cost
    return max(free, default=0.0)


def time_reviews(pool: ProcessPoolExecutor, games: int, workers: int, repeat: int) -> None:
    """Whole reviews of seat 0, one game after the other, each ``repeat`` times: the same work
    each time (the seeds are fixed), so the least time of each decision is the one least
    disturbed by other jobs."""
    for kind in KINDS:
        walls: list[float] = []
        cpus: list[float] = []
        spans: list[float] = []
        counts: list[int] = []
        spent: list[int] = []
        for i in range(games):
            record = game(kind, i)
            text = write_record(record)
            numbers = decisions_of(record, 0)
            n = len(numbers)
            least: list[float] = [float("inf")] * n
            wall = float("inf")
            for _ in range(repeat):
                start = time.perf_counter()
                results = list(pool.map(task, [text] * n, numbers, [None] * n, [0] * n))
                wall = min(wall, time.perf_counter() - start)
                least = [min(a, cpu) for a, (_, cpu) in zip(least, results, strict=True)]
            walls.append(wall)
            cpus.append(sum(least))
            spans.append(makespan(least, workers))
            counts.append(n)
            spent.append(sum(d.rollouts for d, _ in results))
            print(
                f"  {kind} game {i}: {len(record.actions)} actions, {n} decisions, "
                f"{spent[-1]:,} play-outs, {walls[-1]:.2f} s wall, {cpus[-1]:.2f} s CPU, "
                f"{spans[-1]:.2f} s on {workers} idle workers"
            )
        budget = default_rollouts(record.rules)
        print(
            f"{kind} (budget {budget:,} play-outs per decision): {statistics.mean(counts):.1f} "
            f"decisions and {statistics.mean(spent):,.0f} play-outs (max {max(spent):,}) per "
            f"game; wall mean {statistics.mean(walls):.2f} s, max {max(walls):.2f} s; CPU mean "
            f"{statistics.mean(cpus):.2f} s, max {max(cpus):.2f} s ("
            f"{sum(cpus) / max(sum(spent), 1) * 1e6:.0f} µs a play-out); on {workers} idle "
            f"workers mean {statistics.mean(spans):.2f} s, max {max(spans):.2f} s"
        )


def _same(a: Decision, b_best: str, b: Decision) -> bool:
    return a.best == b_best or a.best == b.best


def quality(pool: ProcessPoolExecutor, points_per_kind: int, seeds: int, scale: int) -> None:
    """The default budget against ``scale`` times it, and across seeds, on the first
    ``points_per_kind`` decisions of seat 0 in games 0, 1, … of each kind."""
    totals: dict[str, list[float]] = {"agree": [], "cost": [], "all": [], "pairs": [], "ref": []}
    points = 0
    for kind in KINDS:
        jobs = []
        i = 0
        while len(jobs) < points_per_kind:
            record = game(kind, i)
            text = write_record(record)
            budget = default_rollouts(record.rules)
            for number in decisions_of(record, 0)[: points_per_kind - len(jobs)]:
                runs = [pool.submit(task, text, number, None, s) for s in range(seeds)]
                ref = pool.submit(task, text, number, budget * scale, 1000, False)
                jobs.append((i, number, runs, ref))
            i += 1
        agree: list[float] = []
        cost: list[float] = []
        keep_all: list[float] = []
        keep_pairs: list[float] = []
        keep_ref: list[float] = []
        words: Counter[str] = Counter()
        for i, number, runs, ref_job in jobs:
            reference = ref_job.result()[0]
            decisions = [job.result()[0] for job in runs]
            for d in decisions:
                agree.append(1.0 if d.best == reference.best else 0.0)
                cost.append(_cost(d.best, reference))
            verdicts = [str(d.verdict) for d in decisions]
            for s, d in enumerate(decisions):
                if not d.named:
                    continue
                words[verdicts[s]] += 1
                others = [v for t, v in enumerate(verdicts) if t != s]
                keep_all.append(1.0 if all(v == verdicts[s] for v in others) else 0.0)
                keep_pairs += [1.0 if v == verdicts[s] else 0.0 for v in others]
                keep_ref.append(1.0 if str(reference.verdict) == verdicts[s] else 0.0)
            if len(set(verdicts)) > 1 or verdicts[0] != str(reference.verdict):
                print(f"    {kind} game {i} action {number}: {' '.join(verdicts)}; reference "
                      f"{reference.verdict} (loss {reference.loss * 100:.1f} ± "
                      f"{reference.loss_se * 100:.1f})")  # fmt: skip
        points += len(jobs)
        print(
            f"{kind}: {len(jobs)} decision points; best move agreement {_share(agree)}; cost of "
            f"the chosen best move {_points(cost)} points; named verdicts "
            f"({sum(words.values())}: {dict(words)}) keeping their word: all seeds "
            f"{_share(keep_all)}, pairs {_share(keep_pairs)}, with the reference {_share(keep_ref)}"
        )
        totals["agree"] += agree
        totals["cost"] += cost
        totals["all"] += keep_all
        totals["pairs"] += keep_pairs
        totals["ref"] += keep_ref
    print(
        f"All: {points} decision points; best move agreement {_share(totals['agree'])}; cost "
        f"{_points(totals['cost'])} points; named verdicts keeping their word: "
        f"all seeds {_share(totals['all'])}, pairs {_share(totals['pairs'])}, with the "
        f"reference {_share(totals['ref'])}"
    )


def _cost(action: str, reference: Decision) -> float:
    """How much ``action`` trails the reference's best move by the reference's estimates."""
    for option in reference.choices:
        if action == option.action or action in option.same_as:
            return max(option.loss, 0.0)
    return float("nan")


def _points(values: Sequence[float]) -> str:
    known = [v for v in values if v == v]
    return f"{statistics.mean(known) * 100:.2f}" if known else "-"


def _share(values: Sequence[float]) -> str:
    known = [v for v in values if v == v]
    if not known:
        return "-"
    return f"{statistics.mean(known):.1%} (of {len(known)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per kind (time)")
    parser.add_argument("--points", type=int, default=20, help="decisions per kind (quality)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="times each review is timed")
    parser.add_argument("--quality", action="store_true")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument(
        "--kinds", default="", help="only these kinds, by the start of their name: 'Kap Shap,Tsung'"
    )
    args = parser.parse_args()
    if args.kinds:
        wanted = [w.strip() for w in args.kinds.split(",")]
        for kind in list(KINDS):
            if not any(kind.startswith(w) for w in wanted):
                del KINDS[kind]
    print(
        f"compiled play-outs: {compiled('kap-shap')}/{compiled('tsung-shap')}; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start"
    )
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(args.workers, mp_context=context, initializer=init_worker) as pool:
        start = time.perf_counter()
        warm(pool, args.workers)
        print(f"workers started and kernels loaded in {time.perf_counter() - start:.1f} s")
        if args.quality:
            quality(pool, args.points, args.seeds, args.scale)
        else:
            time_reviews(pool, args.games, args.workers, args.repeat)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
