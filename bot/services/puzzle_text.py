"""A puzzle in words, for ``/puzzle`` and ``kapshap puzzle`` alike: why its best move is best
(the review's reasons, in the game's terms) and its margin in points. No storage: the terminal
imports it."""

from __future__ import annotations

from bot.ai.family import ai_of
from bot.ai.puzzles import Puzzle
from bot.engine import legal_actions
from bot.locale import t
from bot.services.review_text import say

__all__ = ["explanation", "margin_text"]


def explanation(puzzle: Puzzle, answer: str | None, locale: str = "en") -> str:
    """Why the best move is best, in one line of the game's terms (the review's reasons,
    :meth:`bot.ai.family.GameAI.reason`): against the member's wrong ``answer``, or, after a
    right one (``answer`` the best or None), against the runner-up."""
    state, seat = puzzle.state()
    other = answer if answer is not None and answer != puzzle.best else puzzle.second
    by_name = {str(a): a for a in legal_actions(state)}
    best, played = by_name.get(puzzle.best), by_name.get(other)
    if best is None or played is None:  # pragma: no cover - the set's moves are legal
        return ""
    game = puzzle.game
    words = ai_of(game).reason(state, seat, played, best, ())
    return say(words, locale, context=ai_of(game).words_context(game))


def margin_text(puzzle: Puzzle, best: str, second: str, locale: str = "en") -> str:
    """``It wins 54 % of games (play-outs) and beats the next best, discard 6-6, by 11 points
    (± 3).`` (``best`` and ``second`` as the caller names the moves)."""
    return t(
        locale,
        "{move} wins {chance} of games (play-outs) and beats the next best, {second}, by "
        "{margin} points (± {se}).",
        move=best,
        chance=f"{puzzle.chance:.0%}",
        second=second,
        margin=f"{puzzle.margin * 100:.0f}",
        se=f"{max(puzzle.margin_se * 100, 1):.0f}",
    )
