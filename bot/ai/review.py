"""Win-chance estimates by Monte Carlo play-outs, and the review of a player's decisions.

**What is estimated.** The chance that a seat wins the game if it plays a given action now and
everybody (itself included) then plays as the computer's play-out policy does. Only what the seat
could see is used: each play-out starts from :func:`bot.engine.hidden.determinize` (the tiles it
has not seen dealt at random into the other hands and the wall, or the Tsung Shap piles), never
from the true hidden tiles. Every action of one decision is played out on the *same* deals
(common random numbers), so the difference between two actions is measured with less noise than
either value; both the values' and the difference's standard errors are reported.

**The play-out is pluggable, at two levels.**

* A :data:`PlayOut` takes a (determinized) state, the seat being judged and a random stream,
  plays the game to its end and returns 1.0 when that seat wins and 0.0 otherwise (a drawn game
  is not a win). :func:`expert_playout` plays every seat as the ``expert`` level through the
  engine's public API.
* An :data:`Estimator` does a whole decision's work at once: ``(state, seat, actions, rollouts,
  rng) -> scores`` (per action, one score per play-out, every action on the same deals).
  :func:`estimate_actions` is the one made from a play-out; a compiled kernel that deals and
  plays out itself (the ``master`` level's) fits here, with its scores mapped to 1 for a win
  and 0 otherwise (:func:`kernel_estimator`). :func:`default_estimator` is what reviews and
  ``kapshap analyse`` use: the kernel's for Kap Shap and Kap Tai Shap where numba is
  installed, else the engine's.

**A review** (:func:`review_decision`, :func:`decisions_of`) takes a finished game's record and
one seat: for each of its decisions with more than one legal action, the expert's choice and the
estimated chance before (playing the expert's choice) and after (what the player did).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.ai.base import player_for
from bot.engine import AnyAction, AnyState, apply, legal_actions, view
from bot.engine.hidden import arrangements, determinize
from bot.engine.record import GameRecord, replay
from bot.engine.rules import Game

__all__ = [
    "ACTION_PHRASES",
    "DEFAULT_ROLLOUTS",
    "REVIEW_TEMPLATES",
    "SENTENCES",
    "Decision",
    "Estimate",
    "Estimator",
    "PlayOut",
    "Words",
    "action_phrase",
    "action_words",
    "decisions_of",
    "default_estimator",
    "default_playout",
    "estimate_actions",
    "exact_values",
    "expert_playout",
    "greedy_playout",
    "kernel_estimator",
    "percent",
    "python_estimator",
    "review_decision",
    "sentence",
    "sentence_words",
]

DEFAULT_ROLLOUTS = 200
"""Play-outs per decision by default: a standard error of at most 3.5 points per value."""

PlayOut = Callable[[AnyState, int, random.Random], float]
"""Plays a state to its end; 1.0 if the given seat wins, else 0.0."""

Estimator = Callable[[AnyState, int, Sequence[AnyAction], int, random.Random], list[list[float]]]
"""``(state, seat, actions, rollouts, rng) -> scores``: per action, ``rollouts`` scores (1.0 a
win for ``seat``, else 0.0), every action played out on the same determinized deals."""


def _playout_with(level: str) -> PlayOut:
    def playout(state: AnyState, seat: int, rng: random.Random) -> float:
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


def default_playout(game: Game | str) -> PlayOut:
    """The play-out a review uses by default: the expert for the collecting games; greedy for
    Tsung Shap, whose expert searches the end of the game exactly and costs ten times more."""
    return greedy_playout if Game(game) is Game.TSUNG_SHAP else expert_playout


def default_estimator(game: Game | str) -> Estimator:
    """The estimator reviews and analyses use: for Kap Shap and Kap Tai Shap, where numba is
    installed, :func:`kernel_estimator` (the same expert play-outs, compiled); otherwise
    :func:`estimate_actions` with :func:`default_playout`."""
    if Game(game) is not Game.TSUNG_SHAP and _kernel_here():
        return kernel_estimator
    return python_estimator(game)


def _kernel_here() -> bool:
    try:
        from bot.ai import kernel  # numba and numpy load only for a collecting-game review
    except ImportError:  # pragma: no cover - the module itself imports without numpy
        return False
    return kernel.available()


def python_estimator(game: Game | str) -> Estimator:
    """:func:`estimate_actions` with :func:`default_playout`: the engine's public API only."""
    playout = default_playout(game)

    def estimate(
        state: AnyState,
        seat: int,
        actions: Sequence[AnyAction],
        rollouts: int,
        rng: random.Random,
    ) -> list[list[float]]:
        return estimate_actions(state, seat, actions, rollouts, rng, playout)

    return estimate


def kernel_estimator(
    state: AnyState,
    seat: int,
    actions: Sequence[AnyAction],
    rollouts: int,
    rng: random.Random,
) -> list[list[float]]:
    """An :data:`Estimator` for Kap Shap and Kap Tai Shap on the compiled kernel: the deals
    are uniform over what ``seat``'s view hides (as :func:`~bot.engine.hidden.determinize`),
    and every seat plays the expert (as :func:`expert_playout`), in the kernel of the
    ``master`` level. Falls back to :func:`estimate_actions` for anything it cannot map (Tsung
    Shap, a compulsory draw)."""
    from bot.ai.knowledge import read_view
    from bot.ai.master import play_outs
    from bot.engine import Declare, Discard, Draw, Take
    from bot.engine.collecting import Phase

    fallback = python_estimator(state.rules.game)
    if state.current != seat or state.result is not None:
        raise ValueError("the estimate needs a state where the seat is to play")
    if state.rules.game is Game.TSUNG_SHAP or state.phase not in (
        Phase.TAKE_OR_DRAW,
        Phase.DISCARD,
    ):
        return fallback(state, seat, actions, rollouts, rng)
    columns: list[int] = []
    for action in actions:
        if isinstance(action, Take | Discard) and action.tile is not None:
            columns.append(action.tile.index)
        elif isinstance(action, Draw | Declare):
            columns.append(-1)
        else:
            return fallback(state, seat, actions, rollouts, rng)
    seat_view = view(state, seat)
    seen = read_view(seat_view, legal_actions(state))  # type: ignore[arg-type]
    candidates = sorted(set(columns))
    keys = [rng.getrandbits(64) for _ in range(rollouts)]
    rows = play_outs(seat_view, seen, candidates, keys)  # type: ignore[arg-type]
    # The kernel scores another seat's win below zero and a drawn game 0: only a win counts.
    return [[1.0 if row[candidates.index(c)] >= 1.0 else 0.0 for row in rows] for c in columns]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A chance to win: ``mean`` over ``n`` play-outs, with its standard error."""

    mean: float
    se: float
    n: int

    @classmethod
    def of(cls, scores: Sequence[float]) -> Estimate:
        """The mean of ``scores`` and its standard error (sample standard deviation / √n)."""
        n = len(scores)
        if n == 0:
            return cls(0.0, 0.0, 0)
        mean = sum(scores) / n
        if n == 1:
            return cls(mean, 0.0, 1)
        var = sum((x - mean) ** 2 for x in scores) / (n - 1)
        return cls(mean, math.sqrt(var / n), n)

    def __str__(self) -> str:
        return f"{self.mean:.0%} ± {self.se:.0%}".replace("%", " %")


def estimate_actions(
    state: AnyState,
    seat: int,
    actions: Sequence[AnyAction],
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
    state: AnyState, seat: int, actions: Sequence[AnyAction], playout: PlayOut = expert_playout
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


# ---------------------------------------------------------------------------------------------
# Reviewing a game


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat: what it played, what the expert would have played,
    and the chance to win after each (``before`` is the expert's choice, ``after`` the
    player's; the same estimate when they agree). ``loss_se`` is the standard error of
    ``before - after`` (paired: same deals)."""

    number: int  # the action's number in the record (1-based)
    turn: int
    played: str
    best: str
    before: Estimate
    after: Estimate
    loss_se: float
    options: int

    @property
    def loss(self) -> float:
        """How much the played action lowered the chance to win (negative: it did better)."""
        return self.before.mean - self.after.mean

    @property
    def agreed(self) -> bool:
        """Whether the player chose what the expert would have."""
        return self.played == self.best


def decisions_of(record: GameRecord, seat: int) -> list[int]:
    """The numbers (1-based) of ``seat``'s actions in ``record`` that had an alternative."""
    out: list[int] = []
    for step in replay(record):
        if step.seat == seat and len(legal_actions(step.before)) > 1:
            out.append(step.number)
    return out


def review_decision(
    record: GameRecord,
    number: int,
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
    estimator: Estimator | None = None,
) -> Decision:
    """Review action ``number`` of ``record`` (1-based) from its player's point of view."""
    step = None
    for step in replay(record):
        if step.number == number:
            break
    if step is None or step.number != number:
        raise ValueError(f"the record has no action {number}")
    state, seat = step.before, step.seat
    legal = legal_actions(state)
    rng = random.Random(f"review:{seed}:{number}")
    expert = player_for(state.rules.game, "expert")
    best = expert.choose(view(state, seat), legal, random.Random(seed))
    played = step.action
    actions: list[AnyAction] = [best] if best == played else [best, played]
    if estimator is None:
        estimator = default_estimator(state.rules.game)
    scores = estimator(state, seat, actions, rollouts, rng)
    before = Estimate.of(scores[0])
    after = Estimate.of(scores[-1])
    diffs = [a - b for a, b in zip(scores[0], scores[-1], strict=True)]
    return Decision(
        number=number,
        turn=state.turn,
        played=str(played),
        best=str(best),
        before=before,
        after=after,
        loss_se=Estimate.of(diffs).se,
        options=len(legal),
    )


#: The review's words as English templates (message ids). The AI layer may not import the
#: catalogue (bot.locale), so it returns :class:`Words` (a template and its values) and the
#: layers that speak a member's language translate them; the catalogue test reads these
#: tables. Values named ``tile`` are tiles in notation, ``kind`` and ``end`` words of the game
#: (``pair``, ``left``: the catalogue's ``term`` context).
ACTION_PHRASES: dict[str, str] = {
    "take": "taking {tile}",
    "take-offer": "taking",
    "draw": "drawing",
    "discard": "discarding {tile}",
    "declare": "declaring",
    "place": "placing on the {end}",
    "capture": "capturing a {kind} on the {end}",
    "capture-ends": "capturing a {kind} on both ends",
    "claim": "claiming a {kind} on the {end}",
    "claim-ends": "claiming a {kind} on both ends",
}
#: A decision in one sentence (``played`` and ``best`` are :data:`ACTION_PHRASES`; ``before``
#: and ``after`` chances such as ``31 %``).
SENTENCES: dict[str, str] = {
    "agreed": "{played}: the expert's choice too ({after}).",
    "kept": "{played} instead of {best} kept your chance at {after}.",
    "lowered": "{played} instead of {best} lowered your chance from {before} to {after}.",
    "raised": "{played} instead of {best} raised your chance from {before} to {after}.",
}
#: Every template above (what a catalogue must translate).
REVIEW_TEMPLATES: tuple[str, ...] = (*ACTION_PHRASES.values(), *SENTENCES.values())


@dataclass(frozen=True, slots=True)
class Words:
    """Words to say: an English ``template`` (a message id, ``{field}`` placeholders) and its
    ``values``, each plain text or :class:`Words` itself. :meth:`text` says them."""

    template: str
    values: tuple[tuple[str, str | Words], ...] = ()

    def text(self, say: Callable[[str, str, str | None], str] | None = None) -> str:
        """The words as text. ``say(kind, text, field)`` words each part: ``kind`` is
        ``"template"`` (``field`` None) or ``"value"`` (a plain value of ``field``); without
        ``say``, English."""
        template = self.template if say is None else say("template", self.template, None)
        values = {
            name: value.text(say)
            if isinstance(value, Words)
            else (value if say is None else say("value", value, name))
            for name, value in self.values
        }
        return template.format(**values) if values else template


def action_phrase(notation: str) -> Words:
    """An action as a gerund phrase: ``drawing``, ``taking 6-4``, ``placing on the left``,
    ``capturing a pair on the left`` … (:data:`ACTION_PHRASES`)."""
    words = notation.split()
    verb, rest = (words[0], words[1:]) if words else ("", [])
    if verb in ("capture", "claim") and len(rest) == 2:
        key = f"{verb}-ends" if rest[1] == "ends" else verb
        values: tuple[tuple[str, str | Words], ...] = (("kind", rest[0]),)
        if rest[1] != "ends":
            values += (("end", rest[1]),)
        return Words(ACTION_PHRASES[key], values)
    if verb == "place" and rest:
        return Words(ACTION_PHRASES["place"], (("end", rest[0]),))
    if verb in ("take", "discard") and len(rest) == 1:
        return Words(ACTION_PHRASES[verb], (("tile", rest[0]),))
    if verb == "take" and not rest:
        return Words(ACTION_PHRASES["take-offer"])
    if verb in ("draw", "declare") and not rest:
        return Words(ACTION_PHRASES[verb])
    return Words(notation)  # not an action the engine writes: shown as it is


def action_words(notation: str) -> str:
    """An action as a gerund for a sentence: ``drawing``, ``taking 6-4``, ``discarding 3-1``,
    ``placing left``, ``capturing a pair on the left`` …"""
    return action_phrase(notation).text()


def percent(chance: float) -> str:
    """``0.31`` -> ``31 %``."""
    return f"{chance:.0%}".replace("%", " %")


def sentence_words(decision: Decision) -> Words:
    """The decision in one sentence, as :class:`Words` (:data:`SENTENCES`); :func:`sentence`
    says it in English."""
    before, after = percent(decision.before.mean), percent(decision.after.mean)
    played = action_phrase(decision.played)
    if decision.agreed:
        return Words(SENTENCES["agreed"], (("played", played), ("after", after)))
    best = action_phrase(decision.best)
    if before == after:
        return Words(SENTENCES["kept"], (("played", played), ("best", best), ("after", after)))
    key = "lowered" if decision.loss > 0 else "raised"
    return Words(
        SENTENCES[key],
        (("played", played), ("best", best), ("before", before), ("after", after)),
    )


def sentence(decision: Decision) -> str:
    """``Drawing instead of taking 6-4 lowered your chance from 31 % to 22 %.``"""
    return _cap(sentence_words(decision).text())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
