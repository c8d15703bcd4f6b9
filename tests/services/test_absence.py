"""The passive play of an absent player: always legal, never a win, never a take or capture
while anything else is allowed; a whole game of passive seats ends."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    Game,
    apply,
    deal_from_tiles,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_tiles,
)
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.engine.actions import Capture, Claim
from bot.services.absence import passive_action
from bot.services.tables import _apply


@pytest.mark.parametrize(
    ("game", "players"), [(Game.KAP_SHAP, 2), (Game.KAP_TAI_SHAP, 4), (Game.TSUNG_SHAP, 2)]
)
@pytest.mark.parametrize("seed", range(6))
def test_passive_play_never_wins_or_takes(game: Game, players: int, seed: int) -> None:
    rng = random.Random(seed)
    rules = make_rules(game, players)
    state = new_game(rules, [f"p{i}" for i in range(players)], make_deal(rules, rng))
    passive = seed % players  # this seat is absent all game; the others play at random
    turns = 0
    while state.result is None:
        legal = list(legal_actions(state))
        if state.current == passive:
            action = passive_action(state, passive, rng)
            assert action in legal
            assert not isinstance(action, Declare)
            if any(not isinstance(a, Take | Capture | Claim | Declare) for a in legal):
                assert not isinstance(action, Take | Capture | Claim)
            if Draw() in legal:
                assert action == Draw()
            elif any(isinstance(a, Discard) for a in legal):
                assert isinstance(action, Discard)
        else:
            action = rng.choice(legal)
        state, _ = _apply(state, action)
        turns += 1
        assert turns < 5000
    assert state.result.winner != passive or state.result.winner is None


def test_the_least_useful_tile_goes_even_from_a_winning_hand() -> None:
    rules = make_rules(Game.KAP_SHAP, 2)
    hands = [
        parse_tiles("6-6 6-6 4-4 1-1 3-1 3-3 6-5 5-4"),
        parse_tiles("5-5 6-1 4-1 3-2 6-2 6-3 4-2"),
    ]
    deal = deal_from_tiles(rules, hands, parse_tiles("2-2 6-4"), first_seat=0)
    state = new_game(rules, ["a", "b"], deal)
    assert Declare() in legal_actions(state)
    action = passive_action(state, 0, random.Random(0))
    assert isinstance(action, Discard)
    state, _ = apply(state, action)
    assert state.result is None
