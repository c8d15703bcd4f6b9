"""Small puzzle sets for tests: real positions from simulated games (:func:`bot.ai.puzzles.
candidates`), with the first answer named the best and made-up margins, so that the services
and cogs can be tested without the shipped sets or any play-out."""

from __future__ import annotations

import itertools

from bot.ai.family import ai_of
from bot.ai.puzzles import MARGIN_Z, MIN_MARGIN, Puzzle, PuzzleSet, candidates
from bot.engine import legal_actions
from bot.engine.position import write_position


def tiny_set(game: str, count: int = 3, rating: float = 1_500.0) -> PuzzleSet:
    """``count`` puzzles of ``game``; puzzle N's best answer is its first choice."""
    made: list[Puzzle] = []
    for _, state, seat, kind in itertools.islice(candidates(game, 7), count):
        legal = legal_actions(state)
        groups = ai_of(game).choices(state, seat, legal)
        names = tuple(str(group[0]) for group in groups)
        made.append(
            Puzzle(
                number=len(made),
                game=game,
                kind=kind,
                position=write_position(state),
                choices=names,
                best=names[0],
                second=names[1],
                chance=0.6,
                margin=0.1,
                margin_se=0.02,
                rollouts=1_000,
                greedy=True,
                expert=True,
                rating=rating,
            )
        )
    return PuzzleSet(game, 7, MIN_MARGIN, MARGIN_Z, 0, 0, puzzles=tuple(made))
