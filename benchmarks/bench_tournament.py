"""Tournament pairing and seating speed: a Swiss round of 1,000 entrants, table rounds of 500.

Each figure is one call of :meth:`bot.tournament.Event.next_round` on an event whose earlier
rounds were played with random results (not timed): for Swiss that is the standings with their
tie-breaks plus the maximum-weight matching (networkx) of the round; for table rounds the
standings plus the seating by standings and the local search over swaps. The pure matching
(:func:`bot.tournament.pair_swiss`) is timed separately too. The targets are < 1 s a round.

    .venv/bin/python benchmarks/bench_tournament.py
    .venv/bin/python benchmarks/bench_tournament.py --swiss 1000 --tables 500 --rounds 10
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

import networkx

from bot.tournament import (
    Event,
    EventSettings,
    Format,
    GameRecord,
    Player,
    match_result,
    pair_swiss,
    table_result,
)
from bot.tournament.standings import opponents_met


def play(event: Event, rng: random.Random) -> None:
    """Random results for every open match of the current round."""
    rnd = event.current_round
    assert rnd is not None
    for match in event.open_matches():
        games: list[GameRecord] = []
        if rnd.phase in ("tables", "final"):
            final = rnd.phase == "final"
            while (r := table_result(event.settings, match.players, games, final=final)) is None:
                games.append(GameRecord(rng.choice(match.players)))
        else:
            a, b = match.players
            while (r := match_result(event.settings, (a, b), games)) is None:
                games.append(GameRecord(rng.choice((a, b, None))))
        event.record(match.id, r)


def players(n: int, rng: random.Random) -> list[Player]:
    return [Player(i, f"P{i}", rng.uniform(1000, 2000) if i % 3 else None) for i in range(n)]


def bench_swiss(n: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    s = EventSettings(best_of=3, rounds=rounds, seats_limit=max(n, 2))
    event = Event.start(s, players(n, rng), rng)
    print(f"Swiss, {n} entrants, best of 3 (random results, draws included):")
    print("round  next_round (s)  pair_swiss only (s)  rematches")
    totals = []
    for number in range(1, rounds + 1):
        # The matching alone, on the same inputs next_round will use.
        matches = [m for r in event.rounds for m in r.matches]
        rows = event.pair_standings()
        ranked = [r.player for r in rows]
        scores = {r.player: r.score for r in rows}
        byes = {r.player for r in rows if r.byes}
        t0 = time.perf_counter()
        pairing = pair_swiss(ranked, scores, opponents_met(matches), byes)
        t_pair = time.perf_counter() - t0
        t0 = time.perf_counter()
        event.next_round()
        t_round = time.perf_counter() - t0
        totals.append(t_round)
        print(f"{number:5d}  {t_round:14.3f}  {t_pair:19.3f}  {pairing.rematches:9d}")
        play(event, rng)
    print(f"worst round {max(totals):.3f} s, median {statistics.median(totals):.3f} s\n")


def bench_tables(n: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    s = EventSettings(
        game="kap-tai-shap",
        format=Format.TABLE_ROUNDS,
        rounds=rounds,
        table_size=6,
        table_min=3,
        seats_limit=max(n, 2),
    )
    event = Event.start(s, players(n, rng), rng)
    print(f"Table rounds, {n} players, tables of up to 6, 3 games a table:")
    print("round  next_round (s)  tables  repeated pairs")
    totals = []
    for number in range(1, rounds + 1):
        met = {}
        for r in event.rounds:
            for m in r.matches:
                for p in m.players:
                    for q in m.players:
                        if p != q:
                            met[p, q] = met.get((p, q), 0) + 1
        t0 = time.perf_counter()
        rnd = event.next_round()
        t_round = time.perf_counter() - t0
        assert rnd is not None
        totals.append(t_round)
        repeats = sum(
            met.get((p, q), 0)
            for m in rnd.matches
            for i, p in enumerate(m.players)
            for q in m.players[i + 1 :]
        )
        print(f"{number:5d}  {t_round:14.3f}  {len(rnd.matches):6d}  {repeats:14d}")
        play(event, rng)
    print(f"worst round {max(totals):.3f} s, median {statistics.median(totals):.3f} s\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--swiss", type=int, default=1000, help="Swiss entrants")
    parser.add_argument("--tables", type=int, default=500, help="table-rounds players")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of each")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, networkx {networkx.__version__}, "
        f"{platform.machine()} {platform.processor() or ''}".strip()
    )
    bench_swiss(args.swiss, args.rounds, args.seed)
    bench_tables(args.tables, args.rounds, args.seed)


if __name__ == "__main__":
    main()
