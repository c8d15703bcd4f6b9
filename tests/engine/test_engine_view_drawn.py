"""The view tells a player which tile he just drew (so his hand picture can mark it as new), and
tells nobody else."""

from __future__ import annotations

from collections import Counter

from bot.engine import Game, Tile, make_rules, view
from bot.games.collecting.engine.machine import GameState, Phase
from tests.engine.helpers import play, start

P0 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5"
P1 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2"
WALL = "6-4 6-1 5-1 6-3 5-4 6-2 5-3"


def opened(rule_set: str) -> GameState:
    """Seat 0 has played his first turn (with the extra draw where the rules give one)."""
    state = start(make_rules(Game.KAP_SHAP, 2, rule_set), [P0, P1], WALL)
    assert view(state, 0).drawn is None  # the first player's dealt hand: nothing new
    state, _ = play(state, "discard 6-5")
    if state.phase is Phase.DRAW:
        state, _ = play(state, "draw")
        assert view(state, 0).drawn == Tile(6, 4)
        state, _ = play(state, "discard 6-4")
    return state


def new_tile(before: GameState, after: GameState, seat: int) -> Tile:
    """The one tile that is in the seat's hand after and was not before."""
    [tile] = (Counter(view(after, seat).hand) - Counter(view(before, seat).hand)).elements()
    return tile


def test_drawn_tile_is_shown_to_the_drawer_until_he_discards() -> None:
    before = opened("classic")
    state, _ = play(before, "draw")
    drawn = view(state, 1).drawn
    assert drawn is not None and drawn == new_tile(before, state, 1)
    assert view(state, 0).drawn is None and view(state, None).drawn is None
    state, _ = play(state, f"discard {drawn}")
    assert view(state, 1).drawn is None


def test_a_taken_tile_is_not_drawn() -> None:
    before = opened("classic")
    last = view(before, 1).pool[-1].tile
    state, _ = play(before, f"take {last}")
    assert view(state, 1).drawn is None and view(state, 1).just_taken == last


def test_culin_the_draw_after_a_take_is_the_drawn_tile() -> None:
    state, _ = play(opened("culin"), "take 6-5", "discard 3-1")
    assert state.phase is Phase.DRAW and view(state, 1).drawn is None
    after, _ = play(state, "draw")
    assert view(after, 1).drawn == new_tile(state, after, 1)
