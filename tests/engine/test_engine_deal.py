"""The deal: first player by four dice or lots, order of play, who gets which tiles
(RULES.md §2.2, §4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine import (
    Deal,
    FirstPlayer,
    RulesError,
    deal_from_tiles,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_tiles,
    view,
)
from bot.engine.deal import first_seat_from_dice
from bot.engine.events import TurnStarted
from bot.engine.tiles import kind_of_piece
from bot.games.collecting.engine.machine import Drew, hand_tiles
from tests.engine.helpers import play, start


@pytest.mark.parametrize(
    ("thrower", "dice", "players", "first"),
    [
        # Counting starts with the player on the thrower's right (the next seat) as 1.
        (0, (1, 1, 1, 1), 5, 4),
        (0, (1, 1, 1, 2), 5, 0),  # 5 counts round to the thrower himself
        (0, (1, 1, 2, 2), 5, 1),
        (2, (1, 1, 1, 1), 5, 1),  # 3, 4, 0, 1
        (3, (6, 6, 6, 6), 4, 3),  # 24 is a multiple of 4: back to the thrower
        (1, (6, 5, 4, 3), 2, 1),  # 18 is even
        (1, (6, 5, 4, 2), 2, 0),
        (5, (2, 2, 2, 2), 6, 1),
    ],
)
def test_four_dice_count_from_the_throwers_right(
    thrower: int, dice: tuple[int, ...], players: int, first: int
) -> None:
    assert first_seat_from_dice(thrower, dice, players) == first


def test_make_deal_throws_four_dice_for_up_to_six_players() -> None:
    rng = random.Random(7)
    for players in (2, 3, 6):
        rules = make_rules("kap-tai-shap", players)
        assert rules.first_player is FirstPlayer.FOUR_DICE
        seen: Counter[int] = Counter()
        for i in range(300):
            thrower = i % players
            deal = make_deal(rules, rng, thrower=thrower)
            assert len(deal.dice) == 4 and all(1 <= d <= 6 for d in deal.dice)
            assert deal.thrower == thrower
            assert deal.first_seat == first_seat_from_dice(thrower, deal.dice, players)
            assert sorted(deal.order) == list(range(rules.tile_count))
            seen[deal.first_seat] += 1
        assert set(seen) == set(range(players))


def test_make_deal_draws_lots_for_seven_or_more_players() -> None:
    rules = make_rules("kap-tai-shap", 8)
    assert rules.first_player is FirstPlayer.LOTS
    rng = random.Random(11)
    seen: Counter[int] = Counter()
    for _ in range(1600):
        deal = make_deal(rules, rng, thrower=3)
        assert deal.dice == ()
        seen[deal.first_seat] += 1
    # Uniform over the 8 seats: 200 expected each; the bounds are about 4.5 standard deviations.
    assert set(seen) == set(range(8))
    assert all(140 <= n <= 260 for n in seen.values()), seen


def test_either_method_may_be_chosen() -> None:
    lots = make_rules("kap-tai-shap", 3, first_player="lots")
    assert make_deal(lots, random.Random(1)).dice == ()
    dice = make_rules("kap-tai-shap", 12, first_player="four-dice")
    deal = make_deal(dice, random.Random(1), thrower=11)
    assert len(deal.dice) == 4
    assert deal.first_seat == first_seat_from_dice(11, deal.dice, 12)
    with pytest.raises(RulesError, match="thrower"):
        make_deal(dice, random.Random(1), thrower=12)


def test_the_first_player_gets_h_tiles_then_each_next_seat_h_minus_one() -> None:
    rules = make_rules("kap-tai-shap", 4)  # 2 sets, 64 pieces
    order = tuple(reversed(range(rules.tile_count)))
    state = new_game(rules, ["A", "B", "C", "D"], Deal(order=order, first_seat=2))
    kinds = [kind_of_piece(p) for p in order]
    # Seat 2 first (10), then 3, 0, 1 (9 each), then the wall.
    expected = {2: kinds[0:10], 3: kinds[10:19], 0: kinds[19:28], 1: kinds[28:37]}
    for seat, hand in expected.items():
        assert hand_tiles(state, seat) == sorted(hand, key=lambda t: t.index)
    assert state.wall_size == rules.tile_count - 37
    assert state.current == 2


def test_order_of_play_is_the_next_seat() -> None:
    rules = make_rules("kap-tai-shap", 4)
    state = new_game(rules, ["A", "B", "C", "D"], Deal(order=tuple(range(64)), first_seat=2))
    seats = [state.current]
    for _ in range(7):
        discard = next(a for a in legal_actions(state) if str(a).startswith("discard"))
        state, events = play(state, discard)
        if state.phase.value == "take-or-draw":
            started = [e for e in events if isinstance(e, TurnStarted)]
            assert [e.seat for e in started] == [state.current]
            seats.append(state.current)
            state, _ = play(state, "draw")
    assert seats == [2, 3, 0, 1, 2, 3, 0, 1]
    assert view(state, 0).first_seat == 2


def test_deal_from_tiles_puts_each_hand_and_the_wall_in_place() -> None:
    rules = make_rules("kap-shap")
    state = start(
        rules,
        hands=["6-6 1-1 4-4 3-1 5-5 3-3 2-2", "6-5 6-4 6-1 5-1 6-3 5-4 6-2 5-3"],
        wall="4-1 3-2",
        first_seat=1,
    )
    assert [str(t) for t in hand_tiles(state, 1)] == [
        "6-5",
        "6-4",
        "6-1",
        "5-1",
        "6-3",
        "5-4",
        "6-2",
        "5-3",
    ]
    assert [str(t) for t in hand_tiles(state, 0)] == [
        "6-6",
        "1-1",
        "4-4",
        "3-1",
        "5-5",
        "3-3",
        "2-2",
    ]
    assert state.current == 1
    state, events = play(state, "discard 6-5", "draw")
    drew = events[-1]
    assert isinstance(drew, Drew) and str(drew.tile) == "4-1"
    state, _ = play(state, "discard 5-3", "draw")
    assert "3-2" in [str(t) for t in hand_tiles(state, 0)]


def test_deal_from_tiles_refuses_impossible_deals() -> None:
    rules = make_rules("kap-shap")
    seven = parse_tiles("6-6 1-1 4-4 3-1 5-5 3-3 2-2")
    eight = parse_tiles("6-5 6-4 6-1 5-1 6-3 5-4 6-2 5-3")
    with pytest.raises(RulesError, match="must be dealt 8"):
        deal_from_tiles(rules, hands=[seven, seven])
    with pytest.raises(RulesError, match="more 6-3"):
        deal_from_tiles(rules, hands=[eight, seven], wall=parse_tiles("6-3"))
    with pytest.raises(RulesError, match="3 hands"):
        deal_from_tiles(rules, hands=[eight, seven, seven])


def test_new_game_refuses_a_bad_deal() -> None:
    rules = make_rules("kap-shap")
    with pytest.raises(RulesError, match="permutation"):
        new_game(rules, ["A", "B"], Deal(order=tuple(range(31)), first_seat=0))
    with pytest.raises(RulesError, match="first seat"):
        new_game(rules, ["A", "B"], Deal(order=tuple(range(32)), first_seat=2))
    with pytest.raises(RulesError, match="seats"):
        new_game(rules, ["A", "B", "C"], Deal(order=tuple(range(32)), first_seat=0))


def test_deal_survives_json() -> None:
    rules = make_rules("kap-tai-shap", 5)
    deal = make_deal(rules, random.Random(3), thrower=4)
    assert Deal.from_json(deal.to_json()) == deal
