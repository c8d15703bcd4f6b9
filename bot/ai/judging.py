"""Judging a decision: every distinct legal move estimated within a budget of play-outs, the
play-outs spent on the close moves, and each move judged against the best one (:func:`assess`).

Every distinct legal action is a candidate (the game's family groups equivalent ones:
:meth:`bot.ai.family.GameAI.choices`). Actions that end the game are scored exactly. The others
are played out in two phases:

* *The search* (at most two thirds of the budget when a move played is judged): rounds on fresh
  shared deals, each twice the last once every candidate has had :data:`MIN_DEALS`. A candidate
  behind the leader by more than :data:`ELIMINATE_Z` standard errors of the paired difference
  stops being played out; the search stops once no candidate left could beat the leader by more
  than :data:`MARGIN` at :data:`KNOWN_Z` standard errors (the best move is known within 2
  points). So the play-outs go to the close moves.
* *The verdict*: the move played against the best one, in rounds of fresh deals until its
  verdict is settled or the budget is spent. When other moves came close to the best, only
  these fresh deals count, so that the luck that made the leader the best among several does
  not count against the move played.

Game-blind: each game's part is asked of its family.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.estimates import Estimator, default_estimator
from bot.ai.family import ai_of
from bot.ai.verdicts import (
    ELIMINATE_Z,
    FIRST_DEALS,
    KNOWN_Z,
    MARGIN,
    MIN_DEALS,
    Assessment,
    Estimate,
    Option,
    _decided,
    _difference,
    _trails,
    _upper,
    verdict_of,
)
from bot.engine import apply, legal_actions
from bot.engine.family import Action, State
from bot.engine.hidden import determinize

__all__ = ["assess", "distinct_choices"]


def _groups(state: State, seat: int, legal: Sequence[Action]) -> list[list[Action]]:
    """The legal actions, equivalent ones together (the game's family says which: in Tsung
    Shap two moves whose rows are mirror images of each other)."""
    if len(legal) < 2:
        return [[a] for a in legal]
    return ai_of(state.rules.game).choices(state, seat, legal)


def _outcome(state: State, seat: int, action: Action) -> float | None:
    """1.0 or 0.0 when ``action`` ends the game (a declaration, Tsung Shap's last tile), the
    same whatever the hidden tiles; None otherwise (a draw's depends on them)."""
    if ai_of(state.rules.game).draws_unseen(action):
        return None
    after, _ = apply(determinize(state, seat, random.Random(0)), action)
    if after.result is None:
        return None
    return 1.0 if after.result.winner == seat else 0.0


def distinct_choices(state: State, seat: int) -> int:
    """How many really different moves ``seat`` has (equivalent ones counted once)."""
    return len(_groups(state, seat, legal_actions(state)))


def assess(
    state: State,
    seat: int,
    *,
    rollouts: int,
    rng: random.Random,
    played: Action | None = None,
    expert: Action | None = None,
    estimator: Estimator | None = None,
    adaptive: bool = True,
) -> Assessment:
    """Every legal action of ``seat`` (to play in ``state``) estimated with at most
    ``rollouts`` play-outs in all, spent on the close moves (see the module's docstring), and
    judged against the best one. ``played`` is always played out until its verdict is known
    (or the budget spent); ``expert`` is only named in the result. ``adaptive=False`` spends
    the budget evenly on every move instead (a benchmark's reference)."""
    if estimator is None:
        estimator = default_estimator(state.rules.game)
    groups = _groups(state, seat, legal_actions(state))

    def group_of(action: Action | None) -> int | None:
        return next((i for i, g in enumerate(groups) if action in g), None)

    mine, experts = group_of(played), group_of(expert)
    # Each choice is named by the move played (or the expert's) when it is one of its moves.
    reps: list[Action] = [
        played if i == mine and played is not None else g[0] for i, g in enumerate(groups)
    ]
    if experts is not None and expert is not None and experts != mine:
        reps[experts] = expert
    exact: dict[int, float] = {}
    for i, action in enumerate(reps):
        outcome = _outcome(state, seat, action)
        if outcome is not None:
            exact[i] = outcome
    scores: dict[int, list[float]] = {i: [] for i in range(len(reps)) if i not in exact}
    fresh: dict[int, list[float]] = {}  # the deals that measure the loss of the move played

    def values(i: int, table: dict[int, list[float]] = scores) -> Sequence[float] | float:
        return exact[i] if i in exact else table[i]

    def mean(i: int) -> float:
        got = values(i)
        if isinstance(got, float):
            return got
        return sum(got) / len(got) if got else 0.0

    def leader_of(among: Sequence[int]) -> int:
        # Ties go to the move played, then to the expert's, then to the first.
        return max(among, key=lambda i: (mean(i), i == mine, i == experts, -i))

    def play(among: Sequence[int], deals: int, into: dict[int, list[float]]) -> int:
        got = estimator(state, seat, [reps[i] for i in among], deals, rng)
        for i, column in zip(among, got, strict=True):
            into.setdefault(i, []).extend(column)
        return deals * len(among)

    spent = 0
    alive = list(scores)
    leader = leader_of(list(range(len(reps))))
    if len(reps) > 1 and alive and not adaptive:
        spent = play(alive, max(1, rollouts // len(alive)), scores)
        leader = leader_of(list(range(len(reps))))
    elif len(reps) > 1 and alive:
        # The search: which move is best. A third of the budget is kept for the verdict.
        search = rollouts if mine is None else rollouts - rollouts // 3
        batch = max(1, min(FIRST_DEALS, search // (4 * len(alive))))
        dealt = 0  # the deals every candidate still played out has had
        while alive:
            n = min(batch, (search - spent) // len(alive))
            if n < 1:
                break
            spent += play(alive, n, scores)
            dealt += n
            leader = leader_of([*alive, *exact])
            if dealt < MIN_DEALS:
                continue  # too few deals to trust a standard error, or the leader
            alive = [
                i
                for i in alive
                if i in (leader, mine) or not _trails(values(leader), values(i), ELIMINATE_Z)
            ]
            if all(
                _upper(values(i), values(leader), KNOWN_Z) <= MARGIN for i in alive if i != leader
            ):
                break  # the best move is known within MARGIN
            batch *= 2
        # The verdict: the move played against the best one. When other moves came close to
        # the best, on fresh deals only, so that the luck that made the best move the leader
        # among them does not count against the move played; when none did, the deals so far
        # serve too (the leader was not picked from a crowd).
        pair = [i for i in (leader, mine) if i is not None and i not in exact]
        if mine is not None and mine != leader and pair:
            if set(alive) <= {leader, mine}:
                for i in pair:
                    fresh[i] = list(scores[i])
            batch = max(1, min(FIRST_DEALS, (rollouts - spent) // (4 * len(pair))))
            dealt = len(fresh.get(pair[0], ()))
            while True:
                n = min(batch, (rollouts - spent) // len(pair))
                if n < 1:
                    break
                spent += play(pair, n, fresh)
                dealt += n
                if dealt >= MIN_DEALS:
                    if _decided(values(leader, fresh), values(mine, fresh)):
                        break
                    batch *= 2
    order = [leader, *sorted((i for i in range(len(reps)) if i != leader), key=lambda i: -mean(i))]
    options: list[Option] = []
    for i in order:
        table = fresh if fresh and i in (leader, mine) else scores
        if i == leader:
            loss, se = 0.0, 0.0
        else:
            loss, se = _difference(values(leader, table), values(i, table))
        chance = Estimate.certain(exact[i]) if i in exact else Estimate.of(table[i])
        options.append(
            Option(
                action=str(reps[i]),
                chance=chance,
                loss=loss,
                loss_se=se,
                verdict=verdict_of(loss, se, best=i == leader),
                same_as=tuple(str(a) for a in groups[i] if a != reps[i]),
            )
        )
    # The best first, then by the chances shown.
    options[1:] = sorted(options[1:], key=lambda o: -o.chance.mean)
    return Assessment(
        options=tuple(options),
        played=None if played is None else str(played),
        expert=None if expert is None else str(expert),
        rollouts=spent,
    )
