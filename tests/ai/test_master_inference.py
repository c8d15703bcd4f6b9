"""The master's inference: opponent hands drawn to explain the opponent's latest discard.

Only public facts enter it (the tile the opponent threw in its latest turn), so it never peeks;
what is checked is that the hands it draws are ones from which the expert would have thrown
that tile (kept the fewest tiles missing) far more often than uniform draws are."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from bot.engine import make_deal, make_rules  # noqa: E402
from bot.games.collecting.ai import kernel  # noqa: E402


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
            ev, state, tiles, 0, size, 16, base, best, np.zeros(21, np.int64), recent, infer,
            np.zeros(21, np.int64), np.zeros(21, np.int64), np.zeros(kernel.N_FEATURES),
            np.zeros((1, 2), np.int64), 0,
        )  # fmt: skip
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


def _padded(weights: tuple[float, ...] | None) -> object:
    values = list(weights or ())
    return np.array(values + [0.0] * (kernel.N_FEATURES - len(values)), dtype=np.float64)


def _sir_share(weights: tuple[float, ...] | None) -> tuple[float, float]:
    """Share of drawn hands that explain the latest discard, and mean features' log weight,
    for importance resampling by ``weights`` (None: one uniform draw)."""
    from bot.games.collecting.ai.master import INFER_WEIGHTS, SIR_TRIES

    rules = make_rules("kap-shap")
    ev = kernel.ev_array(rules)
    total, _ = kernel.kind_tables(rules)
    size = rules.hand_size - 1
    rng = random.Random(5)
    consistent = 0
    trials = 300
    w = _padded(INFER_WEIGHTS if weights is None else weights)
    features = np.zeros(kernel.N_FEATURES, np.float64)
    score = 0.0
    for _ in range(trials):
        thrown = rng.randrange(21)
        pool = [k for k in range(21) for _ in range(int(total[k]) - (k == thrown))]
        tiles = np.array(pool, dtype=np.int64)
        recent = np.zeros(21, np.int64)
        recent[thrown] = 1
        passed = np.zeros(21, np.int64)
        passed[rng.randrange(21)] = 1
        state = np.array([rng.getrandbits(64)], dtype=np.uint64)
        kernel._likely_hand(
            ev, state, tiles, 0, size, SIR_TRIES if weights else 1, np.zeros(21, np.int64),
            np.zeros(32, np.int64), passed, recent, 3, np.zeros(21, np.int64),
            np.zeros(21, np.int64), _padded(weights), np.zeros((1, 2), np.int64), 0,
        )  # fmt: skip
        hand = np.zeros(21, np.int64)
        for k in tiles[:size]:
            hand[k] += 1
        kernel._hand_features(
            ev, hand, thrown, passed, np.zeros(21, np.int64), np.zeros(21, np.int64), features
        )
        consistent += features[4] == 0
        score += float(features @ w)
    return consistent / trials, score / trials


def test_importance_weights_explain_the_public_moves_better_than_uniform_draws() -> None:
    from bot.games.collecting.ai.master import INFER_WEIGHTS, TABLE_INFER_WEIGHTS

    uniform, uniform_score = _sir_share(None)
    weighted, weighted_score = _sir_share(INFER_WEIGHTS)
    # Hands resampled by weight keep the discard the expert made far more often, and score
    # higher under the fitted model of real expert hands (a log likelihood ratio).
    assert weighted > 0.95 > uniform + 0.05
    assert weighted_score > uniform_score + 1.0
    assert _sir_share(TABLE_INFER_WEIGHTS)[0] > 0.95


def test_hand_features_read_only_public_moves() -> None:
    rules = make_rules("kap-shap")
    ev = kernel.ev_array(rules)
    hand = np.zeros(21, np.int64)
    for k in (0, 0, 3, 5, 7, 9, 11, 12, 14, 20):
        hand[k] += 1
    before = hand.copy()
    out = np.zeros(kernel.N_FEATURES, np.float64)
    passed = np.zeros(21, np.int64)
    missing, bits = kernel._hand_features(
        ev, hand, 3, passed, np.zeros(21, np.int64), np.zeros(21, np.int64), out
    )
    assert (hand == before).all()  # the hand is left as it was
    assert (missing, bits) == kernel._info(ev, hand)
    assert out[:4].sum() <= 1


def test_the_history_feature_counts_discards_the_expert_would_not_have_made() -> None:
    """Without draws the backward rebuild is exact: before its earlier discard ``d`` the seat
    held its hand now plus its latest discard plus ``d``; the discard counts as unexplained
    when another tile of that hand would have left fewer tiles missing."""
    rules = make_rules("kap-shap")
    ev = kernel.ev_array(rules)
    total, _ = kernel.kind_tables(rules)
    state = np.array([7], dtype=np.uint64)
    work = np.zeros(21, np.int64)
    rng = random.Random(11)
    counted = 0
    for _ in range(200):
        pool = [k for k in range(21) for _ in range(int(total[k]))]
        tiles = rng.sample(pool, rules.hand_size + 1)
        earlier, latest, kept = tiles[0], tiles[1], tiles[2:]
        hand = np.zeros(21, np.int64)
        for k in kept:
            hand[k] += 1
        events = np.array([[0, earlier], [0, latest]], np.int64)
        got = kernel._history_feature(ev, state, hand, events, 2, work)
        before = hand.copy()
        before[latest] += 1
        before[earlier] += 1
        after = kernel._info(ev, _minus(before, earlier))[0]
        better = any(
            kernel._info(ev, _minus(before, k))[0] < after
            for k in range(21)
            if before[k] and k != earlier
        )
        assert got == int(better)
        counted += got
    assert 0 < counted < 200  # both cases occur


def test_a_master_weighing_the_whole_history_plays_a_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.games.collecting.ai import master
    from bot.games.collecting.sim.play import play_reference

    weights = (*master.INFER_WEIGHTS, -1.0)  # the history feature switched on
    monkeypatch.setattr(master, "INFER_WEIGHTS", weights)
    rules = make_rules("kap-shap")
    deal = make_deal(rules, random.Random(2))
    one = play_reference(rules, deal, ("master", "expert"), random.Random(6))
    assert one == play_reference(rules, deal, ("master", "expert"), random.Random(6))
