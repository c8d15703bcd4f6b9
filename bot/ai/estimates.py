"""Win-chance estimates by Monte Carlo play-outs: the play-outs, the estimators and their budget.

The chance that a seat wins if it plays a given action now and everybody (itself included) then
plays as the computer's play-out policy does. Only what the seat could see is used: each
play-out starts from :func:`bot.engine.hidden.determinize`, never from the true hidden tiles;
every action of one decision is played out on the *same* deals (common random numbers).

A :data:`PlayOut` plays one state to its end; an :data:`Estimator` does a whole decision's work
at once. Both are the game's family's (:meth:`bot.ai.family.GameAI.playout`,
:meth:`~bot.ai.family.GameAI.estimator`: its compiled play-outs where numba is installed);
:func:`estimate_actions` and :func:`python_estimator` make one from a play-out through the
engine's public API. Game-blind: each game's part is asked of its family.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.family import Estimator, PlayOut, ai_of
from bot.ai.levels import player_for
from bot.engine import apply, legal_actions, view
from bot.engine.family import Action, Rules, State
from bot.engine.hidden import arrangements, determinize

__all__ = [
    "Estimator",
    "PlayOut",
    "compiled",
    "default_estimator",
    "default_playout",
    "default_rollouts",
    "estimate_actions",
    "exact_values",
    "expert_playout",
    "greedy_playout",
    "python_estimator",
]

_PYTHON_SHARE = 20
"""Without numba the play-outs run through the engine, 20 to 30 times slower: the default
budget is this many times smaller."""


def compiled(game: str) -> bool:
    """Whether the game's play-outs run compiled here (numba installed, the kernel on)."""
    return ai_of(game).compiled(game)


def default_rollouts(rules: Rules) -> int:
    """The play-outs a review or an analysis may spend on one decision by default: about the
    same time per decision for every game (docs/benchmarks.md, "Reviews")."""
    budget = ai_of(rules.game).rollouts(rules)
    if not compiled(rules.game):
        budget = max(100, budget // _PYTHON_SHARE)
    return budget


# ---------------------------------------------------------------------------------------------
# Play-outs and estimators


def _playout_with(level: str) -> PlayOut:
    def playout(state: State, seat: int, rng: random.Random) -> float:
        players = [player_for(state.rules.game, level) for _ in range(state.rules.players)]
        while state.result is None:
            current = state.current
            legal = legal_actions(state)
            action = players[current].choose(view(state, current), legal, rng)
            state, _ = apply(state, action)
        return 1.0 if state.result.winner == seat else 0.0

    playout.__name__ = f"{level}_playout"
    playout.__doc__ = f"Every seat plays as the {level} level, through the public engine API."
    return playout


expert_playout: PlayOut = _playout_with("expert")
"""Every seat plays as the ``expert`` level, through the public engine API."""
greedy_playout: PlayOut = _playout_with("greedy")
"""Every seat plays as the ``greedy`` level (cheaper, weaker play-outs)."""


def default_playout(game: str) -> PlayOut:
    """The play-out of the engine's estimator (the game's family's: the expert for the
    collecting games; greedy for Tsung Shap, whose Python expert searches the end of the game
    exactly and costs ten times more)."""
    return ai_of(game).playout(game)


def default_estimator(game: str) -> Estimator:
    """The estimator reviews and analyses use (the game's family's): the compiled expert
    play-outs where numba is installed; otherwise :func:`python_estimator`."""
    return ai_of(game).estimator(game)


def python_estimator(game: str) -> Estimator:
    """:func:`estimate_actions` with :func:`default_playout`: the engine's public API only."""
    playout = default_playout(game)

    def estimate(
        state: State,
        seat: int,
        actions: Sequence[Action],
        rollouts: int,
        rng: random.Random,
    ) -> list[list[float]]:
        return estimate_actions(state, seat, actions, rollouts, rng, playout)

    return estimate


def estimate_actions(
    state: State,
    seat: int,
    actions: Sequence[Action],
    rollouts: int,
    rng: random.Random,
    playout: PlayOut = expert_playout,
) -> list[list[float]]:
    """Per action, the scores of ``rollouts`` play-outs after it, on shared determinizations.

    ``state`` must be ``seat``'s turn. Each play-out deals the unseen tiles afresh
    (:func:`~bot.engine.hidden.determinize`); the same deal serves every action.
    """
    if state.current != seat or state.result is not None:
        raise ValueError("the estimate needs a state where the seat is to play")
    scores: list[list[float]] = [[] for _ in actions]
    for _ in range(rollouts):
        world = determinize(state, seat, rng)
        seed = rng.getrandbits(64)
        for index, action in enumerate(actions):
            after, _ = apply(world, action)
            scores[index].append(playout(after, seat, random.Random(seed)))
    return scores


def exact_values(
    state: State, seat: int, actions: Sequence[Action], playout: PlayOut = expert_playout
) -> list[float]:
    """Per action, the exact chance over every arrangement of the unseen tiles (each equally
    likely), for a play-out that uses no randomness. For small end positions only."""
    totals = [0.0] * len(actions)
    count = 0
    for world in arrangements(state, seat):
        count += 1
        for index, action in enumerate(actions):
            after, _ = apply(world, action)
            totals[index] += playout(after, seat, random.Random(0))
    return [t / count for t in totals]
