"""The master's inference: opponent hands drawn to explain the opponent's latest discard.

Only public facts enter it (the tile the opponent threw in its latest turn), so it never peeks;
what is checked is that the hands it draws are ones from which the expert would have thrown
that tile (kept the fewest tiles missing) far more often than uniform draws are."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from bot.ai import kernel  # noqa: E402
from bot.engine import make_rules  # noqa: E402


def _consistent_share(infer: int) -> float:
    rules = make_rules("kap-shap")
    ev = kernel.ev_array(rules)
    total, _ = kernel.kind_tables(rules)
    size = rules.hand_size - 1  # an opponent between turns: after its discard
    rng = random.Random(3)
    consistent = 0
    trials = 300
    for _ in range(trials):
        thrown = rng.randrange(21)
        pool = [k for k in range(21) for _ in range(int(total[k]) - (k == thrown))]
        tiles = np.array(pool, dtype=np.int64)
        base = np.zeros(21, np.int64)
        recent = np.zeros(21, np.int64)
        recent[thrown] = 1
        state = np.array([rng.getrandbits(64)], dtype=np.uint64)
        best = np.zeros(32, np.int64)
        kernel._likely_hand(
            ev, state, tiles, 0, size, 16, base, best, np.zeros(21, np.int64), recent, infer
        )
        hand = np.zeros(21, np.int64)
        for k in tiles[:size]:
            hand[k] += 1
        after = kernel._info(ev, hand)[0]
        hand[thrown] += 1
        fewest = min(
            kernel._info(ev, _minus(hand, k))[0] for k in range(21) if hand[k] and k != thrown
        )
        consistent += after <= fewest
    return consistent / trials


def _minus(hand: object, kind: int) -> object:
    out = np.array(hand, dtype=np.int64)
    out[kind] -= 1
    return out


def test_inferred_hands_explain_the_latest_discard() -> None:
    uniform = _consistent_share(0)
    assert _consistent_share(1) > 0.95
    assert _consistent_share(1) > uniform + 0.05
    assert _consistent_share(2) > 0.95
