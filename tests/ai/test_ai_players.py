"""The computer players: legal in any state, and greedy's choices in hand-made positions."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    apply,
    deal_from_tiles,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_action,
    parse_tiles,
    view,
)
from bot.games.collecting.ai.levels import AI_LEVELS, get_player
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.machine import GameState, Phase
from bot.games.dominoes.engine.actions import Draw

PRESETS = [
    make_rules("kap-shap"),
    make_rules("kap-shap", rule_set="classic"),
    make_rules("kap-shap", rule_set="last-draw", four_two_value="wild"),
    make_rules("kap-shap", exclude_own_discards=True, four_two_value="6"),
    make_rules("kap-tai-shap", 4),
    make_rules("kap-tai-shap", 5),
    make_rules("kap-tai-shap", 7, "culin", civil_eyes_only=True),
    make_rules("kap-tai-shap", 20, "culin", 8),
]


def test_levels_are_registered() -> None:
    assert {"random", "greedy", "expert"} <= set(AI_LEVELS)
    for level in ("random", "greedy", "expert"):
        assert get_player(level).level == level


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.describe())
def test_every_level_returns_a_legal_action(rules: object) -> None:
    from bot.engine import RuleSet

    assert isinstance(rules, RuleSet)
    players = {level: get_player(level) for level in ("random", "greedy", "expert")}
    driver = random.Random(1)
    asked = 0
    for game in range(6):
        state = new_game(rules, [f"s{i}" for i in range(rules.players)], make_deal(rules, driver))
        while state.result is None:
            legal = legal_actions(state)
            seat_view = view(state, state.current)
            for player in players.values():
                action = player.choose(seat_view, legal, random.Random(game))
                assert action in legal, (player.level, action, legal)
                asked += 1
            # Random play reaches states the players would not (long games, empty walls).
            if Declare() in legal and driver.random() < 0.5:
                action = Declare()
            else:
                action = legal[driver.randrange(len(legal))]
            state, _ = apply(state, action)
    assert asked > 100


def play(state: GameState, *actions: str) -> GameState:
    """Apply actions written in notation."""
    for text in actions:
        state, _ = apply(state, parse_action(text))
    return state


def greedy_choice(state: GameState) -> Action:
    return get_player("greedy").choose(
        view(state, state.current), legal_actions(state), random.Random(0)
    )


def kap_shap(
    first: str, second: str, wall: str = "", rule_set: str = "culin", **flags: object
) -> GameState:
    rules = make_rules("kap-shap", rule_set=rule_set, **flags)
    deal = deal_from_tiles(rules, [parse_tiles(first), parse_tiles(second)], parse_tiles(wall))
    return new_game(rules, ["first", "second"], deal)


# Seat 1's hand below is an eye (6-6) and two ten-pairs (5-5 6-4, 6-5 6-3) plus 4-4, which
# waits for a 2-pip tile: only the two 1-1 are left (both 6-6 are in the hand).
WAITING = "66 66 55 64 65 63 44"
FILLER = "33 51 22 22 43 52 41 32"


def test_greedy_declares_a_dealt_win() -> None:
    state = kap_shap(WAITING + " 11", "22 22 31 31 61 61 52")
    assert greedy_choice(state) == Declare()


def test_greedy_discards_the_tile_that_keeps_it_closest() -> None:
    # Two 1-1 are no ten-pair (2 + 2); every other discard breaks a finished pair.
    state = kap_shap("66 66 55 64 65 63 11 11", "22 22 31 31 61 61 52")
    assert greedy_choice(state) == Discard(parse_tiles("11")[0])


@pytest.mark.parametrize("rule_set", ["culin", "classic", "last-draw"])
def test_greedy_takes_the_winning_discard_and_declares(rule_set: str) -> None:
    state = kap_shap("11 33 51 22 22 43 52 41", WAITING, "32", rule_set)
    # Only under Culin does the first player draw again after his opening discard.
    opening = ("discard 3-3", "draw", "discard 1-1") if rule_set == "culin" else ("discard 1-1",)
    state = play(state, *opening)
    assert state.phase is Phase.TAKE_OR_DRAW and state.current == 1
    assert greedy_choice(state) == Take(parse_tiles("11")[0])
    state = play(state, "take 1-1")
    assert greedy_choice(state) == Declare()


def test_greedy_takes_only_discards_that_bring_it_closer() -> None:
    state = kap_shap(FILLER, WAITING, "61")
    state = play(state, "discard 3-3", "draw", "discard 5-1")
    # 3-3 and 5-1 do not help a hand waiting for 1-1: draw instead.
    assert greedy_choice(state) == Draw()


def test_greedy_breaks_ties_by_outs() -> None:
    # After drawing 3-1, discarding 4-4 or 3-1 both leave one tile missing; 3-1 waits for a
    # 6-pip tile (3-3 x2, 5-1 x2 unseen: 4 outs), 4-4 for 1-1 (2 outs): greedy keeps 3-1.
    state = kap_shap("22 22 43 52 41 32 62 53", WAITING, "54 31")
    state = play(state, "discard 2-2", "draw", "discard 4-3")
    state = play(state, "draw")
    assert greedy_choice(state) == Discard(parse_tiles("44")[0])


def test_greedy_counts_face_up_discards_as_seen() -> None:
    # Same hand, but 3-3 and 5-1 lie face up: 3-1 now has 2 outs like 4-4. The tie goes to the
    # higher kind (3-1 ranks after 4-4), so greedy now discards 3-1.
    state = kap_shap(FILLER, WAITING, "54 31")
    state = play(state, "discard 3-3", "draw", "discard 5-1")
    state = play(state, "draw")
    assert greedy_choice(state) == Discard(parse_tiles("31")[0])


def test_greedy_counts_tiles_known_in_another_hand() -> None:
    # The first player takes his 1-1 back: it is known to be in his hand, so 4-4 has a single
    # out left (the other 1-1), against 2 for 3-1 (3-3 and 5-1 lie face up): greedy keeps 3-1.
    # Were the taken 1-1 counted as unseen, 4-4 would tie at 2 and lose the tie (see above).
    state = kap_shap("11 33 51 22 43 52 41 32", WAITING, "62 54 53 31")
    state = play(state, "discard 1-1", "draw", "discard 3-3")
    state = play(state, "draw", "discard 5-4")
    state = play(state, "take 1-1", "discard 5-1", "draw", "discard 5-3")
    state = play(state, "draw")
    assert greedy_choice(state) == Discard(parse_tiles("44")[0])


def expert_choice(state: GameState) -> Action:
    return get_player("expert").choose(
        view(state, state.current), legal_actions(state), random.Random(0)
    )


def test_expert_declares_and_takes_the_winning_discard() -> None:
    state = kap_shap("11 33 51 22 22 43 52 41", WAITING, "32")
    state = play(state, "discard 3-3", "draw", "discard 1-1")
    assert expert_choice(state) == Take(parse_tiles("11")[0])
    assert expert_choice(play(state, "take 1-1")) == Declare()


def test_expert_counts_face_up_tiles_it_can_take_next_turn() -> None:
    # A 1-1 lies face up (the second player chose to draw rather than take it). Keeping 4-4
    # waits for 1-1: one unseen, one takeable next turn; keeping 3-1 waits for four unseen
    # 6-pip tiles. Greedy counts only unseen tiles and keeps 3-1; the expert keeps 4-4.
    state = kap_shap("11 33 51 22 43 52 41 32", WAITING, "54 31")
    state = play(state, "discard 1-1", "draw", "discard 5-4", "draw")
    assert greedy_choice(state) == Discard(parse_tiles("44")[0])
    assert expert_choice(state) == Discard(parse_tiles("31")[0])


def test_expert_prefers_a_discard_the_next_player_will_not_want() -> None:
    # Classic: only the next player can take a discard. He just threw a 2-2, so he is not
    # waiting for a 4-pip tile: 3-1 is the safer discard, although keeping it would leave more
    # outs (3 against 2), which is what greedy goes by. (The first player opens with a
    # discard, a draw and a discard: the first-turn draw chosen on purpose under Classic.)
    state = kap_shap(
        "33 22 51 43 52 41 32 62", WAITING, "53 31", "classic", first_turn_extra_draw=True
    )
    state = play(state, "discard 3-3", "draw", "discard 2-2", "draw")
    assert greedy_choice(state) == Discard(parse_tiles("44")[0])
    assert expert_choice(state) == Discard(parse_tiles("31")[0])
