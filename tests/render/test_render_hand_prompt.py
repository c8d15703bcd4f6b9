"""The hand DM's one line: what to do now, in words, without listing the hand or the moves."""

from __future__ import annotations

from bot.engine import Game, legal_actions, make_rules, view
from bot.games.collecting.engine.machine import Phase
from bot.render.text import hand_prompt
from tests.engine.helpers import play, start

P0 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5"
P1 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2"
WALL = "6-4 6-1 5-1 6-3 5-4 6-2 5-3"


def test_each_step_of_a_turn_has_one_line() -> None:
    state = start(make_rules(Game.KAP_SHAP, 2, "classic"), [P0, P1], WALL)
    assert hand_prompt(view(state, 0), legal_actions(state)) == (
        "**It is your turn:** discard a tile."
    )
    assert hand_prompt(view(state, 1), []) == (
        "It is not your turn: you will be told here when it is."
    )
    state, _ = play(state, "discard 6-5")
    if state.phase is Phase.DRAW:  # the first player's extra draw, where the rules give one
        assert hand_prompt(view(state, 0), legal_actions(state)) == (
            "**It is your turn:** draw from the wall."
        )
        state, _ = play(state, "draw", "discard 6-4")
    line = hand_prompt(view(state, 1), legal_actions(state))
    assert line == "**It is your turn:** take a discard framed in gold, or draw from the wall."
    for text in (line, hand_prompt(view(state, 0), [])):
        assert "\n" not in text and "6-" not in text  # no tiles listed: the picture shows them


def test_a_winning_hand_is_told() -> None:
    winner = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-4"
    other = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
    state = start(make_rules(Game.KAP_SHAP, 2, "classic"), [winner, other], "2-2 6-4")
    assert hand_prompt(view(state, 0), legal_actions(state)) == (
        "**It is your turn: you can win!** Declare, or discard a tile."
    )
    state, _ = play(state, "declare")
    assert hand_prompt(view(state, 0), []) == "The game is over."
