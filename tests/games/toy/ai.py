"""High Pair's AI facet (the Protocol :class:`bot.ai.family.GameAI`): two levels, ``random``
and ``greedy`` (show as soon as it can, else discard the lowest single), the passive move of an
absent seat (draw, then discard the highest single: never a show), and reviews through the
generic estimator of :mod:`bot.ai.review` on greedy play-outs."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.ai.base import AnyPlayer
from bot.ai.family import GameAI
from tests.games.toy.engine import FACET as ENGINE
from tests.games.toy.engine import Discard, Draw, Show, ToyAction, ToyState, ToyView

if TYPE_CHECKING:
    from bot.ai.review import Estimator, PlayOut, Words

__all__ = ["FACET", "GreedyPlayer", "RandomPlayer", "ToyAI", "highest_single", "lowest_single"]

LEVELS = ("random", "greedy")


def lowest_single(hand: Sequence[int]) -> int:
    """The lowest card held once (the lowest card when every card is paired)."""
    counts = Counter(hand)
    singles = [c for c in hand if counts[c] == 1]
    return min(singles or hand)


def highest_single(hand: Sequence[int]) -> int:
    """The highest card held once (the lowest card when every card is paired: a pair is
    never broken up while a card is left to throw)."""
    counts = Counter(hand)
    singles = [c for c in hand if counts[c] == 1]
    return max(singles) if singles else min(hand)


class RandomPlayer:
    """Any legal action."""

    level = "random"

    def choose(self, view: ToyView, legal: Sequence[ToyAction], rng: random.Random) -> ToyAction:
        """A uniformly random legal action."""
        return legal[rng.randrange(len(legal))]


class GreedyPlayer:
    """Shows as soon as it holds a pair, else throws its lowest single."""

    level = "greedy"

    def choose(self, view: ToyView, legal: Sequence[ToyAction], rng: random.Random) -> ToyAction:
        """Draw, show, or discard the lowest single."""
        for wanted in (Draw(), Show()):
            if wanted in legal:
                return wanted
        return Discard(lowest_single(view.hand))


def _greedy_playout(state: Any, seat: int, rng: random.Random) -> float:
    """Every seat plays greedy to the end; 1.0 when ``seat`` wins."""
    player = GreedyPlayer()
    while state.result is None:
        legal = ENGINE.legal_actions(state)
        state, _ = ENGINE.apply(state, player.choose(ENGINE.view(state, state.current), legal, rng))
    return 1.0 if state.result.winner == seat else 0.0


class ToyAI:
    """High Pair for the AI layer."""

    def levels(self, game: str) -> tuple[str, ...]:
        """``random``, ``greedy``."""
        return LEVELS

    def player(self, game: str, level: str) -> AnyPlayer:
        """A fresh player; ValueError naming the levels."""
        if level == "random":
            return RandomPlayer()
        if level == "greedy":
            return GreedyPlayer()
        raise ValueError(f"unknown level '{level}': choose one of {', '.join(LEVELS)}")

    def searching(self, level: str) -> bool:
        """No level searches."""
        return False

    def passive_action(self, state: ToyState, seat: int, rng: random.Random) -> ToyAction:
        """Draw, then discard the highest single: never a show."""
        legal = ENGINE.legal_actions(state)
        if Draw() in legal:
            return Draw()
        return Discard(highest_single(ENGINE.view(state, seat).hand))

    def playout(self, game: str) -> PlayOut:
        """Greedy on every seat."""
        return _greedy_playout

    def estimator(self, game: str) -> Estimator:
        """:func:`bot.ai.review.estimate_actions` on greedy play-outs (no compiled one)."""
        from bot.ai.review import estimate_actions

        def estimate(
            state: Any, seat: int, actions: Sequence[Any], rollouts: int, rng: random.Random
        ) -> list[list[float]]:
            return estimate_actions(state, seat, actions, rollouts, rng, _greedy_playout)

        return estimate

    def action_words(self, notation: str) -> Words:
        """``drawing``, ``discarding 7``, ``showing a pair``."""
        from bot.ai.review import Words

        words = notation.split()
        if words == ["draw"]:
            return Words("drawing")
        if words == ["show"]:
            return Words("showing a pair")
        if len(words) == 2 and words[0] == "discard":
            return Words("discarding {card}", (("card", words[1]),))
        return Words(notation)

    def calibrated(self, game: str) -> Mapping[str, tuple[float, float]]:
        """No level was ever calibrated."""
        return {}

    def bound_memos(self) -> None:
        """No memo tables."""

    def warm_player(self, game: str, budget: int) -> AnyPlayer | None:
        """Nothing compiled to warm up."""
        return None

    def compiled(self, game: str) -> bool:
        """The play-outs run through the engine."""
        return False

    def rollouts(self, rules: Any) -> int:
        """A game of a few turns: 2,000 play-outs a decision."""
        return 2_000

    def choices(self, state: Any, seat: int, legal: Sequence[Any]) -> list[list[Any]]:
        """Every legal action is a choice of its own."""
        return [[action] for action in legal]

    def draws_unseen(self, action: Any) -> bool:
        """A draw takes the unseen top of the stock."""
        return isinstance(action, Draw)

    def reason(
        self, state: Any, seat: int, played: Any, best: Any, after: Sequence[tuple[int, str]]
    ) -> Words:
        """Showing wins at once; else a card was thrown that the best move kept."""
        from bot.ai.review import Words

        if isinstance(best, Show):
            return Words("a pair was there to show")
        return Words("{best} kept the better cards", (("best", str(best)),))

    def hint(self, view: ToyView, legal: Sequence[ToyAction]) -> tuple[ToyAction, Words]:
        """The greedy player's move (it sees only the view), said plainly."""
        from bot.ai.review import Words

        action = GreedyPlayer().choose(view, legal, random.Random(0))
        return action, Words("{move} keeps the better cards", (("move", str(action)),))

    def words_context(self, game: str) -> str | None:
        """The common words."""
        return None

    def position_words(self, view: ToyView) -> list[Words]:
        """The hand, the discards and the stock's size."""
        from bot.ai.review import Words

        cards = " ".join(str(c) for c in view.hand)
        discards = " ".join(str(c) for c in view.discards) or "-"
        return [
            Words("Hand: {cards}", (("cards", cards),)),
            Words("Discards: {cards}", (("cards", discards),)),
            Words("Stock: {n} cards", (("n", str(view.stock)),)),
        ]

    def puzzle_kinds(self, game: str) -> Mapping[str, str]:
        """One kind: which card to throw."""
        return {"throw": "Which card do you throw?"}

    def puzzle_kind(self, state: Any, seat: int, legal: Sequence[Any]) -> str | None:
        """A throw among two cards or more, nothing else."""
        throws = {a for a in legal if isinstance(a, Discard)}
        return "throw" if len(throws) >= 2 and len(throws) == len(legal) else None


FACET: GameAI = ToyAI()
"""High Pair's AI facet (``ai_of("high-pair")``)."""
