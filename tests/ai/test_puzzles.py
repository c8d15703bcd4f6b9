"""Puzzles (bot/ai/puzzles.py and the families' kinds): the verifier keeps a clear position and
rejects a near-tie; the shipped sets load, and each shipped puzzle's best move is legal in its
position and beats the runner-up by the thresholds; the same seed gives the same positions."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

import pytest

from bot.ai import puzzles
from bot.ai.family import ai_of
from bot.ai.puzzles import (
    MARGIN_Z,
    MIN_MARGIN,
    candidates,
    dumps,
    find_choice,
    kind_of,
    loads,
    shipped,
    verify,
)
from bot.engine import legal_actions
from bot.engine.family import Action, State
from bot.engine.position import parse_position, write_position
from bot.games import games
from tests.puzzles_kit import tiny_set

SHIPPED_AT_LEAST = 300


def _position(game: str, kind: str) -> tuple[State, int]:
    for _, state, _seat, found in itertools.islice(candidates(game, 3), 40):
        if found == kind:
            return parse_position(write_position(state))
    raise AssertionError(f"no {kind} position in 40 candidates of {game}")


def _estimator(chances: Mapping[str, float]):  # type: ignore[no-untyped-def]
    """Play-outs whose chance to win after each move is given (others: 0.2), every move on the
    same deals: a coin per deal and move, deterministic in the stream."""

    def estimate(
        state: State, seat: int, actions: Sequence[Action], rollouts: int, rng: random.Random
    ) -> list[list[float]]:
        columns: list[list[float]] = [[] for _ in actions]
        for _ in range(rollouts):
            deal = rng.random()
            for column, action in zip(columns, actions, strict=True):
                p = chances.get(str(action), 0.2)
                column.append(1.0 if (deal + 0.37 * len(column)) % 1.0 < p else 0.0)
        return columns

    return estimate


def test_the_verifier_keeps_a_clear_position() -> None:
    state, seat = _position("kap-shap", "discard")
    moves = [str(a) for a in legal_actions(state)]
    best = moves[1]
    got = verify(
        state,
        seat,
        rng=random.Random(1),
        screen=600,
        budget=3_000,
        estimator=_estimator({best: 0.7, moves[0]: 0.45}),
    )
    assert got is not None
    assert got.best == best
    assert got.second == moves[0]
    assert got.margin >= MIN_MARGIN
    assert got.margin >= MARGIN_Z * got.margin_se
    assert 0.15 < got.margin < 0.35  # 0.7 against 0.45, measured


def test_the_verifier_rejects_a_near_tie() -> None:
    state, seat = _position("kap-shap", "discard")
    moves = [str(a) for a in legal_actions(state)]
    got = verify(
        state,
        seat,
        rng=random.Random(1),
        screen=600,
        budget=3_000,
        estimator=_estimator({moves[0]: 0.6, moves[1]: 0.59}),
    )
    assert got is None


def test_a_move_within_the_minimum_margin_is_a_near_tie_however_sure() -> None:
    # 4 points apart, sure after enough deals: still no puzzle (below MIN_MARGIN).
    state, seat = _position("kap-shap", "discard")
    moves = [str(a) for a in legal_actions(state)]
    got = verify(
        state,
        seat,
        rng=random.Random(2),
        screen=600,
        budget=20_000,
        estimator=_estimator({moves[0]: 0.64, moves[1]: 0.6}),
    )
    assert got is None


@pytest.mark.parametrize(
    ("game", "kinds"),
    [("kap-shap", {"discard", "take-or-draw"}), ("tsung-shap", {"capture"})],
)
def test_each_family_names_its_kinds_and_recognises_them(game: str, kinds: set[str]) -> None:
    assert set(ai_of(game).puzzle_kinds(game)) == kinds
    seen = {kind for _, _, _, kind in itertools.islice(candidates(game, 1), 30)}
    assert seen <= kinds and seen
    for _, state, seat, kind in itertools.islice(candidates(game, 1), 5):
        assert kind_of(state, seat) == kind
        assert len(ai_of(game).choices(state, seat, legal_actions(state))) >= 2


def test_the_same_seed_gives_the_same_positions() -> None:
    def texts(seed: int) -> list[str]:
        return [
            write_position(state)
            for _, state, _, _ in itertools.islice(candidates("tsung-shap", seed), 4)
        ]

    assert texts(5) == texts(5)
    assert texts(5) != texts(6)


def test_a_set_reads_back_as_written() -> None:
    made = tiny_set("kap-shap", 2)
    assert loads(dumps(made)) == made
    with pytest.raises(ValueError, match="version"):
        loads(dumps(made).replace('"format": 1', '"format": 99'))


def test_an_answer_is_read_as_an_offered_move() -> None:
    puzzle = tiny_set("kap-shap", 1).puzzles[0]
    assert find_choice(puzzle, puzzle.choices[1].upper()) == puzzle.choices[1]
    assert find_choice(puzzle, "  " + puzzle.choices[0].replace(" ", "   ")) == puzzle.choices[0]
    assert find_choice(puzzle, "declare") is None
    assert find_choice(puzzle, "") is None


@pytest.mark.parametrize("game", [info.name for info in games()])
def test_the_shipped_set_holds_verified_puzzles(game: str) -> None:
    got = shipped(game)
    assert got.game == game
    assert len(got.puzzles) >= SHIPPED_AT_LEAST
    assert got.min_margin == MIN_MARGIN and got.margin_z == MARGIN_Z
    for number, puzzle in enumerate(got.puzzles):
        assert puzzle.number == number and puzzle.game == game
        state, seat = puzzle.state()
        legal = {str(a) for a in legal_actions(state)}
        assert puzzle.best in legal and puzzle.second in legal
        assert set(puzzle.choices) <= legal and puzzle.best in puzzle.choices
        assert puzzle.best != puzzle.second
        assert puzzle.margin >= MIN_MARGIN
        assert puzzle.margin >= MARGIN_Z * puzzle.margin_se
        assert puzzle.kind == kind_of(state, seat)
        assert puzzle.rollouts > 0
        assert puzzles.question(game, puzzle.kind)
