"""Rule sets: RULES.md's defaults, validation with a reason, flags (RULES.md §2.2-§2.4)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from bot.engine import FirstPlayer, FourTwo, Game, Offer, RulesError, RuleSet, make_rules, with_flag


def test_kap_shap_defaults() -> None:
    rules = make_rules("kap-shap")
    assert rules.game is Game.KAP_SHAP
    assert rules.players == 2
    assert rules.sets == 1
    assert rules.rule_set_name == "culin"
    assert rules.offer is Offer.ANY
    assert rules.draw_after_take is True
    assert rules.first_turn_extra_draw is True
    assert rules.hand_size == 8
    assert rules.pairs == 3
    assert rules.four_two_value is FourTwo.THREE
    assert rules.exclude_own_discards is False
    assert rules.civil_eyes_only is False
    assert rules.first_player is FirstPlayer.FOUR_DICE
    assert rules.max_turns == 100
    assert rules.tile_count == 32
    assert rules.dealt_count == 15
    assert rules.military_eyes is False


@pytest.mark.parametrize("players", range(2, 21))
def test_kap_tai_shap_defaults_follow_the_player_count(players: int) -> None:
    rules = make_rules("kap-tai-shap", players)
    assert rules.players == players
    assert rules.hand_size == 10
    assert rules.pairs == 4
    assert rules.sets == max(1, math.ceil(2 * players / 5))
    assert rules.rule_set_name == ("culin" if players <= 4 else "classic")
    if players <= 4:
        assert (rules.offer, rules.draw_after_take) == (Offer.ANY, True)
    else:
        assert (rules.offer, rules.draw_after_take) == (Offer.LAST, False)
    assert rules.first_turn_extra_draw is False
    assert rules.first_player is (FirstPlayer.FOUR_DICE if players <= 6 else FirstPlayer.LOTS)
    assert rules.max_turns == 50 * players
    assert rules.dealt_count == 10 + 9 * (players - 1)
    assert rules.dealt_count < rules.tile_count
    assert rules.military_eyes is (rules.sets > 1)


def test_named_rule_sets() -> None:
    expected = {
        "culin": (Offer.ANY, True),
        "classic": (Offer.LAST, False),
        "last-draw": (Offer.LAST, True),
    }
    for name, (offer, draw_after_take) in expected.items():
        for game, players in (("kap-shap", 2), ("kap-tai-shap", 3), ("kap-tai-shap", 12)):
            rules = make_rules(game, players, rule_set=name)
            assert (rules.offer, rules.draw_after_take) == (offer, draw_after_take)
            assert rules.rule_set_name == name
            assert name in rules.describe()


def test_the_host_may_choose_one_to_eight_sets() -> None:
    for sets in range(1, 9):
        assert make_rules("kap-tai-shap", 2, sets=sets).sets == sets
    assert make_rules("kap-tai-shap", 20, sets=8).sets == 8


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        (dict(game="kap-tai-shap", players=21, sets=1), ["1 set", "too few", "21 players"]),
        (dict(game="kap-tai-shap", players=4, sets=1), ["too few", "at least 2 sets"]),
        (dict(game="kap-tai-shap", players=10, sets=2), ["too few", "at least 3 sets"]),
        (dict(game="kap-shap", players=3), ["Kap Shap", "2 players", "3"]),
        (dict(game="kap-shap", players=1), ["Kap Shap", "2 players"]),
        (dict(game="kap-shap", sets=2), ["one set"]),
        (dict(game="kap-tai-shap", players=1), ["2 to", "not 1"]),
        (dict(game="kap-tai-shap", players=29), ["not 29"]),
        (dict(game="kap-tai-shap", players=2, sets=9), ["sets", "1 and 8", "9"]),
        (dict(game="kap-tai-shap", players=2, sets=0), ["sets", "not 0"]),
        (dict(game="tsung-shop"), ["unknown game", "tsung-shop"]),
        (dict(game="kap-shap", rule_set="cullin"), ["unknown rule set", "cullin", "classic"]),
        (dict(game="kap-shap", colour="red"), ["unknown rule flag", "colour"]),
        (dict(game="kap-shap", four_two_value="7"), ["four_two_value", "3, 6, wild", "7"]),
        (dict(game="kap-shap", civil_eyes_only="maybe"), ["civil_eyes_only", "true or false"]),
        (dict(game="kap-shap", max_turns="many"), ["max_turns", "whole number", "many"]),
        (dict(game="kap-shap", max_turns=True), ["max_turns", "whole number"]),
        (dict(game="kap-shap", max_turns=0), ["max_turns", "not 0"]),
        (dict(game="kap-shap", rake_percent=60), ["rake_percent", "60"]),
        (dict(game="kap-shap", offer="some"), ["offer", "any, last"]),
        (dict(game="kap-shap", first_player="coin"), ["first_player", "four-dice, lots"]),
        (
            dict(game="kap-shap", rule_set="classic", exclude_own_discards=True),
            ["exclude_own_discards"],
        ),
        (
            dict(game="kap-tai-shap", players=5, exclude_own_discards=True),
            ["exclude_own_discards"],
        ),
    ],
)
def test_invalid_rule_sets_are_refused_with_a_reason(
    kwargs: dict[str, Any], words: list[str]
) -> None:
    with pytest.raises(RulesError) as info:
        make_rules(**kwargs)
    for word in words:
        assert word in str(info.value)


def test_a_wall_is_always_left_after_the_deal() -> None:
    # 7 players on 2 sets would deal all 64 tiles (10 + 6 * 9) and leave no wall to draw from.
    assert make_rules("kap-tai-shap", 6, sets=2).dealt_count == 55
    with pytest.raises(RulesError, match="too few"):
        make_rules("kap-tai-shap", 7, sets=2)
    # The default number of sets always leaves a wall, up to 20 players and beyond.
    for players in range(2, 29):
        rules = make_rules("kap-tai-shap", players)
        assert rules.tile_count > rules.dealt_count


def test_string_values_are_converted() -> None:
    rules = make_rules(
        "kap-tai-shap",
        3,
        four_two_value="wild",
        civil_eyes_only="yes",
        first_player="LOTS",
        max_turns="77",
    )
    assert rules.four_two_value is FourTwo.WILD
    assert rules.civil_eyes_only is True
    assert rules.first_player is FirstPlayer.LOTS
    assert rules.max_turns == 77
    assert rules.military_eyes is False  # civil_eyes_only beats several sets


def test_with_flag_changes_one_flag() -> None:
    base = make_rules("kap-shap")
    assert with_flag(base, "offer", "last").offer is Offer.LAST
    assert with_flag(base, "offer", "last").rule_set_name == "last-draw"
    classic = with_flag(with_flag(base, "offer", "last"), "draw_after_take", "false")
    assert classic.rule_set_name == "classic"
    assert with_flag(base, "draw_after_take", "off").rule_set_name == "custom"
    assert with_flag(base, "four_two_value", "6").four_two_value is FourTwo.SIX
    assert with_flag(base, "exclude_own_discards", "true").exclude_own_discards is True
    assert with_flag(base, "first_turn_extra_draw", "no").first_turn_extra_draw is False
    changed = with_flag(base, "max_turns", "12")
    assert changed.max_turns == 12
    assert base.max_turns == 100  # the original is untouched
    # Every other flag is kept.
    assert {k: v for k, v in changed.flags().items() if k != "max_turns"} == {
        k: v for k, v in base.flags().items() if k != "max_turns"
    }


@pytest.mark.parametrize(
    ("game", "players", "rule_set", "extra"),
    [
        ("kap-shap", 2, "culin", True),
        ("kap-shap", 2, "classic", False),
        ("kap-shap", 2, "last-draw", False),
        ("kap-tai-shap", 2, "culin", False),
        ("kap-tai-shap", 4, "culin", False),
        ("kap-tai-shap", 5, "classic", False),
        ("kap-tai-shap", 5, "last-draw", False),
        ("tsung-shap", 2, None, False),
    ],
)
def test_first_turn_extra_draw_is_the_default_only_for_kap_shap_under_culin(
    game: str, players: int, rule_set: str | None, extra: bool
) -> None:
    assert make_rules(game, players, rule_set).first_turn_extra_draw is extra
    # Chosen on purpose, it holds under any rule set.
    assert make_rules(game, players, rule_set, first_turn_extra_draw=True).first_turn_extra_draw


def test_with_flag_moves_the_default_first_turn_draw_with_the_rule_set() -> None:
    culin = make_rules("kap-shap")
    last_draw = with_flag(culin, "offer", "last")
    assert last_draw.first_turn_extra_draw is False
    classic = with_flag(last_draw, "draw_after_take", "false")
    assert classic == make_rules("kap-shap", rule_set="classic")
    assert with_flag(with_flag(classic, "offer", "any"), "draw_after_take", "true") == culin
    # A first-turn draw set on purpose stays whatever the rule set becomes.
    chosen = with_flag(classic, "first_turn_extra_draw", "true")
    assert with_flag(chosen, "draw_after_take", "true").first_turn_extra_draw is True
    off = with_flag(culin, "first_turn_extra_draw", "false")
    assert with_flag(off, "offer", "last").first_turn_extra_draw is False


def test_stored_flags_keep_the_first_turn_draw_they_were_played_with() -> None:
    # Before RULES.md gave the first-turn draw to Kap Shap under Culin only, Kap Shap under
    # Classic had it by default; a record written then names it and replays as stored.
    old = {**make_rules("kap-shap", rule_set="classic").flags(), "first_turn_extra_draw": True}
    assert RuleSet.from_flags(json.loads(json.dumps(old))).first_turn_extra_draw is True
    # A record that leaves the flag out gets the default of the rule set it names.
    partial = {k: v for k, v in old.items() if k != "first_turn_extra_draw"}
    assert RuleSet.from_flags(partial) == make_rules("kap-shap", rule_set="classic")
    culin = {
        k: v for k, v in make_rules("kap-shap").flags().items() if k != "first_turn_extra_draw"
    }
    assert RuleSet.from_flags(culin).first_turn_extra_draw is True


def test_with_flag_players_moves_the_default_turn_cap_only() -> None:
    rules = make_rules("kap-tai-shap", 3)
    assert with_flag(rules, "players", "4").max_turns == 200
    capped = with_flag(rules, "max_turns", "60")
    assert with_flag(capped, "players", "4").max_turns == 60


def test_with_flag_refuses_unknown_flags_and_bad_values() -> None:
    base = make_rules("kap-tai-shap", 2)
    with pytest.raises(RulesError, match="unknown rule flag 'speed'"):
        with_flag(base, "speed", "3")
    with pytest.raises(RulesError, match="sets must be between 1 and 8"):
        with_flag(base, "sets", "9")
    with pytest.raises(RulesError, match="whole number"):
        with_flag(base, "sets", "two")
    with pytest.raises(RulesError, match="too few"):
        with_flag(base, "players", "20")  # the number of sets does not follow
    with pytest.raises(RulesError, match="exclude_own_discards"):
        with_flag(with_flag(base, "exclude_own_discards", "true"), "offer", "last")
    with pytest.raises(RulesError, match="one set"):
        with_flag(make_rules("kap-shap"), "sets", "2")


@pytest.mark.parametrize(
    "rules",
    [
        make_rules("kap-shap"),
        make_rules("kap-shap", rule_set="classic", four_two_value="wild", max_turns=7),
        make_rules("kap-tai-shap", 3, exclude_own_discards=True, rake_percent=5),
        make_rules("kap-tai-shap", 9, rule_set="last-draw", sets=6, civil_eyes_only=True),
        make_rules(
            "kap-tai-shap",
            20,
            first_player="four-dice",
            pot_carries_over=True,
            stall_guard=False,
            first_turn_extra_draw=True,
        ),
    ],
    ids=lambda r: r.describe(),
)
def test_flags_round_trip_through_json(rules: RuleSet) -> None:
    flags = rules.flags()
    again = RuleSet.from_flags(json.loads(json.dumps(flags)))
    assert again == rules
    assert again.flags() == flags


def test_from_flags_validates_again() -> None:
    flags = make_rules("kap-tai-shap", 4).flags()
    with pytest.raises(RulesError, match="unknown rule flag"):
        RuleSet.from_flags({**flags, "colour": "red"})
    with pytest.raises(RulesError, match="too few"):
        RuleSet.from_flags({**flags, "sets": 1})
    with pytest.raises(RulesError, match="four_two_value"):
        RuleSet.from_flags({**flags, "four_two_value": "9"})
    # Flags left out take the defaults of the game and player count.
    partial = RuleSet.from_flags({"game": "kap-tai-shap", "players": 7})
    assert partial == make_rules("kap-tai-shap", 7)


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        ({"players": 2}, "lack game"),
        ({"game": "kap-shap"}, "lack players"),
        ({"game": "mahjong", "players": 2}, "unknown game"),
        ({"game": "kap-shap", "players": "two"}, "whole number"),
    ],
)
def test_from_flags_refuses_incomplete_or_bad_records_with_a_rules_error(
    flags: dict[str, object], words: str
) -> None:
    with pytest.raises(RulesError, match=words):
        RuleSet.from_flags(flags)
