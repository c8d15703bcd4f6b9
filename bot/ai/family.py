"""What a family of games gives the AI layer (its *AI facet*), and the one accessor that fetches
it: :func:`ai_of`.

A family's facet is the ``FACET`` of the module its descriptor names for the role ``ai``
(``bot/games/<family>/ai/family.py``); that module belongs to this layer (standard library,
``bot.engine``, ``bot.ai``, numba and numpy for compiled code). Generic code (the table
service's computer seats, reviews, the simulator's options, ratings of computer seats) asks the
facet instead of telling the games apart (docs/architecture.md, "Games: one place per game").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from bot.games import games, load

if TYPE_CHECKING:
    from bot.ai.base import AnyPlayer
    from bot.ai.review_words import Words

__all__ = ["Estimator", "GameAI", "PlayOut", "ai_of"]

PlayOut = Callable[[Any, int, random.Random], float]
"""Plays a (determinized) state to its end; 1.0 if the given seat wins, else 0.0."""

Estimator = Callable[[Any, int, Sequence[Any], int, random.Random], list[list[float]]]
"""``(state, seat, actions, rollouts, rng) -> scores``: per action, ``rollouts`` scores (1.0 a
win for ``seat``, else 0.0), every action played out on the same determinized deals."""


class GameAI(Protocol):
    """Everything a family gives the AI layer."""

    def levels(self, game: str) -> tuple[str, ...]:
        """The levels the game offers, weakest first (``bot.ai.base.LEVEL_WORDS`` words each
        for players, ``bot.locale.levels`` names it)."""
        ...

    def player(self, game: str, level: str) -> AnyPlayer:
        """A fresh computer player of ``level``; ValueError naming the levels if unknown."""
        ...

    def searching(self, level: str) -> bool:
        """Whether the level decides by search (play-outs), so that its decisions run off the
        event loop (``master``)."""
        ...

    def passive_action(self, state: Any, seat: int, rng: random.Random) -> Any:
        """The move of a seat whose time ran out: never a win, a take, a capture or a claim
        (draw, then the least useful discard or placement)."""
        ...

    def playout(self, game: str) -> PlayOut:
        """The play-out reviews use through the engine: every seat at one level."""
        ...

    def estimator(self, game: str) -> Estimator:
        """The estimator reviews and analyses use: the compiled one where numba is here."""
        ...

    def action_words(self, notation: str) -> Words:
        """An action in the game's notation as a gerund phrase for a review's sentences
        (``taking 6-4``, ``capturing a pair on the left``)."""
        ...

    def calibrated(self, game: str) -> Mapping[str, tuple[float, float]]:
        """The (mu, sigma) of each level's fixed rating in the game (ratings of computer
        seats, fitted by benchmarks/calibrate_ratings.py)."""
        ...

    def bound_memos(self) -> None:
        """Keep this family's memo tables small from now on: the bot's budget
        (docs/benchmarks.md), where a server hosts tables of many rule sets at once; the
        simulator keeps the large defaults. A family without memos does nothing."""
        ...

    def warm_player(self, game: str, budget: int) -> AnyPlayer | None:
        """A searching player with ``budget`` play-outs per decision whose decisions run all
        the compiled code the game's strongest level runs (:mod:`bot.ai.warm` plays a few to
        compile it before anyone waits); None when the game runs nothing compiled."""
        ...

    def compiled(self, game: str) -> bool:
        """Whether the game's review play-outs run compiled here (numba installed, the
        kernel on)."""
        ...

    def rollouts(self, rules: Any) -> int:
        """The compiled play-outs a review may spend on one decision of a game played by
        ``rules``: about the same time per decision in every game (docs/benchmarks.md,
        "Reviews"); :func:`bot.ai.estimates.default_rollouts` divides it when the play-outs
        are not compiled."""
        ...

    def choices(self, state: Any, seat: int, legal: Sequence[Any]) -> list[list[Any]]:
        """The legal actions (two or more) grouped into really different choices, equivalent
        ones together in their order (Tsung Shap: moves leaving mirror-image rows): a tie
        between them is not a choice."""
        ...

    def draws_unseen(self, action: Any) -> bool:
        """Whether what ``action`` leads to depends on pieces its seat has not seen (a
        draw), so that it is never scored exactly from one arrangement of them."""
        ...

    def reason(
        self,
        state: Any,
        seat: int,
        played: Any,
        best: Any,
        after: Sequence[tuple[int, str]],
    ) -> Words:
        """Why ``played`` was worse than ``best``, in one sentence of the game's own terms
        (:data:`bot.ai.review_words.REASONS`); ``after`` is what happened next, (seat,
        action) in order, for what only hindsight shows."""
        ...

    def hint(self, view: Any, legal: Sequence[Any]) -> tuple[Any, Words]:
        """The expert's move for a seat to act and why, in one sentence
        (:data:`bot.ai.review_words.HINTS`, :data:`~bot.ai.review_words.REASONS`), decided from
        ``view`` (the seat's own) and its ``legal`` actions only: never from what the seat
        cannot see, so it is the same whatever the hidden pieces are."""
        ...

    def words_context(self, game: str) -> str | None:
        """The catalogue context in which the game's review words are looked up first, for
        the words it says differently from the other games (Tsung Shap's draw turns a tile
        over); None: the common words only."""
        ...

    def position_words(self, view: Any) -> list[Words]:
        """What a seat saw when it decided (its view), in lines of words for a review
        (:func:`bot.ai.review_words.nt` for a counted line)."""
        ...

    def puzzle_kinds(self, game: str) -> Mapping[str, str]:
        """The kinds of puzzle the game poses (:mod:`bot.ai.puzzles`), each with its question
        (an English message id marked with ``N_``: "What do you discard?")."""
        ...

    def puzzle_kind(self, state: Any, seat: int, legal: Sequence[Any]) -> str | None:
        """The kind of puzzle ``seat``'s decision in ``state`` (its legal actions ``legal``)
        poses, or None when it is none of them."""
        ...


def bound_memos() -> None:
    """The bot's small memo budget for every registered family's AI
    (:meth:`GameAI.bound_memos`)."""
    for info in games():
        ai_of(info.name).bound_memos()


def ai_of(game: str) -> GameAI:
    """The AI facet of a game's family (UnknownGame for a name no family registered)."""
    facet = load(game, "ai")
    if facet is None:  # pragma: no cover - the registry refuses a family without an AI
        raise LookupError(f"the game '{game}' has no computer players")
    return cast(GameAI, facet)
