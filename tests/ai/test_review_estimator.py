"""The win-chance estimator: no peeking at hidden tiles, and agreement with exact enumeration."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.ai.review import (
    Decision,
    Estimate,
    Verdict,
    decisions_of,
    estimate_actions,
    exact_values,
    expert_playout,
    greedy_playout,
    review_decision,
    sentence,
)
from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.hidden import arrangement_count, arrangements, determinize, unseen_pieces
from bot.engine.record import GameRecord, RecordSeat
from bot.engine.tiles import kind_of_piece
from bot.games.collecting.engine.machine import GameState
from bot.games.fishing.engine import FishingState


def end_position(max_wall: int, seed0: int = 0) -> GameState:
    """A Kap Shap position reached by random play with at most ``max_wall`` tiles in the wall,
    a choice to make and few hidden arrangements."""
    rules = make_rules("kap-shap", 2)
    for seed in range(seed0, seed0 + 500):
        rng = random.Random(seed)
        state: GameState = new_game(rules, ["a", "b"], make_deal(rules, rng))
        while state.result is None:
            legal = legal_actions(state)
            if (
                state.wall_size <= max_wall
                and 1 < len(legal) <= 4
                and 1 < arrangement_count(state, state.current) <= 40
            ):
                return state
            state, _ = apply(state, legal[rng.randrange(len(legal))])
    raise AssertionError("no end position found")


def kinds(state: GameState) -> tuple[object, ...]:
    return (
        tuple(tuple(sorted(kind_of_piece(p).index for p in h)) for h in state.hands),
        tuple(kind_of_piece(p) for p in state.wall[state.wall_pos :]),
    )


def test_determinize_keeps_what_the_seat_sees() -> None:
    state = end_position(3)
    seat = state.current
    for i in range(20):
        world = determinize(state, seat, random.Random(i))
        assert isinstance(world, GameState)
        assert view(world, seat) == view(state, seat)
        assert sorted(unseen_pieces(world, seat)) == sorted(unseen_pieces(state, seat))


def test_determinize_never_depends_on_the_hidden_tiles() -> None:
    """Two states that look the same to the seat give the same determinized worlds."""
    state = end_position(3)
    seat = state.current
    other = 1 - seat
    hand, wall = list(state.hands[other]), list(state.wall)
    # Swap a hidden tile of the opponent with one in the wall of another kind.
    i = next(
        i
        for i in range(len(hand))
        if kind_of_piece(hand[i]) != kind_of_piece(wall[state.wall_pos])
        and kind_of_piece(hand[i]) not in [m.tile for m in state.history if m.seat == other]
    )
    hand[i], wall[state.wall_pos] = wall[state.wall_pos], hand[i]
    hands = list(state.hands)
    hands[other] = tuple(hand)
    twin = replace(state, hands=tuple(hands), wall=tuple(wall))
    assert kinds(twin) != kinds(state)
    assert view(twin, seat) == view(state, seat)
    for i in range(10):
        a = determinize(state, seat, random.Random(i))
        b = determinize(twin, seat, random.Random(i))
        assert isinstance(a, GameState) and isinstance(b, GameState)
        assert kinds(a) == kinds(b)


def test_arrangements_are_every_world_once() -> None:
    state = end_position(2)
    seat = state.current
    worlds = [kinds(w) for w in arrangements(state, seat)]  # type: ignore[arg-type]
    assert len(worlds) == arrangement_count(state, seat)
    for world in arrangements(state, seat):
        assert view(world, seat) == view(state, seat)


def uncertain_end_positions(count: int) -> list[tuple[GameState, list[float]]]:
    """End positions where some action's exact chance is neither 0 nor 1 (a real test)."""
    found: list[tuple[GameState, list[float]]] = []
    seen: set[tuple[int, ...]] = set()
    seed = 0
    while len(found) < count:
        state = end_position(2, seed)
        seed += 1
        if state.deal.order in seen:
            continue
        seen.add(state.deal.order)
        actions = legal_actions(state)
        exact = exact_values(state, state.current, actions, expert_playout)
        if any(0.05 < value < 0.95 for value in exact):
            found.append((state, exact))
    return found


def test_the_estimate_agrees_with_exact_enumeration() -> None:
    for state, exact in uncertain_end_positions(2):
        seat = state.current
        actions = legal_actions(state)
        scores = estimate_actions(state, seat, actions, 150, random.Random(1), expert_playout)
        for action, value, sample in zip(actions, exact, scores, strict=True):
            estimate = Estimate.of(sample)
            # Within 4 standard errors (plus a little for a sample that happened to be constant).
            assert abs(estimate.mean - value) <= 4 * estimate.se + 0.03, (action, value, estimate)


def test_estimate_standard_error() -> None:
    """The Agresti-Coull standard error (two wins and two losses added): never 0 for a sampled
    chance, however one-sided the play-outs; an exact chance says so."""
    assert Estimate.of([1.0, 0.0, 1.0, 0.0]).mean == 0.5
    assert Estimate.of([1.0, 0.0, 1.0, 0.0]).se == pytest.approx((0.25 / 8) ** 0.5)
    assert Estimate.of([]).n == 0
    wins = Estimate.of([1.0] * 200)
    assert wins.mean == 1.0 and 0.005 < wins.se < 0.01
    assert str(wins) == "100 % ± 1 %"
    assert str(Estimate.of([1.0] * 2000)) == "100 % ± <1 %"
    assert str(Estimate(0.31, 0.02, 100)) == "31 % ± 2 %"
    assert str(Estimate.certain(1.0)) == "100 %"


def test_review_of_a_game() -> None:
    rules = make_rules("kap-shap", 2)
    rng = random.Random(2)
    deal = make_deal(rules, rng)
    state: GameState = new_game(rules, ["a", "b"], deal)
    actions: list[str] = []
    while state.result is None:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, _ = apply(state, action)
        actions.append(str(action))
    record = GameRecord(rules, (RecordSeat("a"), RecordSeat("b")), deal, tuple(actions))
    numbers = decisions_of(record, 0)
    assert numbers
    decision = review_decision(record, numbers[0], rollouts=20)
    assert 0 < decision.rollouts <= 20
    assert 0.0 <= decision.played_chance.mean <= 1.0
    assert decision.options > 1


def _decision(played: str, best: str, verdict: Verdict, loss: float = 0.0) -> Decision:
    after, before = Estimate(0.22, 0.03, 200), Estimate(0.22 + loss, 0.03, 200)
    return Decision(3, 2, 0, played, best, best, after, before, before, loss, 0.02, verdict, 3, 400)


def test_sentences() -> None:
    d = _decision("draw", "take 6-4", Verdict.MISTAKE, 0.09)
    assert sentence(d) == (
        "Mistake, −9 points (± 2): drawing (22 % ± 3 %) instead of taking 6-4 (31 % ± 3 %)."
    )
    assert sentence(replace(d, verdict=Verdict.BLUNDER)).startswith("Blunder, −9 points")
    best = _decision("draw", "draw", Verdict.BEST)
    assert sentence(best) == "Drawing: the best move (22 % ± 3 %)."
    good = _decision("discard 3-1", "discard 5-5", Verdict.GOOD, 0.01)
    assert sentence(good) == (
        "Discarding 3-1: about as good as discarding 5-5 (22 % ± 3 % against 23 % ± 3 %)."
    )
    fishing = _decision("capture pair left", "place right", Verdict.INACCURACY, 0.05)
    assert "capturing a pair on the left (22 % ± 3 %) instead of placing on the right" in (
        sentence(fishing)
    )


def fishing_end_position(unseen: int) -> FishingState:
    """A Tsung Shap position of random play with ``unseen`` tiles or fewer face down."""
    rules = make_rules("tsung-shap", 2)
    for seed in range(200):
        rng = random.Random(seed)
        state: FishingState = new_game(rules, ["a", "b"], make_deal(rules, rng))
        while state.result is None:
            legal = legal_actions(state)
            if len(legal) > 1 and 1 < len(unseen_pieces(state, state.current)) <= unseen:
                return state
            state, _ = apply(state, legal[rng.randrange(len(legal))])
    raise AssertionError("no end position found")


def test_tsung_shap_determinize_and_exact_agreement() -> None:
    state = fishing_end_position(4)
    seat = state.current
    for i in range(5):
        world = determinize(state, seat, random.Random(i))
        assert view(world, seat) == view(state, seat)
    actions = legal_actions(state)
    exact = exact_values(state, seat, actions, greedy_playout)
    scores = estimate_actions(state, seat, actions, 200, random.Random(2), greedy_playout)
    for value, sample in zip(exact, scores, strict=True):
        estimate = Estimate.of(sample)
        assert abs(estimate.mean - value) <= 4 * estimate.se + 0.03


def test_review_of_a_tsung_shap_game() -> None:
    rules = make_rules("tsung-shap", 2)
    rng = random.Random(4)
    deal = make_deal(rules, rng)
    state: FishingState = new_game(rules, ["a", "b"], deal)
    actions: list[str] = []
    while state.result is None:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, _ = apply(state, action)
        actions.append(str(action))
    record = GameRecord(rules, (RecordSeat("a"), RecordSeat("b")), deal, tuple(actions))
    numbers = decisions_of(record, 1)
    assert numbers
    decision = review_decision(record, numbers[-1], rollouts=10)
    assert 0 < decision.rollouts <= 10 and decision.options > 1
