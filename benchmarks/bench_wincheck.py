"""Win checks per second: is this hand an eye plus ten-pairs?

Random hands of 8 tiles (Kap Shap, one set) and 10 tiles (Kap Tai Shap, from 1, 4 and 8 sets),
dealt from the physical tiles of those sets, are generated first (not timed); then each checker
judges every hand twice, starting from empty memo tables: the first pass shows the cost of new
hands, the second the cost once the memo holds them.

* ``engine``: :func:`bot.games.collecting.engine.hands.is_winning_counts` without its memo
(``__wrapped__``): the
  residue test for every candidate eye;
* ``engine memo``: the same through its ``lru_cache``, as the engine calls it;
* ``signature``: the AI core's :class:`~bot.games.collecting.ai.core.HandEvaluator` computing a
count vector's
  missing tiles (a win is 0 missing), memoised by signature (residue counts and eye kinds);
* ``packed``: :meth:`~bot.games.collecting.ai.core.HandEvaluator.wins` on a packed hand (the same,
from the int);
* ``packed table``: ``table(hand)[0]``, the check the fast simulator makes: memoised per hand,
  it also prepares the whole discard decision, so a first sight of a hand costs more.

The share of winning hands is printed as a check: 81 745 / 10 518 300 = 0.777 % for Kap Shap.

    .venv/bin/python benchmarks/bench_wincheck.py
    .venv/bin/python benchmarks/bench_wincheck.py --hands 20000
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import KINDS, FourTwo
from bot.games.collecting.ai.core import HandEvaluator, pack
from bot.games.collecting.engine.hands import is_winning_counts

CASES = ((8, 1), (10, 1), (10, 4), (10, 8))  # (hand size, sets)
CHECKERS = ("engine", "engine memo", "signature", "packed", "packed table")


def random_hands(hand_size: int, sets: int, count: int, seed: int) -> list[tuple[int, ...]]:
    """Count vectors of ``count`` random hands dealt from ``sets`` sets."""
    rng = random.Random(seed)
    pieces = [t.index for t in KINDS for _ in range((2 if t.civil else 1) * sets)]
    out = []
    for _ in range(count):
        counts = [0] * len(KINDS)
        for k in rng.sample(pieces, hand_size):
            counts[k] += 1
        out.append(tuple(counts))
    return out


def rate(
    check: Callable[[tuple[int, ...]], bool], hands: list[tuple[int, ...]]
) -> tuple[float, int]:
    """(checks per second, winning hands)."""
    began = time.perf_counter()
    wins = sum(1 for hand in hands if check(hand))
    return len(hands) / (time.perf_counter() - began), wins


def make_checkers(
    hand_size: int, military: bool, ev: HandEvaluator, packed: dict[tuple[int, ...], int]
) -> dict[str, Callable[[tuple[int, ...]], bool]]:
    """The checkers, by name (see the module docstring)."""
    uncached = is_winning_counts.__wrapped__
    three = FourTwo.THREE
    return {
        "engine": lambda h: bool(uncached(h, hand_size, three, military)),
        "engine memo": lambda h: is_winning_counts(h, hand_size, three, military),
        "signature": lambda h: ev.missing_counts(h) == 0,
        "packed": lambda h: ev.wins(packed[h]),
        "packed table": lambda h: ev.table(packed[h])[0],
    }


def main(argv: list[str] | None = None) -> int:
    """Time every checker on every case and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hands", type=int, default=200_000, help="random hands per case (default 200000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the hands (default 1)")
    args = parser.parse_args(argv)  # fmt: skip

    print(f"python {platform.python_version()}, {args.hands} random hands per case")
    for hand_size, sets in CASES:
        hands = random_hands(hand_size, sets, args.hands, args.seed)
        military = sets > 1
        packed = {hand: pack(hand) for hand in hands}
        for name in CHECKERS:
            # Every checker starts from empty memo tables, then judges the same hands again.
            is_winning_counts.cache_clear()
            ev = HandEvaluator(hand_size, sets, FourTwo.THREE, military)
            check = make_checkers(hand_size, military, ev, packed)[name]
            cold, wins = rate(check, hands)
            warm, _ = rate(check, hands)
            share = 100 * wins / len(hands)
            print(f"  {hand_size:2d} tiles, {sets} set{'s' if sets > 1 else ' '}  {name:12s}"
                  f"{cold:12,.0f} checks/s first pass {warm:12,.0f} again   "
                  f"{share:.3f} % win")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
