"""Hints and the hand guide (issue 22): exact hands in tile notation, and a property test that
neither ever changes when the tiles a seat cannot see (the other hands, the wall, the order of
Tsung Shap's piles) are dealt again, keeping his view as it is."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.family import ai_of
from bot.engine import Game, make_rules
from bot.engine.family import engine_of
from bot.engine.hidden import determinize
from bot.engine.rules import FourTwo
from bot.engine.tiles import format_tiles, parse_tiles
from bot.games.collecting.engine.hands import guide_hand
from bot.render.family import render_of
from bot.services.review_text import hint_text


@pytest.mark.parametrize(
    ("hand", "eye", "pairs", "loose", "waiting"),
    [
        # One tile short (7 of 8): the eye, two ten-pairs and 4-2 (3 under the default rule)
        # waiting on a 7: exactly 6-1, 5-2 and 4-3.
        ("6-6 6-6 6-4 5-5 5-4 6-5 4-2", "6-6 6-6", "5-5 6-4, 5-4 6-5", "4-2", "6-1 5-2 4-3"),
        # Three ten-pairs made: the hand waits on its eye, 3-3 and nothing else.
        ("6-4 5-5 5-4 6-5 4-4 1-1 3-3", None, "5-5 6-4, 5-4 6-5, 4-4 1-1", "3-3", "3-3"),
        # Two tiles short: grouped as far as it goes, waiting on nothing.
        ("6-6 6-6 5-5 5-5 4-4 6-4 3-1", "6-6 6-6", "5-5 5-5", "4-4 3-1 6-4", ""),
        # 6-2 and 4-4 total 16, not a ten-pair: both stay loose.
        ("6-4 5-5 5-4 6-5 6-2 4-4 3-1", None, "5-5 6-4, 5-4 6-5", "4-4 3-1 6-2", ""),
    ],
)
def test_the_guide_groups_exact_hands(
    hand: str, eye: str | None, pairs: str, loose: str, waiting: str
) -> None:
    rules = make_rules(Game.KAP_SHAP, 2)
    guide = guide_hand(parse_tiles(hand), rules)
    found_eye = None if guide.eye is None else format_tiles(guide.eye, sort=False)
    assert found_eye == eye
    assert ", ".join(f"{a} {b}" for a, b in guide.pairs) == pairs
    assert format_tiles(guide.loose, sort=False) == loose
    assert format_tiles(guide.waiting, sort=False) == waiting
    assert not guide.winning


def test_a_winning_hand_and_the_guide_text() -> None:
    rules = make_rules(Game.KAP_SHAP, 2)
    won = guide_hand(parse_tiles("6-6 6-6 6-4 5-5 5-4 6-5 4-2 4-3"), rules)
    assert won.winning and not won.loose and won.waiting == ()
    assert ", ".join(f"{a} {b}" for a, b in won.pairs) == "5-5 6-4, 5-4 6-5, 4-3 4-2"
    words = render_of("kap-shap")
    text = words.hand_guide(_view_holding("6-6 6-6 6-4 5-5 5-4 6-5 4-2"), "en")
    assert text == (
        "Eye 6-6 6-6 · ten-pairs 5-5 6-4, 5-4 6-5 · not grouped 4-2\nWaiting on 6-1, 5-2 or 4-3."
    )
    assert words.hand_guide(_view_holding("6-6 6-6 6-4 5-5 5-4 6-5 4-2"), "zh-TW") == (
        "眼 6-6 6-6 · 十對 5-5 6-4, 5-4 6-5 · 未成組 4-2\n等：6-1, 5-2 或 4-3。"
    )


def test_the_guide_follows_the_rule_of_4_2() -> None:
    """Where 4-2 counts 6 the same hand waits on a 4 instead (3-1, 2-2)."""
    rules = make_rules(Game.KAP_SHAP, 2)
    six = engine_of("kap-shap").with_flag(rules, "four_two_value", "6")
    assert six.four_two_value is FourTwo.SIX
    guide = guide_hand(parse_tiles("6-6 6-6 6-4 5-5 5-4 6-5 4-2"), six)
    assert format_tiles(guide.waiting, sort=False) == "3-1 2-2"


def _view_holding(hand: str) -> object:
    """A Kap Shap view of the first seat after discarding down to ``hand`` (7 tiles)."""
    rules = make_rules(Game.KAP_SHAP, 2)
    engine = engine_of("kap-shap")
    tiles = parse_tiles(hand)
    from bot.engine.deal import deal_from_tiles

    rest = "1-1 1-1 3-3 3-3 5-1 5-2 4-1"
    deal = deal_from_tiles(rules, [[*tiles, parse_tiles("2-1")[0]], parse_tiles(rest)], [])
    state = engine.new_game(rules, ["alice", "bob"], deal)
    state, _ = engine.apply(state, engine.parse_action("discard 2-1"))
    return engine.view(state, 0)


GAMES = ("kap-shap", "kap-tai-shap", "tsung-shap")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 30),
    shuffle=st.integers(0, 2**32 - 1),
)
def test_hints_and_the_guide_never_see_hidden_tiles(
    game: str, seed: int, moves: int, shuffle: int
) -> None:
    """Play a random game some moves in; deal the tiles the seat to act cannot see again
    (:func:`determinize`, his view kept): the hint and the hand guide are the same."""
    engine = engine_of(game)
    players = 3 if game == "kap-tai-shap" else 2
    rules = engine.make_rules(game, players, None, None)
    rng = random.Random(seed)
    state = engine.new_game(rules, [f"p{i}" for i in range(players)], engine.deal(rules, rng))
    for _ in range(moves):
        if state.result is not None:
            break
        state, _ = engine.apply(state, rng.choice(list(engine.legal_actions(state))))
    if state.result is not None:
        return
    seat = state.current
    other = determinize(state, seat, random.Random(shuffle))
    mine, theirs = engine.view(state, seat), engine.view(other, seat)
    assert mine == theirs  # the reshuffle keeps what he sees
    ai = ai_of(game)
    hint = ai.hint(mine, list(engine.legal_actions(state)))
    again = ai.hint(theirs, list(engine.legal_actions(other)))
    assert str(hint[0]) == str(again[0])
    assert hint_text(hint[1], "en") == hint_text(again[1], "en")
    render = render_of(game)
    assert render.hand_guide(mine, "en") == render.hand_guide(theirs, "en")
