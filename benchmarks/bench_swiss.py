"""Swiss pairing at 1,000 entrants (issue 23): p50 / p99 of one round's pairing, late rounds.

Several events of ``--players`` entrants (best of 3, random results with draws, so the score
groups spread out) are played for ``--rounds`` rounds each; every round is paired by
:meth:`bot.tournament.Event.next_round` (the standings with their tie-breaks, then
:func:`bot.tournament.pair_swiss`: score groups, Dutch order, no rematch while avoidable, the
bye) and the pairing alone is timed too, on the same inputs. The percentiles are over every
round of every event, and over the late rounds only (the second half: many score groups, and
every player has met several others, so rematch avoidance does the most work). Target: < 1 s.

    .venv/bin/python benchmarks/bench_swiss.py
    .venv/bin/python benchmarks/bench_swiss.py --players 1000 --rounds 12 --events 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import networkx
from bench_tournament import play, players

from bot.tournament import Event, EventSettings, pair_swiss
from bot.tournament.standings import opponents_met


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def one_event(n: int, rounds: int, seed: int) -> list[tuple[int, float, float, int, int]]:
    """(round, next_round seconds, pair_swiss seconds, score groups, rematches) per round."""
    rng = random.Random(seed)
    event = Event.start(
        EventSettings(best_of=3, rounds=rounds, seats_limit=n), players(n, rng), rng
    )
    out = []
    for number in range(1, rounds + 1):
        matches = [m for r in event.rounds for m in r.matches]
        rows = event.pair_standings()
        ranked = [r.player for r in rows]
        scores = {r.player: r.score for r in rows}
        byes = {r.player for r in rows if r.byes}
        t0 = time.perf_counter()
        pairing = pair_swiss(ranked, scores, opponents_met(matches), byes)
        t_pair = time.perf_counter() - t0
        t0 = time.perf_counter()
        rnd = event.next_round()
        t_round = time.perf_counter() - t0
        assert rnd is not None
        mine = tuple(sorted(tuple(sorted(m.players)) for m in rnd.matches if not m.is_bye))
        assert mine == tuple(sorted(tuple(sorted(p)) for p in pairing.pairs))  # same pairing
        out.append((number, t_round, t_pair, len(set(scores.values())), pairing.rematches))
        play(event, rng)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--events", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, networkx {networkx.__version__}, "
        f"{platform.machine()} {platform.processor() or ''}".strip()
    )
    print(f"Swiss, {args.players} entrants, {args.rounds} rounds, {args.events} events")
    print("event round  next_round (s)  pair_swiss (s)  score groups  rematches")
    rows = []
    for e in range(args.events):
        for number, t_round, t_pair, groups, rematches in one_event(
            args.players, args.rounds, args.seed + e
        ):
            rows.append((number, t_round, t_pair, rematches))
            print(
                f"{e + 1:5d} {number:5d}  {t_round:14.3f}  {t_pair:14.3f}  "
                f"{groups:12d}  {rematches:9d}"
            )
    late = [r for r in rows if r[0] > args.rounds // 2]
    for label, chosen in (("every round", rows), (f"rounds {args.rounds // 2 + 1}+", late)):
        rounds = [r[1] for r in chosen]
        pairs = [r[2] for r in chosen]
        print(
            f"{label} ({len(chosen)}): next_round p50 {statistics.median(rounds):.3f} s, "
            f"p99 {percentile(rounds, 0.99):.3f} s, max {max(rounds):.3f} s; "
            f"pair_swiss p50 {statistics.median(pairs):.3f} s, "
            f"p99 {percentile(pairs, 0.99):.3f} s, max {max(pairs):.3f} s"
        )
    print(f"rematches paired: {sum(r[3] for r in rows)}")


if __name__ == "__main__":
    main()
