"""Tsung Shap properties over random games (hypothesis): scores, tiles, termination, hidden
pile order, immutability and replay."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    Deal,
    RuleSet,
    apply,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_action,
    view,
)
from bot.engine.rules import Game
from bot.games.fishing.engine import Captured, Claimed, FishingEvent, FishingState, GameOver
from bot.games.fishing.engine.actions import FishingAction

FLAGS = (
    "auto_capture",
    "triplet_both_ends_only",
    "sweep_adds_pips",
    "second_may_capture_opening",
    "play_until_both_piles_empty",
)

rule_sets = st.builds(
    lambda flags, four_two: make_rules(
        "tsung-shap", four_two_value=four_two, **dict(zip(FLAGS, flags, strict=True))
    ),
    st.tuples(*(st.booleans() for _ in FLAGS)),
    st.sampled_from(["6", "3", "wild"]),
)


def random_game(
    rules: RuleSet, seed: int
) -> tuple[Deal, list[FishingAction], list[FishingState], list[FishingEvent]]:
    """A whole game of random legal actions (claims a little more often than chance)."""
    rng = random.Random(seed)
    deal = make_deal(rules, rng, thrower=seed % 2)
    state = new_game(rules, ["A", "B"], deal)
    actions: list[FishingAction] = []
    states = [state]
    events: list[FishingEvent] = []
    while state.result is None:
        legal = legal_actions(state)
        assert legal, "a running game always has a legal action"
        action = legal[0] if rng.random() < 0.3 else rng.choice(legal)
        state, new = apply(state, action)
        actions.append(action)
        states.append(state)
        events += new
        assert len(actions) < 200
    return deal, actions, states, events


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets, seed=st.integers(0, 2**32))
def test_scores_are_the_sum_of_captures_and_claims(rules: RuleSet, seed: int) -> None:
    _, _, states, events = random_game(rules, seed)
    totals = [0, 0]
    for event in events:
        if isinstance(event, Captured):
            totals[event.seat] += event.score
        elif isinstance(event, Claimed):
            totals[event.seat] += event.combination.score
    final = states[-1]
    assert tuple(totals) == final.scores
    assert final.result is not None
    assert final.result.scores == final.scores
    over = [e for e in events if isinstance(e, GameOver)]
    assert len(over) == 1 and events[-1] == over[0]
    a, b = final.scores
    assert final.result.winner == (None if a == b else (0 if a > b else 1))


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets, seed=st.integers(0, 2**32))
def test_tiles_are_conserved_and_games_terminate(rules: RuleSet, seed: int) -> None:
    _, actions, states, _ = random_game(rules, seed)
    for state in states:
        pieces = [*state.piles[0], *state.piles[1], *state.row, *state.captured[0]]
        pieces += state.captured[1]
        if state.turned is not None:
            pieces.append(state.turned)
        assert Counter(pieces) == Counter(range(32))
        assert state.turn <= 32
    final = states[-1]
    assert final.result is not None
    assert legal_actions(final) == []
    if rules.play_until_both_piles_empty:
        assert final.piles == ((), ())
    else:
        assert () in final.piles
    assert len(actions) <= 2 * 32 + 32  # a draw and a play per tile, plus claims


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets, seed=st.integers(0, 2**32), shuffle_seed=st.integers(0, 2**32))
def test_view_never_reveals_the_pile_order(rules: RuleSet, seed: int, shuffle_seed: int) -> None:
    _, _, states, _ = random_game(rules, seed)
    rng = random.Random(shuffle_seed)
    for state in states:
        # Shuffle every tile not yet turned over across both piles, keeping their sizes.
        unseen = [*state.piles[0], *state.piles[1]]
        rng.shuffle(unseen)
        size = len(state.piles[0])
        other = replace(state, piles=(tuple(unseen[:size]), tuple(unseen[size:])))
        for seat in (0, 1, None):
            assert view(state, seat) == view(other, seat)


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets, seed=st.integers(0, 2**32))
def test_apply_does_not_mutate_and_replay_gives_the_same_state(rules: RuleSet, seed: int) -> None:
    deal, actions, states, _ = random_game(rules, seed)
    # Replaying the log (through its notation, as storage does) on the deal gives every state.
    state = new_game(rules, ["A", "B"], deal)
    assert state == states[0]
    for i, action in enumerate(actions):
        before = copy.deepcopy(state)
        again = parse_action(str(action), Game.TSUNG_SHAP)
        assert again == action
        state, _ = apply(state, again)
        assert before == states[i]  # the input was left alone
        assert state == states[i + 1]
    assert state.version == len(actions)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_auto_capture_never_misses(seed: int) -> None:
    rules = make_rules("tsung-shap", auto_capture=True)
    _, actions, states, events = random_game(rules, seed)
    assert not [e for e in events if type(e).__name__ == "MissedCapture"]
    assert not [a for a in actions if str(a).startswith("claim")]
    assert all(not s.pending for s in states)
