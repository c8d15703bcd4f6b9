"""Win-chance estimates by Monte Carlo play-outs, and the review of a player's decisions.

**What is estimated.** The chance that a seat wins the game if it plays a given action now and
everybody (itself included) then plays as the computer's play-out policy does. Only what the seat
could see is used: each play-out starts from :func:`bot.engine.hidden.determinize` (the tiles it
has not seen dealt at random into the other hands and the wall, or the Tsung Shap piles), never
from the true hidden tiles. Every action of one decision is played out on the *same* deals
(common random numbers), so the difference between two actions is measured with less noise than
either value.

**The play-out is pluggable, at two levels.**

* A :data:`PlayOut` takes a (determinized) state, the seat being judged and a random stream,
  plays the game to its end and returns 1.0 when that seat wins and 0.0 otherwise (a drawn game
  is not a win). :func:`expert_playout` plays every seat as the ``expert`` level through the
  engine's public API.
* An :data:`Estimator` does a whole decision's work at once: ``(state, seat, actions, rollouts,
  rng) -> scores`` (per action, one score per play-out, every action on the same deals).
  :func:`estimate_actions` is the one made from a play-out. :func:`default_estimator` is what
  reviews and ``kapshap analyse`` use, the game's family's: the compiled expert play-outs where
  numba is installed (for Kap Shap and Kap Tai Shap the ``master`` level's kernel; for Tsung
  Shap :mod:`bot.games.fishing.ai.kernel`), else the engine's (expert play-outs; greedy ones for
  Tsung Shap, whose Python expert is too slow to play out).

**Judging a decision** (:func:`assess`), within a budget of ``rollouts`` play-outs
(:func:`default_rollouts`: about the same time per decision in every game). Every distinct legal
action is a candidate (two Tsung Shap moves that leave mirror-image rows are one: a tie is not
a choice). Actions that end the game are scored exactly. The others are played out in two
phases:

* *The search* (at most two thirds of the budget when a move played is judged): rounds on
  fresh shared deals, each twice the last once every candidate has had :data:`MIN_DEALS`. A
  candidate behind the leader by more than :data:`ELIMINATE_Z` standard errors of the paired
  difference stops being played out; the search stops once no candidate left could beat the
  leader by more than :data:`MARGIN` at :data:`KNOWN_Z` standard errors (the best move is known
  within 2 points). So the play-outs go to the close moves.
* *The verdict*: the move played against the best one, in rounds of fresh deals until its
  verdict is settled (what it surely lost lies clearly on one side of every threshold, and
  the difference is known within :data:`MARGIN`) or the budget is spent. When other moves came
  close to the best, only these fresh deals count, so that the luck that made the leader the
  best among several does not count against the move played.

**Verdicts** (:class:`Verdict`) compare the move played with the *best* move by the estimates,
not with the expert's choice (which is shown beside it, so the expert's mistakes show too): the
loss is the best move's chance minus the played move's, in points (percentage points of the
chance to win). A verdict names what the move *surely* lost, at 95 % confidence (its loss less
:data:`CONFIDENCE_Z` standard errors): an inaccuracy from 4 points, a mistake from 8, a
blunder from 16 (:data:`THRESHOLDS`); less, or within noise, is "about as good". Each named
mistake comes with a reason in the game's terms (:func:`reason_words`, the game's family's).

**A review** (:func:`review_decision`, :func:`decisions_of`) takes a finished game's record and
one seat: each of its decisions with a real choice, numbered as the record numbers its actions
(``kapshap analyse FILE --at N`` opens the position in which action N was played).

**Where it lives.** This module reviews a game; the rest is split by responsibility and
re-exported here: :mod:`bot.ai.estimates` (play-outs, estimators, budgets),
:mod:`bot.ai.judging` (:func:`assess`), :mod:`bot.ai.verdicts` (estimates and verdicts),
:mod:`bot.ai.review_words` (the words). Each game's own part (its compiled estimator, which
moves are equivalent, its reasons and action words) is its family's
(``bot/games/<family>/ai/review.py``), asked through :func:`bot.ai.family.ai_of`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai.estimates import (
    Estimator,
    PlayOut,
    compiled,
    default_estimator,
    default_playout,
    default_rollouts,
    estimate_actions,
    exact_values,
    expert_playout,
    greedy_playout,
    python_estimator,
)
from bot.ai.family import ai_of
from bot.ai.judging import assess, distinct_choices
from bot.ai.levels import player_for
from bot.ai.review_words import (
    ACTION_PHRASES,
    REASONS,
    REVIEW_TEMPLATES,
    SENTENCES,
    VERDICT_WORDS,
    Words,
    action_phrase,
    action_words,
)
from bot.ai.verdicts import (
    BLUNDER,
    CONFIDENCE_Z,
    ELIMINATE_Z,
    INACCURACY,
    KNOWN_Z,
    MARGIN,
    MISTAKE,
    THRESHOLDS,
    Assessment,
    Estimate,
    Option,
    Verdict,
    _points,
    percent,
    verdict_of,
)
from bot.engine import legal_actions, view
from bot.engine.family import Action, State, View
from bot.engine.record import GameRecord, replay

__all__ = [
    "ACTION_PHRASES",
    "BLUNDER",
    "CONFIDENCE_Z",
    "ELIMINATE_Z",
    "INACCURACY",
    "KNOWN_Z",
    "MARGIN",
    "MISTAKE",
    "REASONS",
    "REVIEW_TEMPLATES",
    "SENTENCES",
    "THRESHOLDS",
    "VERDICT_WORDS",
    "Assessment",
    "Decision",
    "Estimate",
    "Estimator",
    "Option",
    "PlayOut",
    "Verdict",
    "Words",
    "action_phrase",
    "action_words",
    "assess",
    "compiled",
    "decisions_of",
    "default_estimator",
    "default_playout",
    "default_rollouts",
    "distinct_choices",
    "estimate_actions",
    "exact_values",
    "expert_playout",
    "expert_words",
    "greedy_playout",
    "percent",
    "python_estimator",
    "reason_words",
    "review_decision",
    "review_rng",
    "sentence",
    "sentence_words",
    "verdict_of",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat, judged against the best move by the estimates.

    ``number`` is the action's number in the record (1-based): ``kapshap analyse FILE --at
    number`` opens the position it was played in. ``best_chance`` and ``played_chance`` are the
    chances to win after the best move and after the move played; ``loss`` (their difference,
    paired on the same deals) has the standard error ``loss_se``. ``expert`` is the expert's
    choice, shown beside. ``choices`` holds every distinct move, the best first.
    ``position`` is what the seat saw (its view) and ``legal`` what it could do, to show the
    position; ``reason`` says in the game's terms why a named mistake was worse (None for the
    others)."""

    number: int
    turn: int
    seat: int
    played: str
    best: str
    expert: str
    played_chance: Estimate
    best_chance: Estimate
    expert_chance: Estimate
    loss: float
    loss_se: float
    verdict: Verdict
    options: int
    rollouts: int
    choices: tuple[Option, ...] = ()
    reason: Words | None = None
    position: View | None = None
    legal: tuple[Action, ...] = ()

    @property
    def named(self) -> bool:
        """Whether the move is a mistake of some size (an inaccuracy, a mistake, a blunder)."""
        return self.verdict.named


def decisions_of(record: GameRecord, seat: int) -> list[int]:
    """The numbers (1-based) of ``seat``'s actions in ``record`` that were a real choice: more
    than one legal action, equivalent ones (mirror-image Tsung Shap moves) counted once."""
    out: list[int] = []
    for step in replay(record):
        state = step.before
        if (
            step.seat == seat
            and len(legal_actions(state)) > 1
            and distinct_choices(state, seat) > 1
        ):
            out.append(step.number)
    return out


def review_rng(seed: int, number: int) -> random.Random:
    """The random stream of the review of action ``number`` (``kapshap analyse --at number``
    with the same seed uses the same one, so both show the same figures)."""
    return random.Random(f"review:{seed}:{number}")


def review_decision(
    record: GameRecord,
    number: int,
    rollouts: int | None = None,
    seed: int = 0,
    estimator: Estimator | None = None,
    adaptive: bool = True,
) -> Decision:
    """Review action ``number`` of ``record`` (1-based) from its player's point of view, with
    at most ``rollouts`` play-outs (default: :func:`default_rollouts`; ``adaptive``: see
    :func:`assess`)."""
    steps = list(replay(record))
    if not 1 <= number <= len(steps):
        raise ValueError(f"the record has no action {number}")
    step = steps[number - 1]
    state, seat = step.before, step.seat
    legal = legal_actions(state)
    seen = view(state, seat)
    expert = player_for(state.rules.game, "expert").choose(seen, legal, random.Random(seed))
    budget = default_rollouts(state.rules) if rollouts is None else rollouts
    result = assess(
        state,
        seat,
        rollouts=budget,
        rng=review_rng(seed, number),
        played=step.action,
        expert=expert,
        estimator=estimator,
        adaptive=adaptive,
    )
    mine = result.option(str(step.action))
    best = result.best
    reason = None
    if mine.verdict.named:
        after = [(s.seat, str(s.action)) for s in steps[number:]]
        reason = reason_words(state, seat, step.action, _action_of(legal, best.action), after)
    return Decision(
        number=number,
        turn=state.turn,
        seat=seat,
        played=str(step.action),
        best=best.action,
        expert=str(expert),
        played_chance=mine.chance,
        best_chance=best.chance,
        expert_chance=result.option(str(expert)).chance,
        loss=mine.loss,
        loss_se=mine.loss_se,
        verdict=mine.verdict,
        options=len(result.options),
        rollouts=result.rollouts,
        choices=result.options,
        reason=reason,
        position=seen,
        legal=tuple(legal),
    )


def _action_of(legal: Sequence[Action], notation: str) -> Action:
    return next(a for a in legal if str(a) == notation)


# ---------------------------------------------------------------------------------------------
# Why a move was worse, in the game's terms


def reason_words(
    state: State,
    seat: int,
    played: Action,
    best: Action,
    after: Sequence[tuple[int, str]] = (),
) -> Words:
    """Why ``played`` was worse than ``best`` in one sentence of the game's own terms
    (:data:`REASONS`, the game's family's :meth:`~bot.ai.family.GameAI.reason`): the first of
    its reasons that holds. ``after`` is what happened next in the game, (seat, action) in
    order, for what only hindsight shows (the opponent took the tile and won). When none holds,
    the difference shows only in the play-outs, and it says so."""
    return ai_of(state.rules.game).reason(state, seat, played, best, after)


# ---------------------------------------------------------------------------------------------
# Words


def _phrase(notation: str, game: str | None) -> Words:
    """An action of ``game`` as its family words it for a sentence (Tsung Shap's ``draw``
    turns a tile over); :func:`action_phrase` when the game is not known."""
    return action_phrase(notation) if game is None else ai_of(game).action_words(notation)


def _game(decision: Decision) -> str | None:
    return decision.position.rules.game if decision.position is not None else None


def sentence_words(decision: Decision) -> Words:
    """The decision in one sentence, as :class:`Words` (:data:`SENTENCES`); :func:`sentence`
    says it in English."""
    game = _game(decision)
    played = _phrase(decision.played, game)
    after = str(decision.played_chance)
    if decision.verdict is Verdict.BEST:
        return Words(SENTENCES["best"], (("played", played), ("after", after)))
    best = _phrase(decision.best, game)
    before = str(decision.best_chance)
    if decision.verdict is Verdict.GOOD:
        return Words(
            SENTENCES["good"],
            (("played", played), ("best", best), ("after", after), ("before", before)),
        )
    return Words(
        SENTENCES[str(decision.verdict)],
        (
            ("loss", f"{max(decision.loss, 0.0) * 100:.0f}"),
            ("se", _points(decision.loss_se)),
            ("played", played),
            ("after", after),
            ("best", best),
            ("before", before),
        ),
    )


def expert_words(decision: Decision) -> Words:
    """The expert's choice and its chance, as :class:`Words`."""
    game = _game(decision)
    return Words(
        SENTENCES["expert"],
        (("expert", _phrase(decision.expert, game)), ("chance", str(decision.expert_chance))),
    )


def sentence(decision: Decision) -> str:
    """``Mistake, −18 points (± 2): discarding 3-1 (31 % ± 2 %) instead of taking 6-4 …``"""
    return _cap(sentence_words(decision).text())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
