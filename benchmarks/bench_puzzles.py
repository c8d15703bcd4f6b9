"""Puzzles: the answer's response time and the shipped sets' figures (docs/benchmarks.md,
"Issue 22: puzzles").

**Answer** (what a click on an answer button costs the bot, Discord aside): the member's answer
judged and rated (:meth:`bot.services.puzzles.PuzzleService.answer`: one read-then-write
transaction on a SQLite file) and the explanation worded (:func:`bot.services.puzzle_text.
explanation`: the position read back and the game's reason, as ``cogs.puzzles.answer_embed``
does), for ``--answers`` answers by ``--members`` members to puzzles of every shipped game, each
member's first answer to a puzzle (so each one is rated). **Show** (``/puzzle``): the next
puzzle chosen and the position's picture drawn (``cogs.puzzles.puzzle_message``'s work: the
view and the game's position picture). Wall-clock milliseconds: median, p95, p99, max.

**Sets**: per shipped game, the puzzles, the candidates judged, the play-outs spent on them all
(kept or not) and per puzzle kept, and its kinds and rating spread.

    .venv/bin/python benchmarks/bench_puzzles.py
    .venv/bin/python benchmarks/bench_puzzles.py --answers 2000 --members 40
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from bot.ai.puzzles import shipped
from bot.games import games
from bot.render.family import render_of
from bot.services.clock import ManualClock
from bot.services.puzzle_text import explanation
from bot.services.puzzles import PuzzleService
from bot.storage.db import Database


def _summary(label: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(p * len(ms)))]

    return (
        f"{label}: {len(ms):,} calls; median {statistics.median(ms):.1f} ms, p95 {pct(0.95):.1f}"
        f" ms, p99 {pct(0.99):.1f} ms, max {ms[-1]:.1f} ms"
    )


async def _answers(count: int, members: int, seed: int) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            service = PuzzleService(db, ManualClock(), rng=random.Random(seed))
            offered = service.games()
            answered: list[float] = []
            shown: list[float] = []
            done: set[tuple[int, str, int]] = set()
            while len(answered) < count:
                member = rng.randrange(members)
                game = rng.choice(offered)
                started = time.perf_counter()
                puzzle = await service.next_for(1, member, game)
                seen, legal = service.position(puzzle)
                render_of(game).position(seen, legal, "en")
                shown.append(time.perf_counter() - started)
                if (member, game, puzzle.number) in done:
                    continue
                done.add((member, game, puzzle.number))
                choice = rng.choice(puzzle.choices)
                started = time.perf_counter()
                got = await service.answer(1, member, game, puzzle.number, choice)
                explanation(puzzle, None if got.solved else got.answer, "en")
                answered.append(time.perf_counter() - started)
            return answered, shown
        finally:
            await db.close()


def _sets() -> None:
    for info in games():
        got = shipped(info.name)
        if not got.puzzles:
            print(f"{info.name}: none shipped")
            continue
        kept = len(got.puzzles)
        own = sum(p.rollouts for p in got.puzzles) / kept
        ratings = [p.rating for p in got.puzzles]
        kinds = Counter(p.kind for p in got.puzzles)
        found = sum(p.greedy for p in got.puzzles), sum(p.expert for p in got.puzzles)
        print(
            f"{info.name}: {kept:,} puzzles of {got.candidates:,} candidates "
            f"({kept / max(got.candidates, 1):.0%} kept); {got.spent:,} play-outs in all, "
            f"{got.spent / kept:,.0f} per puzzle kept ({own:,.0f} on the puzzle itself); "
            f"kinds {dict(kinds)}; greedy finds {found[0]}, expert {found[1]}; ratings "
            f"{min(ratings):,.0f}–{max(ratings):,.0f} (median {statistics.median(ratings):,.0f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--answers", type=int, default=1_000)
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    _sets()
    answered, shown = asyncio.run(_answers(args.answers, args.members, args.seed))
    print(_summary("answer (judge, rate, explain)", answered))
    print(_summary("show (choose, draw the position)", shown))


if __name__ == "__main__":
    main()
