"""Tsung Shap's lesson: captures (pair, triplet, sweep) and claiming a missed capture.

Every position is a fixed deal (the tiles each pile turns over, in order) with the moves played
on it; a choice is right when the engine scores it highest among the legal moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.family import engine_of
from bot.engine.tiles import parse_tiles
from bot.games.fishing.engine.machine import deal_from_piles
from bot.games.fishing.engine.model import FishingState
from bot.lessons.model import Lesson, Position, Step
from bot.locale import N_

__all__ = ["GAME", "LESSONS"]

GAME = "tsung-shap"
ME = 0  # the member's seat (he turns over the first tile)


def _position(mine: str, theirs: str, moves: Sequence[str]) -> Position:
    """A game whose piles turn over ``mine`` and ``theirs`` first, with ``moves`` played."""
    engine = engine_of(GAME)
    rules = engine.make_rules(GAME, 2, None)
    deal = deal_from_piles(rules, parse_tiles(mine), parse_tiles(theirs), first_seat=ME)
    state: FishingState = engine.new_game(rules, ["You", "Computer"], deal)
    for move in moves:
        state, _ = engine.apply(state, engine.parse_action(move))
    return Position(state, ME)


def _gain(state: FishingState, seat: int, text: str) -> int:
    engine = engine_of(GAME)
    after, _ = engine.apply(state, engine.parse_action(text))
    return int(after.scores[seat] - state.scores[seat])


def _best_score(position: Position, key: str) -> bool:
    """The move that scores the most now (a capture or a claim; placing scores nothing)."""
    state: FishingState = position.state
    gains = {
        str(a): _gain(state, position.seat, str(a)) for a in engine_of(GAME).legal_actions(state)
    }
    best = max(gains.values())
    return best > 0 and gains.get(key) == best


def _pair() -> Position:
    return _position("3-3 3-3", "6-5", ("draw", "draw", "draw"))


def _sweep() -> Position:
    return _position("3-3 2-1", "6-5", ("draw", "draw", "draw"))


def _triplet() -> Position:
    return _position(
        "4-4 2-2 6-3",
        "6-1 5-1",
        ("draw", "draw", "draw", "place right", "draw", "place left", "draw"),
    )


def _claim() -> Position:
    return _position(
        "4-4 2-2 1-1",
        "6-1 5-1 6-3",
        (
            "draw",
            "draw",
            "draw",
            "place right",
            "draw",
            "place left",
            "draw",
            "place left",
            "draw",
            "place left",
        ),
    )


CAPTURES = Lesson(
    key="tsung-shap-captures",
    game=GAME,
    title=N_("Captures, claims and scoring"),
    summary=N_("Pairs, triplets and sweeps, what each scores, and claiming a missed capture."),
    steps=(
        Step(
            prompt=N_(
                "You turned over 3-3, and the row's left end is 3-3. An identical tile at an "
                "end is a pair. What do you do?"
            ),
            position=_pair,
            answer="capture pair left",
            judge=_best_score,
            right=N_("Right: a pair scores 10 times the pips of both tiles: 10 × 12 = 120."),
            wrong=N_("Your 3-3 is identical to the left end: capture the pair for 120 points."),
        ),
        Step(
            prompt=N_(
                "You turned over 6-3. Three tiles totalling a multiple of ten are a triplet: "
                "yours and the two at one end, or yours and both ends. Which move scores?"
            ),
            position=_triplet,
            answer="capture triplet right",
            judge=_best_score,
            right=N_("Right: 6-3, 2-2 and 6-1 total 20, and a triplet scores its pips: 20."),
            wrong=N_("6-3 with the right end's 2-2 and 6-1 totals 9 + 4 + 7 = 20: capture them."),
        ),
        Step(
            prompt=N_("You turned over 2-1 and the row holds only 3-3 and 6-5. Which move scores?"),
            position=_sweep,
            answer="capture triplet ends",
            judge=_best_score,
            right=N_(
                "Right: 3 + 6 + 11 = 20 takes the last two tiles of the row: a sweep, 40 points."
            ),
            wrong=N_("2-1 with both ends totals 3 + 6 + 11 = 20: take the whole row for a sweep."),
        ),
        Step(
            prompt=N_(
                "Your opponent placed 6-3 at the left end although 6-3, 2-2 and 6-1 on the "
                "right made 20. At the start of your turn you may claim a missed capture. "
                "What do you do?"
            ),
            position=_claim,
            answer="claim triplet right",
            judge=_best_score,
            right=N_("Right: the capture he missed scores for you; now turn over your tile."),
            wrong=N_("He missed a capture: claim it before you turn over your tile, or it lapses."),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (CAPTURES,)
