"""The review's estimators on the compiled kernels agree with exact enumeration of the hidden
tiles (expert play-outs through the engine), as the Python estimator does: Kap Shap on the
master's kernel, Tsung Shap on the fishing kernel (captures missed and claimed included)."""

from __future__ import annotations

import random

import pytest

from bot.ai.review import (
    Estimate,
    default_estimator,
    exact_values,
    python_estimator,
)
from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.family import State
from bot.engine.hidden import unseen_pieces
from bot.games.collecting.ai import kernel
from bot.games.collecting.ai.review import kernel_estimator
from bot.games.collecting.engine.machine import GameState
from bot.games.fishing.ai import kernel as fishing_kernel
from bot.games.fishing.ai.players import ExpertFishingPlayer
from bot.games.fishing.ai.review import fishing_estimator
from bot.games.fishing.engine import FishingState
from bot.games.fishing.engine.actions import Capture, Place
from tests.ai.test_review_estimator import uncertain_end_positions

pytestmark = pytest.mark.skipif(not kernel.available(), reason="numba is not installed")


def test_the_default_estimators_are_the_compiled_ones() -> None:
    assert default_estimator("kap-shap") is kernel_estimator
    assert default_estimator("kap-tai-shap") is kernel_estimator
    assert default_estimator("tsung-shap") is fishing_estimator


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


def _kernel_expert_playout(state: State, seat: int, rng: random.Random) -> float:
    """The expert in both seats through the engine, without its exact endgame (as the kernel
    plays): the kernel estimate's oracle."""
    expert = ExpertFishingPlayer()
    expert.exact_endgame = -1
    while state.result is None:
        action = expert.choose(view(state, state.current), legal_actions(state), rng)
        state, _ = apply(state, action)
    return 1.0 if state.result.winner == seat else 0.0


def fishing_positions(count: int, unseen: int) -> list[FishingState]:
    """Tsung Shap positions of random play with a capture on offer (so placing misses it and
    the opponent may claim it) and at most ``unseen`` tiles face down."""
    rules = make_rules("tsung-shap", 2)
    found: list[FishingState] = []
    for seed in range(400):
        rng = random.Random(seed)
        state: FishingState = new_game(rules, ["a", "b"], make_deal(rules, rng))
        while state.result is None:
            legal = legal_actions(state)
            seat = state.current
            if (
                any(isinstance(a, Capture) for a in legal)
                and any(isinstance(a, Place) for a in legal)
                and 1 < len(unseen_pieces(state, seat)) <= unseen
            ):
                found.append(state)
                break
            state, _ = apply(state, legal[rng.randrange(len(legal))])
        if len(found) == count:
            return found
    raise AssertionError("no position found")


@pytest.mark.skipif(not fishing_kernel.ready(), reason="numba is not installed")
def test_the_fishing_estimate_agrees_with_exact_enumeration() -> None:
    """Every move, captures and placements that miss them (which the opponent then claims),
    against every order of the piles played out through the engine."""
    for state in fishing_positions(3, 5):
        seat = state.current
        actions = legal_actions(state)
        exact = exact_values(state, seat, actions, _kernel_expert_playout)
        scores = fishing_estimator(state, seat, actions, 600, random.Random(3))
        for action, value, sample in zip(actions, exact, scores, strict=True):
            estimate = Estimate.of(sample)
            assert abs(estimate.mean - value) <= 4 * estimate.se + 0.04, (action, value, estimate)
