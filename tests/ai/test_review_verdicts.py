"""Reviews judge each move against the best move by the estimates, name only real mistakes,
never count a tie, and say why in the game's terms (issue 24).

The estimates here are the compiled play-outs (numba, which the development install brings);
each test first checks its premise with a thorough estimate (the budget spent evenly on every
move, many times the review's), so that the position really is what the test says.
"""

from __future__ import annotations

import random

import pytest

from bot.ai.review import (
    REASONS,
    Verdict,
    assess,
    decisions_of,
    default_rollouts,
    distinct_choices,
    reason_words,
    review_decision,
    review_rng,
    verdict_of,
)
from bot.engine import Tile, apply, legal_actions, make_deal, make_rules, new_game
from bot.engine.position import parse_position
from bot.engine.record import GameRecord, RecordSeat
from bot.games.collecting.ai import kernel
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.engine import FishingState
from bot.games.fishing.engine.actions import Capture, ComboKind, End, Place

compiled = pytest.mark.skipif(not kernel.available(), reason="numba is not installed")

# Kap Shap, seat 1 to take or draw (turn 6, from a game of the expert): taking 5-3 makes the
# ten-pair 6-6 + 5-3 and leaves many more ways to win; the expert draws instead.
EXPERT_DRAWS = (
    "kap-shap; rules culin; seat 1; first 0; turn 6; hand 3-1 3-1 3-3 5-1 2-1 6-6 6-1; "
    "discards 3-2@0 5-5@1 4-3@1 5-2@0 5-3@0 6-5@0; wall 12"
)
# Kap Shap, the first player's second discard: discarding 5-4 or 5-3 comes to the same.
TWO_ALIKE = (
    "kap-shap; rules culin; seat 0; first 0; turn 1; hand 4-3 5-3 3-1 3-2 4-1 6-1 4-2 5-4; "
    "last draw; discards 2-2@0; wall 16"
)
CAPTURED_12 = "6-6 6-6 1-1 1-1 4-4 4-4 3-1 3-3 3-3 2-2 2-2 6-5"


def chance_gap(position: str, better: str, worse: str, rollouts: int) -> tuple[float, float]:
    """A thorough estimate of ``better``'s chance minus ``worse``'s (and its standard error):
    every legal move gets ``rollouts`` play-outs, no search."""
    state, seat = parse_position(position)
    legal = legal_actions(state)
    result = assess(
        state, seat, rollouts=rollouts * len(legal), rng=random.Random(99), adaptive=False
    )
    a, b = result.option(better), result.option(worse)
    se = max(a.loss_se, b.loss_se)
    return b.loss - a.loss, se


@compiled
def test_a_worse_move_of_the_expert_is_a_mistake() -> None:
    """Judged against the best move, not the expert's: the expert's own mistake is named."""
    gap, se = chance_gap(EXPERT_DRAWS, "take 5-3", "draw", 4_000)
    assert gap - 3 * se > 0.07, (gap, se)  # the premise: drawing is a mistake by far
    state, seat = parse_position(EXPERT_DRAWS)
    result = assess(
        state,
        seat,
        rollouts=default_rollouts(state.rules),
        rng=review_rng(0, 1),
        played=Draw(),
        expert=Draw(),
    )
    played = result.option("draw")
    assert result.best.action == "take 5-3"
    assert played.verdict in (Verdict.MISTAKE, Verdict.BLUNDER), played
    assert result.expert == "draw"
    # Both keep the hand one tile from winning (the eye could be 6-6), but after taking 5-3
    # many more tiles complete it.
    why = reason_words(state, seat, Draw(), Take(Tile(5, 3)))
    assert why.template == REASONS["fewer-outs"]
    values = dict(why.values)
    assert int(str(values["after"])) < int(str(values["before"]))


@compiled
@pytest.mark.parametrize("seed", range(10))
def test_two_moves_within_noise_are_about_as_good(seed: int) -> None:
    """For the default budget and ten seeds: never a named mistake between two moves whose
    chances differ by less than the noise."""
    if seed == 0:
        gap, se = chance_gap(TWO_ALIKE, "discard 5-3", "discard 5-4", 6_000)
        assert abs(gap) < 0.015 and se < 0.01, (gap, se)  # the premise: alike
    state, seat = parse_position(TWO_ALIKE)
    result = assess(
        state,
        seat,
        rollouts=default_rollouts(state.rules),
        rng=review_rng(seed, 3),
        played=Discard(Tile(5, 4)),
    )
    assert result.option("discard 5-4").verdict in (Verdict.BEST, Verdict.GOOD)


def test_verdicts_name_what_was_surely_lost() -> None:
    assert verdict_of(0.0, 0.0, best=True) is Verdict.BEST
    assert verdict_of(0.04, 0.01, best=False) is Verdict.GOOD  # 4 points, but 2 for sure
    assert verdict_of(0.06, 0.01, best=False) is Verdict.INACCURACY
    assert verdict_of(0.10, 0.01, best=False) is Verdict.MISTAKE
    assert verdict_of(0.30, 0.02, best=False) is Verdict.BLUNDER
    assert verdict_of(0.30, 0.10, best=False) is Verdict.MISTAKE  # 30 ± 10: 10 for sure
    assert verdict_of(-0.05, 0.01, best=False) is Verdict.GOOD  # did better on these deals


# ---------------------------------------------------------------------------------------------
# Tsung Shap: ties are no choice


def test_mirror_placements_are_one_choice() -> None:
    """Placing either side of a single tile, or of a row that reads the same both ways, leaves
    rows that are mirror images: no decision, and one option in an analysis."""
    for row, piles in (("6-4", "15 15"), ("5-5 3-1 5-5", "14 14")):
        state, seat = parse_position(f"tsung-shap; row {row}; turned 6-1; piles {piles}")
        assert {str(a) for a in legal_actions(state)} == {"place left", "place right"}
        assert distinct_choices(state, seat) == 1
        result = assess(state, seat, rollouts=50, rng=random.Random(1), played=Place(End.RIGHT))
        [option] = result.options
        assert option.verdict is Verdict.BEST and {option.action, *option.same_as} == {
            "place left",
            "place right",
        }
    # Not a palindrome: two choices.
    state, seat = parse_position("tsung-shap; row 6-4 5-5; turned 6-1; piles 15 14")
    assert distinct_choices(state, seat) == 2


def test_a_mirror_choice_is_never_reviewed() -> None:
    """In whole games, every step whose moves are only mirror images is left out."""
    rules = make_rules("tsung-shap", 2)
    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        state: FishingState = new_game(rules, ["a", "b"], make_deal(rules, rng))
        actions: list[str] = []
        mirrors: list[int] = []
        while state.result is None:
            legal = legal_actions(state)
            if len(legal) == 2 and distinct_choices(state, state.current) == 1:
                mirrors.append(len(actions) + 1)
            action = legal[rng.randrange(len(legal))]
            state, _ = apply(state, action)
            actions.append(str(action))
        if not mirrors:
            continue
        record = GameRecord(rules, (RecordSeat("a"), RecordSeat("b")), state.deal, tuple(actions))
        numbers = decisions_of(record, 0) + decisions_of(record, 1)
        assert not set(mirrors) & set(numbers)
        seen += len(mirrors)
        if seen >= 3:
            return
    pytest.fail("no mirror choice in 40 games")


def test_an_exact_tie_goes_to_the_move_played() -> None:
    """The last tile, no capture possible, behind on points: both placements lose for sure."""
    position = (
        "tsung-shap; row 6-4 5-5 3-1; turned 6-1; scores 0 50; piles 0 16; "
        f"captured 1: {CAPTURED_12}"
    )
    state, seat = parse_position(position)
    for played in (Place(End.LEFT), Place(End.RIGHT)):
        result = assess(state, seat, rollouts=100, rng=random.Random(0), played=played)
        assert result.rollouts == 0  # the outcome is certain: no play-out
        assert result.best.action == str(played) and result.best.verdict is Verdict.BEST
        assert all(o.chance.exact and o.chance.mean == 0.0 for o in result.options)


# ---------------------------------------------------------------------------------------------
# Why, in the game's terms (no play-outs: these read the position)


@pytest.mark.parametrize(
    ("position", "played", "best", "key", "text"),
    [
        (
            "kap-shap; seat 1; first 1; turn 13; hand 5-1 2-2 4-1 3-2 2-2 3-1 2-1 6-1; "
            "last take 6-1; discards 4-4@0 6-4@1 5-4@1 5-3@1 4-3@0 1-1@0 6-5@1 3-3@0 6-1@0 "
            "6-6@1 1-1@1 5-1@0; known 0: 5-5 5-5 6-4; wall 5",
            Discard(Tile(3, 1)),
            Declare(),
            "declare",
            "The hand was a winning hand: declaring wins at once.",
        ),
        (
            "kap-shap; seat 1; first 1; turn 1; hand 5-5 5-5 5-1 2-2 4-1 3-2 6-4 5-3; last deal",
            Discard(Tile(5, 5)),
            Discard(Tile(6, 4)),
            "broke-eye",
            "It broke the eye 5-5 + 5-5, leaving the hand further from winning.",
        ),
        (
            "kap-shap; seat 1; first 1; turn 1; hand 5-5 5-5 5-1 2-2 4-1 3-2 6-4 5-3; last deal",
            Discard(Tile(2, 2)),
            Discard(Tile(6, 4)),
            "broke-pair",
            "It broke the ten-pair 2-2 + 5-1, leaving the hand further from winning.",
        ),
        (
            "kap-shap; seat 1; first 1; turn 3; hand 5-5 5-1 2-2 4-1 3-2 5-3 6-6; "
            "discards 6-4@1 4-4@0 5-5@0; wall 15",
            Take(Tile(4, 4)),
            Take(Tile(5, 5)),
            "winning-take",
            "5-5 in the discards completed your hand.",
        ),
        (
            "kap-shap; seat 1; first 1; turn 1; hand 5-5 5-1 2-2 4-1 3-2 6-4 5-3 6-6; "
            "last draw; discards 5-5@1; wall 16",
            Discard(Tile(5, 5)),
            Discard(Tile(6, 4)),
            "winning-pool",
            "Keeping 5-5 would have let you win with the 5-5 in the discards.",
        ),
        (
            "kap-shap; seat 1; first 1; turn 1; hand 5-5 5-5 5-1 2-2 4-1 3-2 6-4 5-3; last deal",
            Discard(Tile(2, 2)),
            Discard(Tile(5, 5)),
            "fewer-outs",
            "It left fewer tiles to bring the hand closer to winning (unseen, or in the "
            "discards to take): 9 against 17.",
        ),
        (
            f"tsung-shap; row 6-4 5-5 3-1; turned 6-4; scores 0 5; piles 0 16; "
            f"captured 1: {CAPTURED_12}",
            Place(End.LEFT),
            Capture(ComboKind.PAIR, End.LEFT),
            "missed-capture",
            "It missed a capture of 200 points, which the opponent may claim.",
        ),
    ],
)
def test_why_in_the_games_terms(
    position: str, played: object, best: object, key: str, text: str
) -> None:
    state, seat = parse_position(position)
    legal = legal_actions(state)
    assert played in legal and best in legal
    words = reason_words(state, seat, played, best)  # type: ignore[arg-type]
    assert words.template == REASONS[key]
    assert words.text() == text


def test_hindsight_names_who_took_the_tile_and_won() -> None:
    """4-1 and 3-2 both count 5: either discard leaves the hand as near to winning. What
    happened next says why one was worse: the next player took it and declared."""
    position = "kap-shap; seat 0; first 0; turn 1; hand 3-1 2-2 6-1 5-3 4-3 4-1 3-2 4-2; last deal"
    state, seat = parse_position(position)
    played, best = Discard(Tile(4, 1)), Discard(Tile(3, 2))
    won = [(0, "draw"), (0, "discard 2-2"), (1, "take 4-1"), (1, "declare")]
    words = reason_words(state, seat, played, best, won)
    assert words.template == REASONS["gave-winner"]
    assert words.text() == f"It gave {state.seats[1]} the tile he won with."
    # He took it but did not win with it, or did something else first: no such reason.
    for after in (
        [(0, "draw"), (0, "discard 2-2"), (1, "take 4-1"), (1, "discard 6-6")],
        [(0, "draw"), (0, "discard 2-2"), (1, "draw"), (1, "discard 6-6")],
    ):
        assert reason_words(state, seat, played, best, after).template != REASONS["gave-winner"]


# ---------------------------------------------------------------------------------------------
# The review of a record


@compiled
def test_a_review_decision_carries_the_position_and_the_options() -> None:
    rules = make_rules("kap-shap", 2)
    rng = random.Random(2)
    state = new_game(rules, ["a", "b"], make_deal(rules, rng))
    actions: list[str] = []
    while state.result is None:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, _ = apply(state, action)
        actions.append(str(action))
    record = GameRecord(rules, (RecordSeat("a"), RecordSeat("b")), state.deal, tuple(actions))
    numbers = decisions_of(record, 0)
    decision = review_decision(record, numbers[0], rollouts=400)
    assert decision.played == actions[numbers[0] - 1]
    assert decision.position is not None and decision.position.seat == 0
    assert {o.action for o in decision.choices} == {str(a) for a in decision.legal}
    assert decision.choices[0].action == decision.best
    assert 0 < decision.rollouts <= 400
    assert (decision.reason is not None) == decision.verdict.named
