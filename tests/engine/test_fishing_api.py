"""Tsung Shap in the shared engine: rule set, notation, the dispatching API, deals, views."""

from __future__ import annotations

import json
import random

import pytest

import bot.engine as engine
from bot.engine import (
    FourTwo,
    Game,
    NotationError,
    RulesError,
    RuleSet,
    Settlement,
    apply,
    describe_event,
    legal_actions,
    make_deal,
    make_rules,
    new_game,
    parse_action,
    parse_tile,
    view,
    with_flag,
)
from bot.engine.events import TurnStarted
from bot.games.collecting.engine import machine as collecting
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.collecting.engine.machine import GameState, View
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing import engine as fishing
from bot.games.fishing.engine import (
    Combination,
    FishingState,
    FishingView,
    capture_options,
    deal_from_piles,
    tile_values,
)
from bot.games.fishing.engine.actions import (
    Capture,
    Claim,
    ComboKind,
    End,
    Place,
    parse_fishing_action,
)

# ---------------------------------------------------------------------------------------------
# Rules


def test_tsung_shap_defaults() -> None:
    rules = make_rules("tsung-shap")
    assert rules.game is Game.TSUNG_SHAP and rules.game.fishing and not rules.game.collecting
    assert Game.KAP_SHAP.collecting
    assert (rules.players, rules.sets, rules.tile_count) == (2, 1, 32)
    assert rules.pile_size == 16 and rules.dealt_count == 32
    assert rules.four_two_value is FourTwo.SIX
    assert rules.first_player.value == "four-dice"
    assert rules.auto_capture is False
    assert rules.triplet_both_ends_only is False
    assert rules.sweep_adds_pips is False
    assert rules.second_may_capture_opening is False
    assert rules.play_until_both_piles_empty is False
    assert rules.settlement is Settlement.POT and rules.settle_rate == 1
    assert rules.describe() == "tsung-shap, 2 players, 1 set"
    assert rules.rule_set_name == "standard"
    assert make_rules("tsung-shap", 2, "standard") == rules


def test_the_collecting_games_keep_their_defaults() -> None:
    kap = make_rules("kap-shap")
    assert kap.four_two_value is FourTwo.THREE
    assert kap.pile_size == 0 and kap.hand_size == 8
    assert kap.settlement is Settlement.POT and kap.auto_capture is False
    assert kap.describe() == "kap-shap, 2 players, 1 set, culin rules"
    assert kap.variants() == []
    # The fishing flags are accepted and ignored by the collecting games.
    assert make_rules("kap-shap", auto_capture=True).offer == kap.offer


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        (dict(players=3), ["Tsung Shap", "2 players", "3"]),
        (dict(sets=2), ["Tsung Shap", "one set"]),
        (dict(rule_set="culin"), ["no rule set 'culin'", "standard"]),
        (dict(settle_rate=0), ["settle_rate", "at least 1"]),
        (dict(settlement="half"), ["settlement", "pot, difference"]),
        (dict(auto_capture="maybe"), ["auto_capture", "true or false"]),
        (dict(four_two_value="5"), ["four_two_value", "3, 6, wild"]),
        (dict(colour="red"), ["unknown rule flag", "colour"]),
    ],
)
def test_invalid_tsung_shap_rules_are_refused(kwargs: dict, words: list[str]) -> None:
    with pytest.raises(RulesError) as info:
        make_rules("tsung-shap", **kwargs)
    for word in words:
        assert word in str(info.value)


def test_collecting_flags_do_not_break_tsung_shap_validation() -> None:
    rules = make_rules("tsung-shap", offer="last", exclude_own_discards=True, stall_guard=False)
    assert rules.exclude_own_discards is True  # ignored by Tsung Shap, and allowed
    assert with_flag(rules, "draw_after_take", "false").draw_after_take is False


def test_variants_read_in_describe() -> None:
    rules = make_rules(
        "tsung-shap",
        auto_capture=True,
        triplet_both_ends_only=True,
        sweep_adds_pips=True,
        second_may_capture_opening=True,
        play_until_both_piles_empty=True,
        four_two_value="3",
        settlement="difference",
        settle_rate=5,
    )
    assert rules.describe() == (
        "tsung-shap, 2 players, 1 set, auto capture, triplets at both ends only, "
        "sweep 40 + pips, second may capture the opening, play until both piles are empty, "
        "4-2 counts 3, settle 5 per point"
    )


@pytest.mark.parametrize(
    "rules",
    [
        make_rules("tsung-shap"),
        make_rules("tsung-shap", auto_capture=True, four_two_value="wild"),
        make_rules(
            "tsung-shap",
            triplet_both_ends_only="yes",
            sweep_adds_pips=True,
            second_may_capture_opening=True,
            play_until_both_piles_empty=True,
            settlement="difference",
            settle_rate="7",
            first_player="lots",
        ),
        make_rules("kap-tai-shap", 3, settlement="difference", settle_rate=2),
    ],
    ids=lambda r: r.describe(),
)
def test_flags_round_trip(rules: RuleSet) -> None:
    flags = rules.flags()
    assert flags["settlement"] in ("pot", "difference")
    again = RuleSet.from_flags(json.loads(json.dumps(flags)))
    assert again == rules
    assert again.flags() == flags


def test_from_flags_without_the_new_fields_takes_the_defaults() -> None:
    old = {k: v for k, v in make_rules("kap-shap").flags().items() if k != "settle_rate"}
    assert RuleSet.from_flags(old) == make_rules("kap-shap")
    assert RuleSet.from_flags({"game": "tsung-shap", "players": 2}) == make_rules("tsung-shap")


def test_with_flag_sets_tsung_shap_flags() -> None:
    base = make_rules("tsung-shap")
    assert with_flag(base, "auto_capture", "on").auto_capture is True
    assert with_flag(base, "settlement", "difference").settlement is Settlement.DIFFERENCE
    assert with_flag(base, "settle_rate", "4").settle_rate == 4
    with pytest.raises(RulesError, match="exactly 2 players"):
        with_flag(base, "players", "3")
    with pytest.raises(RulesError, match="settle_rate"):
        with_flag(base, "settle_rate", "-1")


# ---------------------------------------------------------------------------------------------
# Notation


ALL_FISHING_ACTIONS = [
    Draw(),
    Capture(ComboKind.PAIR, End.LEFT),
    Capture(ComboKind.PAIR, End.RIGHT),
    Capture(ComboKind.TRIPLET, End.LEFT),
    Capture(ComboKind.TRIPLET, End.RIGHT),
    Capture(ComboKind.TRIPLET, End.ENDS),
    Place(End.LEFT),
    Place(End.RIGHT),
    Claim(ComboKind.PAIR, End.LEFT),
    Claim(ComboKind.PAIR, End.RIGHT),
    Claim(ComboKind.TRIPLET, End.LEFT),
    Claim(ComboKind.TRIPLET, End.RIGHT),
    Claim(ComboKind.TRIPLET, End.ENDS),
]


@pytest.mark.parametrize("action", ALL_FISHING_ACTIONS, ids=str)
def test_fishing_notation_round_trips(action: object) -> None:
    text = str(action)
    assert parse_fishing_action(text) == action
    assert parse_action(text, Game.TSUNG_SHAP) == action
    assert parse_action(text, "tsung-shap") == action
    assert parse_fishing_action(text.upper()) == action


def test_fishing_notation_examples() -> None:
    assert str(Capture(ComboKind.PAIR, End.LEFT)) == "capture pair left"
    assert str(Capture(ComboKind.TRIPLET, End.ENDS)) == "capture triplet ends"
    assert str(Place(End.RIGHT)) == "place right"
    assert str(Claim(ComboKind.TRIPLET, End.LEFT)) == "claim triplet left"
    assert parse_fishing_action("  capture   triplet  ends ") == Capture(
        ComboKind.TRIPLET, End.ENDS
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "Empty action"),
        ("capture", "capture pair left|right"),
        ("capture pair", "capture pair left|right"),
        ("capture pair ends", "A pair is at the left or the right end"),
        ("claim pair ends", "A pair is at the left or the right end"),
        ("capture quad left", "Not pair or triplet"),
        ("capture triplet middle", "Not left, right or ends"),
        ("place", "place left"),
        ("place ends", "left or the right end"),
        ("place up", "Not an end"),
        ("draw 6-6", "takes nothing"),
        ("discard 6-6", "Unknown action 'discard'"),
    ],
)
def test_fishing_notation_errors(text: str, words: str) -> None:
    with pytest.raises(NotationError, match=words) as info:
        parse_fishing_action(text)
    assert str(info.value)[:1].isupper()


def test_parse_action_dispatches_on_the_game() -> None:
    assert parse_action("discard 6-5") == Discard(parse_tile("6-5"))
    assert parse_action("take", Game.KAP_SHAP) == Take()
    assert parse_action("declare", "kap-tai-shap") == Declare()
    assert parse_action("draw", Game.TSUNG_SHAP) == Draw()
    assert parse_action("take 3-1", "kap-tai-shap") == Take(parse_tile("3-1"))
    with pytest.raises(NotationError, match="Unknown action 'capture'"):
        parse_action("capture pair left")  # the collecting notation, as before
    with pytest.raises(NotationError, match="Unknown action 'take'"):
        parse_action("take", Game.TSUNG_SHAP)
    with pytest.raises(RulesError, match="unknown game"):
        parse_action("draw", "tsung-shop")


# ---------------------------------------------------------------------------------------------
# Dispatch, deals


def test_new_game_dispatches_on_the_game() -> None:
    for name, kind in (("kap-shap", GameState), ("tsung-shap", FishingState)):
        rules = make_rules(name)
        state = new_game(rules, ["A", "B"], make_deal(rules, random.Random(1)))
        assert isinstance(state, kind)
        assert isinstance(view(state, 0), View if kind is GameState else FishingView)
        assert legal_actions(state)
    kap_state = new_game(
        make_rules("kap-shap"), ["A", "B"], make_deal(make_rules("kap-shap"), random.Random(2))
    )
    moved, _events = apply(kap_state, legal_actions(kap_state)[0])
    assert isinstance(moved, GameState)


def test_the_package_exports_the_dispatching_functions() -> None:
    from bot.engine import api

    for name in ("new_game", "legal_actions", "apply", "view", "describe_event", "parse_action"):
        assert getattr(engine, name) is getattr(api, name)
    # The per-game modules keep their own typed functions.
    assert collecting.new_game is not fishing.new_game


def test_make_deal_works_for_tsung_shap() -> None:
    rules = make_rules("tsung-shap")
    for seed in range(30):
        deal = make_deal(rules, random.Random(seed), thrower=seed % 2)
        assert sorted(deal.order) == list(range(32))
        assert len(deal.dice) == 4
        assert deal.first_seat == (deal.thrower + sum(deal.dice)) % 2
        state = new_game(rules, ["A", "B"], deal)
        assert state.current == deal.first_seat
        assert view(state, None).pile_sizes == (16, 16)


def test_deal_from_piles_validates() -> None:
    rules = make_rules("tsung-shap")
    with pytest.raises(RulesError, match="more 4-2 tiles"):
        deal_from_piles(rules, [parse_tile("4-2")], [parse_tile("4-2")])
    with pytest.raises(RulesError, match="16 tiles, not 17"):
        deal_from_piles(rules, [parse_tile("1-1")] * 17)
    with pytest.raises(RulesError, match="first seat 2"):
        deal_from_piles(rules, [], [], first_seat=2)
    with pytest.raises(RulesError, match="3 seats"):
        fishing.new_game(rules, ["A", "B", "C"], deal_from_piles(rules, []))
    with pytest.raises(RulesError, match="not a permutation"):
        fishing.new_game(rules, ["A", "B"], engine.Deal((*tuple(range(31)), 0), 0))
    with pytest.raises(RulesError, match="Tsung Shap, not kap-shap"):
        fishing.new_game(make_rules("kap-shap"), ["A", "B"], engine.Deal(tuple(range(32)), 0))


# ---------------------------------------------------------------------------------------------
# Events and views


def test_describe_event_works_for_both_games() -> None:
    names = ["Ann", "Bob"]
    assert describe_event(TurnStarted(1, 4), None, names) == "Turn 4: Bob to play."
    rules = make_rules("tsung-shap")
    state = new_game(rules, names, deal_from_piles(rules, [parse_tile("6-6")] * 1))
    _, events = apply(state, Draw())
    lines = [describe_event(e, 1, names) for e in events]
    assert lines[0].startswith("Ann turned over 6-6 Heaven")
    assert lines[1] == "Ann laid 6-6 out to start a new row."
    assert lines[2] == "Turn 2: Bob to play."
    kap = make_rules("kap-shap")
    kap_state = new_game(kap, names, make_deal(kap, random.Random(3)))
    action = next(a for a in legal_actions(kap_state) if isinstance(a, Discard))
    _, kap_events = apply(kap_state, action)
    assert describe_event(kap_events[0], None, names).startswith(names[kap_state.current])


def test_every_fishing_event_has_a_description() -> None:
    names = ["Ann", "Bob"]
    t = parse_tile
    combo = Combination(ComboKind.TRIPLET, End.ENDS, (t("4-4"), t("6-6"), t("5-5")), 30)
    events = [
        fishing.TileTurned(0, t("6-6"), 3, relay=True),
        fishing.Placed(1, t("5-5"), End.LEFT),
        fishing.Captured(0, ComboKind.PAIR, End.RIGHT, (t("6-6"), t("6-6")), 240),
        fishing.Captured(0, ComboKind.TRIPLET, End.ENDS, (t("3-3"), t("6-6"), t("1-1")), 40, True),
        fishing.Swept(0),
        fishing.MissedCapture(1, 0, (combo,)),
        fishing.Claimed(0, 1, combo),
        fishing.GameOver((10, 10), None, fishing.FishingEndReason.PILE_EMPTY),
        fishing.GameOver((240, 10), 0, fishing.FishingEndReason.PILE_EMPTY),
    ]
    lines = [describe_event(e, None, names) for e in events]
    assert lines == [
        "Ann at once turned over 6-6 Heaven 天 (3 left in the pile).",
        "Bob placed 5-5 at the left end of the row.",
        "Ann captured a pair at the right end, 6-6 + 6-6: 240 points.",
        "Ann swept the row with 3-3 + 6-6 + 1-1: 40 points.",
        "Ann swept the table and starts a new row.",
        "Bob could have captured and did not. Ann may claim one at the start of the next turn: "
        "'claim triplet ends' (4-4 + 6-6 + 5-5: 30).",
        "Ann claimed the triplet Bob missed (ends), 4-4 + 6-6 + 5-5: 30 points.",
        "Game over: Ann 10, Bob 10. Equal scores: the game is drawn.",
        "Game over: Ann 240, Bob 10. Ann wins.",
    ]


def test_view_shows_the_public_table_and_hides_the_piles() -> None:
    rules = make_rules("tsung-shap")
    deal = deal_from_piles(rules, [parse_tile(x) for x in ("6-6", "6-6")], [parse_tile("5-5")])
    state = new_game(rules, ["A", "B"], deal)
    state, _ = apply(state, Draw())
    state, _ = apply(state, Draw())
    state, _ = apply(state, Draw())
    seen = view(state, 0)
    assert seen.row == (parse_tile("6-6"), parse_tile("5-5"))
    assert seen.turned == parse_tile("6-6")
    assert seen.pile_sizes == (14, 15)
    assert seen.phase.value == "play" and seen.my_turn and not view(state, 1).my_turn
    assert [(str(o.capture), o.score) for o in seen.options] == [("capture pair left", 240)]
    assert len(seen.unseen) == 32 - 3
    assert parse_tile("6-6") not in seen.unseen
    assert [str(m) for m in seen.history] == ["draw 6-6", "draw 5-5", "draw 6-6"]
    # Everybody sees the same thing, spectators too.
    for other in (1, None):
        assert view(state, other) == FishingView(**{**_fields(seen), "seat": other})
    with pytest.raises(RulesError, match="seat 2"):
        view(state, 2)
    # No field carries the deal or a pile (the property tests check the values too).
    assert not {"deal", "piles", "order"} & set(FishingView.__dataclass_fields__)


def _fields(v: FishingView) -> dict[str, object]:
    return {name: getattr(v, name) for name in FishingView.__dataclass_fields__}


def test_capture_options_and_values() -> None:
    t = parse_tile
    rules = make_rules("tsung-shap")
    assert tile_values(t("4-2"), FourTwo.SIX) == (6,)
    assert tile_values(t("4-2"), FourTwo.THREE) == (3,)
    assert tile_values(t("2-1"), FourTwo.WILD) == (3, 6)
    assert tile_values(t("2-1"), FourTwo.SIX) == (3,)
    options = capture_options(rules, [t("6-6"), t("1-1"), t("5-5")], t("4-4"))
    assert [(str(o.capture), o.score, o.sweep) for o in options] == [
        ("capture triplet right", 20, False),
        ("capture triplet ends", 30, False),
    ]
    assert capture_options(rules, [], t("4-4")) == []
    sweep = capture_options(rules, [t("6-6"), t("1-1")], t("3-3"))
    assert [(str(o.capture), o.score, o.sweep) for o in sweep] == [
        ("capture triplet ends", 40, True)
    ]
    assert str(sweep[0]) == "sweep ends (3-3 + 6-6 + 1-1: 40)"
