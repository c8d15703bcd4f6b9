"""The review's estimator on the compiled kernel agrees with exact enumeration of the hidden
tiles (expert play-outs through the engine), as the Python estimator does."""

from __future__ import annotations

import random

import pytest

from bot.ai import kernel
from bot.ai.review import Estimate, default_estimator, kernel_estimator, python_estimator
from bot.engine import GameState, apply, legal_actions, make_deal, make_rules, new_game
from tests.ai.test_review_estimator import uncertain_end_positions

pytestmark = pytest.mark.skipif(not kernel.available(), reason="numba is not installed")


def test_the_default_estimator_of_collecting_games_is_the_kernel() -> None:
    assert default_estimator("kap-shap") is kernel_estimator
    assert default_estimator("tsung-shap") is not kernel_estimator


def test_the_kernel_estimate_agrees_with_exact_enumeration() -> None:
    for state, exact in uncertain_end_positions(3):
        seat = state.current
        actions = legal_actions(state)
        scores = kernel_estimator(state, seat, actions, 400, random.Random(1))
        for action, value, sample in zip(actions, exact, scores, strict=True):
            estimate = Estimate.of(sample)
            assert len(sample) == 400
            # Within 4 standard errors (plus a little for a sample that happened to be constant).
            assert abs(estimate.mean - value) <= 4 * estimate.se + 0.03, (action, value, estimate)


def early_position() -> GameState:
    """A Kap Shap position a few turns in, with a choice of several moves."""
    rules = make_rules("kap-shap", 2)
    rng = random.Random(7)
    state: GameState = new_game(rules, ["a", "b"], make_deal(rules, rng))
    while state.turn < 4 or len(legal_actions(state)) < 3:
        legal = legal_actions(state)
        state, _ = apply(state, legal[rng.randrange(len(legal))])
        assert state.result is None
    return state


def test_the_kernel_and_python_estimates_agree_early_in_a_game() -> None:
    """Most of the wall hidden: the two estimators' means agree within their noise."""
    state = early_position()
    seat = state.current
    actions = legal_actions(state)[:3]
    fast = kernel_estimator(state, seat, actions, 400, random.Random(5))
    slow = python_estimator("kap-shap")(state, seat, actions, 120, random.Random(5))
    for a, b in zip(fast, slow, strict=True):
        ea, eb = Estimate.of(a), Estimate.of(b)
        assert abs(ea.mean - eb.mean) <= 4 * (ea.se**2 + eb.se**2) ** 0.5 + 0.03
