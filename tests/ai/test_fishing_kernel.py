"""The compiled Tsung Shap play-outs play the engine's games and the expert's moves.

For many deals under every rule variant, the kernel plays a whole game with the expert in both
seats; the game is then replayed through the engine: every choice of the kernel must be one of
the Python expert's equally best actions (``ExpertFishingPlayer.best_actions``, without the exact
endgame, which the kernel does not search), legal there, and the engine's final scores and winner
must be the kernel's. The same for play-outs that start in the middle of a game with a given
move, as the master's do.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import RuleSet, apply, legal_actions, make_deal, new_game, view
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.ai.master import action_number
from bot.games.fishing.ai.players import ExpertFishingPlayer
from bot.games.fishing.engine import FishingPhase, FishingState, pile_tiles
from bot.games.fishing.engine.actions import Capture, FishingAction, Place
from tests.ai.test_fishing_ai import VARIANTS

pytest.importorskip("numba")

from bot.games.fishing.ai import kernel as fishing_kernel

DEALS = 40
"""Deals per rule variant (both ways of playing them are checked in full)."""


def _expert() -> ExpertFishingPlayer:
    expert = ExpertFishingPlayer()
    expert.exact_endgame = -1  # the kernel's expert has no exact endgame
    return expert


def _replay(
    state: FishingState, choices: list[tuple[int, int]], expert: ExpertFishingPlayer
) -> FishingState:
    """Play the kernel's choices through the engine, checking each against the expert."""
    moves = iter(choices)
    while state.result is None:
        legal = legal_actions(state)
        if state.phase is FishingPhase.TURN_OVER:
            assert legal == [Draw()]  # experts never miss a capture, so nothing to claim
            state, _ = apply(state, Draw())
            continue
        turn, number = next(moves)
        assert turn == state.turn
        best = expert.best_actions(view(state, state.current), legal)
        by_number: dict[int, FishingAction] = {}
        for action in best:
            assert isinstance(action, Capture | Place)
            by_number[action_number(action)] = action
        assert number in by_number, (turn, number, best)
        state, _ = apply(state, by_number[number])
    assert next(moves, None) is None
    return state


def _piles(state: FishingState) -> list[list[int]]:
    return [[t.index for t in pile_tiles(state, s)] for s in range(2)]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe())
def test_whole_games_are_the_engines_and_the_experts(rules: RuleSet) -> None:
    expert = _expert()
    for i in range(DEALS):
        deal = make_deal(rules, random.Random(f"fishing-kernel:{i}"))
        state = new_game(rules, ["a", "b"], deal)
        scores, winner, choices = fishing_kernel.play_game(rules, _piles(state), deal.first_seat, i)
        end = _replay(state, choices, expert)
        assert end.result is not None
        assert end.result.scores == scores
        assert end.result.winner == winner


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe())
def test_play_outs_from_the_middle_of_a_game(rules: RuleSet) -> None:
    """Every candidate of every decision of a few real games, played out by the kernel on the
    true piles, replays through the engine to the same end."""
    expert = _expert()
    rng = random.Random(7)
    for i in range(4):
        state = new_game(rules, ["a", "b"], make_deal(rules, random.Random(f"middle:{i}")))
        while state.result is None:
            legal = legal_actions(state)
            v = view(state, state.current)
            if state.phase is FishingPhase.PLAY and v.turned is not None:
                captures = [a for a in legal if isinstance(a, Capture)]
                for action in captures or [a for a in legal if isinstance(a, Place)]:
                    seed = rng.getrandbits(64)
                    scores, winner, choices = fishing_kernel.continue_game(
                        rules,
                        [t.index for t in v.row],
                        v.scores,
                        state.current,
                        state.turn,
                        v.turned.index,
                        _piles(state),
                        action_number(action),
                        seed,
                    )
                    after, _ = apply(state, action)
                    end = _replay(after, choices, expert)
                    assert end.result is not None
                    assert (end.result.scores, end.result.winner) == (scores, winner)
            state, _ = apply(state, expert.choose(v, legal, rng))


def test_rollouts_are_reproducible_for_a_seed() -> None:
    rules = VARIANTS[0]
    state = new_game(rules, ["a", "b"], make_deal(rules, random.Random("rollouts")))
    expert = _expert()
    rng = random.Random(1)
    while state.phase is not FishingPhase.PLAY or state.turn < 5:
        state, _ = apply(
            state, expert.choose(view(state, state.current), legal_actions(state), rng)
        )
    v = view(state, state.current)
    assert v.turned is not None
    piles = _piles(state)
    places = [5, 6]
    args = (
        rules,
        [t.index for t in v.row],
        v.scores,
        state.current,
        state.turn,
        v.turned.index,
        v.pile_sizes,
        [t.index for t in v.unseen],
        places,
    )
    known = fishing_kernel.rollouts(*args, 3, 11, known=[piles])
    assert len(known) == 3 and all(x in (0.0, 0.5, 1.0) for row in known for x in row)
    sampled = fishing_kernel.rollouts(*args, 50, 11)
    assert len(sampled) == 50 and all(len(row) == 2 for row in sampled)
    assert sampled == fishing_kernel.rollouts(*args, 50, 11)  # reproducible for a seed
