"""Tsung Shap's master level against the expert, seat-swapped, and its ceiling.

    .venv/bin/python benchmarks/bench_fishing_master.py --deals 200 [--budget 2000]
        [--margin 2] [--oracle] [--jobs 2] [--seed 0]

Deal ``i`` is ``make_deal(rules, random.Random(f"fishing-master:{seed}:{i}"))``, played twice
with the master in seat 0 and then in seat 1 through the public engine API; the players draw
from ``random.Random(f"{seed}:{i}:{seat}")``. A draw counts half. The 95 % interval is computed
over deals (the two games of a deal are not independent). Every decision of the master is timed
(wall clock, so the figures depend on the load).

``--oracle`` measures the CEILING of the search, in this benchmark only (never at a table): the
master's play-outs are played on the true orders of both piles (perfect information; the
opponent's moves in them are the expert's, as at the table, but for its exact endgame), with
``--budget`` play-outs per candidate differing only in their tie-breaks, and it searches every
decision with two candidates or more, the endgame included.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.games.fishing.ai import kernel as fishing_kernel
from bot.games.fishing.ai.master import (
    MARGIN,
    POINTS,
    MasterFishingPlayer,
    action_number,
    kernel_play_outs,
    pick,
)
from bot.games.fishing.ai.players import ExpertFishingPlayer
from bot.games.fishing.engine import FishingPhase, FishingState, FishingView, pile_tiles
from bot.games.fishing.engine.actions import Capture, FishingAction, Place


class OracleMaster(MasterFishingPlayer):
    """The master with perfect information: its play-outs run on the true piles (benchmark
    only: ``state`` is set by the game loop before each decision)."""

    state: FishingState | None = None

    def choose(
        self, view: FishingView, legal: Sequence[FishingAction], rng: random.Random
    ) -> FishingAction:
        """The expert's move unless a play-out on the true orders finds a better one."""
        fallback = self._expert.choose(view, legal, rng)
        if view.phase is not FishingPhase.PLAY or view.turned is None:
            return fallback
        captures: list[Capture | Place] = [a for a in legal if isinstance(a, Capture)]
        candidates = captures or [a for a in legal if isinstance(a, Place)]
        if len(candidates) < 2 or fallback not in candidates:
            return fallback
        scores = self.play_outs(view, candidates, rng.getrandbits(64))
        return candidates[pick(scores, candidates.index(fallback), self.margin)]

    def play_outs(
        self, view: FishingView, candidates: Sequence[Capture | Place], seed: int
    ) -> list[list[float]]:
        """Every candidate played out on the true piles, ``budget`` times (tie-breaks)."""
        assert self.state is not None and view.turned is not None and view.seat is not None
        piles = [[t.index for t in pile_tiles(self.state, s)] for s in range(2)]
        deals = max(2, self.budget or 8)
        return kernel_play_outs(view, candidates, deals, seed, points=self.points, known=[piles])


def gaps(games: int, deals: int, seed: int) -> None:
    """What one step of search over the expert can gain: in expert-against-expert games, every
    decision the master would search is played out ``deals`` times per candidate (both seats
    the expert afterwards); prints how much the best candidate beats the expert's move by."""
    rules = make_rules("tsung-shap")
    expert = ExpertFishingPlayer()
    rng = random.Random(seed)
    gains: list[tuple[float, float]] = []
    for g in range(games):
        state = new_game(rules, ["a", "b"], make_deal(rules, random.Random(f"gaps:{seed}:{g}")))
        while state.result is None:
            v = view(state, state.current)
            legal = legal_actions(state)
            if state.phase is FishingPhase.PLAY and v.turned is not None and len(v.unseen) > 6:
                captures: list[Capture | Place] = [a for a in legal if isinstance(a, Capture)]
                candidates = captures or [a for a in legal if isinstance(a, Place)]
                mirrored = not captures and len(v.row) == 1
                if len(candidates) > 1 and not mirrored:
                    out = fishing_kernel.rollouts(
                        rules, [t.index for t in v.row], v.scores, state.current, v.turn,
                        v.turned.index, v.pile_sizes, [t.index for t in v.unseen],
                        [action_number(a) for a in candidates], deals, rng.getrandbits(64),
                    )  # fmt: skip
                    chosen = expert.best_actions(v, legal)[0]
                    assert isinstance(chosen, Capture | Place)
                    base = candidates.index(chosen)
                    means = [sum(r[c] for r in out) / len(out) for c in range(len(candidates))]
                    best = max(range(len(candidates)), key=lambda c: means[c])
                    diffs = [r[best] - r[base] for r in out]
                    mean = sum(diffs) / len(diffs)
                    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
                    gains.append((mean, math.sqrt(var / len(diffs))))
            state, _ = apply(state, expert.choose(v, legal, rng))
    clear = [g for g, se in gains if g > 2 * se]
    total = 100 * sum(g for g, _ in gains) / games
    print(
        f"{games} expert games, {len(gains)} decisions searched, {deals} play-outs per "
        f"candidate: the best candidate beats the expert's move by {total:.2f} "
        f"points of win chance per game (biased upwards: the best of noisy means); by more "
        f"than 2 standard errors in {len(clear)} decisions, {100 * sum(clear) / games:.2f} "
        f"points per game"
    )


Task = tuple[int, int, int, int | None, float, bool, float]


def play_deals(task: Task) -> tuple[list[tuple[float, float]], list[float]]:
    """Deals ``start .. stop-1``, both seatings: the master's two results per deal, and the
    time of each master decision."""
    seed, start, stop, budget, margin, oracle, points = task
    rules = make_rules("tsung-shap")
    results: list[tuple[float, float]] = []
    times: list[float] = []
    for i in range(start, stop):
        deal = make_deal(rules, random.Random(f"fishing-master:{seed}:{i}"))
        pair: list[float] = []
        for seat in (0, 1):
            master = (OracleMaster if oracle else MasterFishingPlayer)(budget, margin, points)
            expert = ExpertFishingPlayer()
            rng = random.Random(f"{seed}:{i}:{seat}")
            state = new_game(rules, ["seat 0", "seat 1"], deal)
            while state.result is None:
                mover = state.current
                legal = legal_actions(state)
                if mover == seat:
                    if isinstance(master, OracleMaster):
                        master.state = state
                    began = time.perf_counter()
                    action = master.choose(view(state, mover), legal, rng)
                    times.append(time.perf_counter() - began)
                else:
                    action = expert.choose(view(state, mover), legal, rng)
                state, _ = apply(state, action)
            winner = state.result.winner
            pair.append(0.5 if winner is None else 1.0 if winner == seat else 0.0)
        results.append((pair[0], pair[1]))
    return results, times


def main() -> None:
    """Play the match and print the share, its interval and the decision times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="first deal number")
    parser.add_argument("--budget", type=int, default=None, help="play-outs per decision")
    parser.add_argument("--margin", type=float, default=MARGIN)
    parser.add_argument("--points", type=float, default=POINTS, help="play-out score per point")
    parser.add_argument("--oracle", action="store_true", help="perfect information (ceiling)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--gaps", type=int, default=0, metavar="GAMES", help="measure one step's possible gain"
    )
    args = parser.parse_args()
    if not fishing_kernel.ready():
        sys.exit("the compiled kernel is not available (pip install .[sim])")
    if args.gaps:
        gaps(args.gaps, args.budget or 5000, args.seed)
        return
    # Compile (or load) the kernel before anything is timed.
    play_deals((args.seed, -1, 0, 8, args.margin, args.oracle, args.points))
    fishing_kernel.play_game(make_rules("tsung-shap"), [[0] * 16, [1] * 16], 0, 0)
    chunk = max(1, math.ceil(args.deals / (args.jobs * 4)))
    stop = args.start + args.deals
    tasks: list[Task] = [
        (args.seed, s, min(stop, s + chunk), args.budget, args.margin, args.oracle, args.points)
        for s in range(args.start, stop, chunk)
    ]
    began = time.perf_counter()
    parts: list[tuple[list[tuple[float, float]], list[float]]] = []

    def progress(part: tuple[list[tuple[float, float]], list[float]]) -> None:
        parts.append(part)
        done = [(a + b) / 2 for p, _ in parts for a, b in p]
        share = 100 * sum(done) / len(done)
        print(f"  ... {len(done)} deals, share {share:.1f} %", file=sys.stderr, flush=True)

    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for future in as_completed([pool.submit(play_deals, t) for t in tasks]):
                progress(future.result())
    else:
        for task in tasks:
            progress(play_deals(task))
    elapsed = time.perf_counter() - began
    results = [r for part, _ in parts for r in part]
    times = sorted(t for _, part in parts for t in part)
    per_deal = [(a + b) / 2 for a, b in results]
    n = len(per_deal)
    mean = sum(per_deal) / n
    var = sum((x - mean) ** 2 for x in per_deal) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    singles = [r for pair in results for r in pair]
    what = "oracle (perfect information)" if args.oracle else "master"
    print(
        f"{what} vs expert, budget {args.budget or 'default'}, margin {args.margin}, "
        f"points {args.points}: "
        f"{2 * n} games ({n} deals x 2 seatings, from deal {args.start}, seed {args.seed})"
    )
    print(
        f"  wins {singles.count(1.0)}, draws {singles.count(0.5)}, losses {singles.count(0.0)};"
        f" share {100 * mean:.1f} % (95 % {100 * (mean - half):.1f}-{100 * (mean + half):.1f})"
    )
    p99 = times[int(0.99 * (len(times) - 1))]
    print(
        f"  {len(times)} decisions: mean {1000 * sum(times) / len(times):.1f} ms, "
        f"99th pct {1000 * p99:.0f} ms, max {1000 * times[-1]:.0f} ms; {elapsed:.0f} s, "
        f"{args.jobs} jobs"
    )


if __name__ == "__main__":
    main()
