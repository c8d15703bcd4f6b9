"""One exact-deal scenario per turn rule of RULES.md §2.3-§2.4, written in notation."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from bot.engine import (
    IllegalAction,
    RulesError,
    RuleSet,
    apply,
    deal_from_tiles,
    describe_event,
    legal_actions,
    make_rules,
    parse_action,
    parse_tiles,
    view,
)
from bot.engine.events import TurnStarted
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.collecting.engine.machine import (
    Declared,
    Discarded,
    Drew,
    EndReason,
    Event,
    GameDrawn,
    GameState,
    Phase,
    Took,
    WinBy,
    hand_tiles,
)
from bot.games.dominoes.engine.actions import Draw
from tests.engine.helpers import play, start, tiles, witness_problems

# A Kap Shap deal without any pair in either hand: nobody can win early by accident.
P0 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5"
P1 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2"
WALL = "6-4 6-1 5-1 6-3 5-4 6-2 5-3"


def legal(state: GameState) -> set[str]:
    """The legal actions in notation."""
    return {str(a) for a in legal_actions(state)}


def takes(state: GameState) -> set[str]:
    return {a for a in legal(state) if a.startswith("take")}


def refused(state: GameState, move: str) -> str:
    """Assert that ``move`` is refused without touching the state; return the reason."""
    before = pickle.dumps(state)
    legal_before = legal(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, parse_action(move))
    assert pickle.dumps(state) == before
    assert legal(state) == legal_before
    assert move not in legal_before
    return str(info.value)


def names(text: str) -> list[str]:
    return [str(t) for t in parse_tiles(text)]


def hand(state: GameState, seat: int) -> list[str]:
    return sorted(str(t) for t in hand_tiles(state, seat))


def same_tiles(a: list[str], text: str) -> bool:
    return sorted(a) == sorted(names(text))


def kap_shap(rule_set: str | None = None, **flags: Any) -> RuleSet:
    return make_rules("kap-shap", rule_set=rule_set, **flags)


# ---------------------------------------------------------------------------------------------
# Which discards may be taken


def test_culin_take_any_discard_including_ones_own() -> None:
    state = start(kap_shap("culin"), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")
    # Seat 1 may take either face-up discard, not only the most recent one.
    assert takes(state) == {"take 6-5", "take 2-2"}
    assert "draw" in legal(state)
    state, events = play(state, "take 6-5")
    assert events == [Took(1, parse_tiles("6-5")[0], 0)]
    assert [str(p.tile) for p in view(state, 1).pool] == ["2-2"]  # a taken tile leaves the pool
    state, _ = play(state, "discard 1-1", "draw", "discard 6-6")
    assert same_tiles(hand(state, 1), "4-4 3-1 5-5 3-3 2-2 6-5 6-1")
    # Seat 0 may take back his own earlier discard 2-2.
    assert takes(state) == {"take 2-2", "take 1-1", "take 6-6"}
    state, events = play(state, "take 2-2")
    assert events == [Took(0, parse_tiles("2-2")[0], 0)]
    assert same_tiles(hand(state, 0), "6-6 1-1 4-4 3-1 5-5 3-3 6-4 2-2")


def test_exclude_own_discards_forbids_taking_back_ones_own() -> None:
    state = start(kap_shap("culin", exclude_own_discards=True), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")
    assert takes(state) == {"take 6-5", "take 2-2"}  # the other player's discards
    state, _ = play(state, "take 6-5", "discard 1-1", "draw", "discard 6-6")
    assert takes(state) == {"take 1-1", "take 6-6"}
    reason = refused(state, "take 2-2")
    assert "own" in reason and "2-2" in reason
    state, _ = play(state, "take 6-6")
    assert "6-6" in hand(state, 0)


def test_classic_only_the_most_recent_discard_may_be_taken() -> None:
    state = start(kap_shap("classic"), [P0, P1], WALL)
    # Classic: the first player's turn ends with his opening discard (no extra draw).
    state, _ = play(state, "discard 6-5")
    assert state.current == 1 and takes(state) == {"take 6-5"}
    state, _ = play(state, "draw", "discard 2-2")
    assert takes(state) == {"take 2-2"}
    reason = refused(state, "take 6-5")
    assert "most recent" in reason and "2-2" in reason
    state, _ = play(state, "take 2-2", "discard 1-1")
    # Classic: one tile in per turn, no draw after a take.
    assert state.current == 1 and state.phase is Phase.TAKE_OR_DRAW
    assert len(hand_tiles(state, 0)) == 7
    assert takes(state) == {"take 1-1"}


def test_classic_a_discard_the_next_player_does_not_take_is_dead() -> None:
    state = start(kap_shap("classic"), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")  # seat 1 leaves 6-5 lying
    state, _ = play(state, "draw", "discard 1-1")  # seat 0 leaves 2-2 lying
    assert takes(state) == {"take 1-1"}
    assert "most recent" in refused(state, "take 2-2")
    state, _ = play(state, "draw", "discard 3-3")  # seat 1 leaves 1-1 lying
    pool = view(state, 0).pool
    assert [(str(p.tile), p.dead) for p in pool] == [
        ("6-5", True),
        ("2-2", True),
        ("1-1", True),
        ("3-3", False),
    ]
    for dead in ("6-5", "2-2", "1-1"):
        refused(state, f"take {dead}")
    state, _ = play(state, "take 3-3", "discard 4-4")
    assert [(str(p.tile), p.dead) for p in view(state, 1).pool] == [
        ("6-5", True),
        ("2-2", True),
        ("1-1", True),
        ("4-4", False),
    ]
    # Later turns never revive a dead discard.
    state, _ = play(state, "draw", "discard 5-5", "draw", "discard 6-6")
    assert takes(state) == {"take 6-6"}
    assert all(p.dead for p in view(state, None).pool[:-1])


def test_last_draw_take_discard_then_draw_and_discard() -> None:
    state = start(kap_shap("last-draw"), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5")  # no extra draw outside Kap Shap under Culin
    state, _ = play(state, "draw", "discard 2-2")
    assert takes(state) == {"take 2-2"}
    assert "most recent" in refused(state, "take 6-5")
    state, _ = play(state, "take 2-2", "discard 1-1")
    # The mandatory draw follows the take.
    assert state.current == 0 and state.phase is Phase.DRAW
    assert legal(state) == {"draw"}
    assert "must draw" in refused(state, "take 1-1")
    state, events = play(state, "draw", "discard 6-6")
    assert isinstance(events[0], Drew) and str(events[0].tile) == "6-1"
    assert events[-1] == TurnStarted(1, 4)
    moves = [str(m) for m in state.history if m.turn == 3]
    assert moves == ["take 2-2", "discard 1-1", "draw", "discard 6-6"]
    assert same_tiles(hand(state, 0), "4-4 3-1 5-5 3-3 2-2 2-2 6-1")
    # Only the second discard of the turn is offered next.
    assert takes(state) == {"take 6-6"}


def test_culin_turn_brings_in_up_to_two_tiles() -> None:
    state = start(kap_shap("culin"), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")
    state, _ = play(state, "take 2-2", "discard 1-1")
    assert state.phase is Phase.DRAW and legal(state) == {"draw"}
    state, _ = play(state, "draw", "discard 6-6")
    assert [str(m) for m in state.history if m.turn == 2] == [
        "take 2-2",
        "discard 1-1",
        "draw",
        "discard 6-6",
    ]
    # A player who draws instead of taking has one tile in and one out.
    state, _ = play(state, "draw", "discard 4-4")
    assert [str(m) for m in state.history if m.turn == 3] == ["draw", "discard 4-4"]
    assert state.current == 1


def test_a_tile_just_taken_may_not_be_discarded_in_the_same_step() -> None:
    state = start(kap_shap("culin"), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")
    state, _ = play(state, "take 2-2")
    # Seat 1 now holds two 2-2: discarding either would undo the take.
    assert hand(state, 1).count("2-2") == 2
    assert "discard 2-2" not in legal(state)
    reason = refused(state, "discard 2-2")
    assert "just took" in reason and "2-2" in reason
    assert view(state, 1).just_taken == parse_tiles("2-2")[0]
    state, _ = play(state, "discard 1-1", "draw")
    # After the draw the step is over: the taken kind may go.
    assert "discard 2-2" in legal(state)
    state, _ = play(state, "discard 2-2")
    assert hand(state, 1).count("2-2") == 1


def test_a_drawn_tile_may_be_discarded_at_once() -> None:
    state = start(kap_shap("classic"), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw")
    assert "discard 6-4" in legal(state)
    state, _ = play(state, "discard 6-4")
    assert same_tiles(hand(state, 0), "6-6 1-1 4-4 3-1 5-5 3-3 2-2")


# ---------------------------------------------------------------------------------------------
# The first turn


KTS_P0 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5 6-4 6-1"
KTS_P1 = "6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5 6-4"


def test_kap_shap_first_player_discards_then_draws_and_discards_again() -> None:
    state = start(kap_shap(), [P0, P1], WALL)
    assert state.current == 0 and state.phase is Phase.DISCARD
    assert len(hand_tiles(state, 0)) == 8 and len(hand_tiles(state, 1)) == 7
    assert "draw" not in legal(state) and not takes(state)
    state, events = play(state, "discard 6-5")
    assert not any(isinstance(e, TurnStarted) for e in events)
    assert state.current == 0 and state.phase is Phase.DRAW
    assert legal(state) == {"draw"}
    state, events = play(state, "draw", "discard 2-2")
    assert events[-1] == TurnStarted(1, 2)
    assert len(hand_tiles(state, 0)) == 7


def test_kap_tai_shap_first_turn_ends_after_the_discard() -> None:
    rules = make_rules("kap-tai-shap", 2)
    assert rules.first_turn_extra_draw is False
    state = start(rules, [KTS_P0, KTS_P1], "5-1 6-1")
    assert len(hand_tiles(state, 0)) == 10 and len(hand_tiles(state, 1)) == 9
    state, events = play(state, "discard 6-1")
    assert events == [Discarded(0, parse_tiles("6-1")[0]), TurnStarted(1, 2)]
    assert state.current == 1 and state.phase is Phase.TAKE_OR_DRAW
    assert len(hand_tiles(state, 0)) == 9
    assert state.wall_size == 32 - 19  # seat 0 did not draw


@pytest.mark.parametrize(
    ("rule_set", "extra"), [("culin", True), ("classic", False), ("last-draw", False)]
)
def test_kap_shap_first_player_draws_again_only_under_culin(rule_set: str, extra: bool) -> None:
    rules = kap_shap(rule_set)
    assert rules.first_turn_extra_draw is extra
    state = start(rules, [P0, P1], WALL)
    state, events = play(state, "discard 6-5")
    if extra:
        assert state.current == 0 and legal(state) == {"draw"}
        state, events = play(state, "draw", "discard 2-2")
        assert same_tiles(hand(state, 0), "6-6 1-1 4-4 3-1 5-5 3-3 6-4")
    else:
        # Under Classic or Last + draw a take would make two tiles in on top of the extra one
        # dealt: the opening turn ends with the discard.
        assert events == [Discarded(0, parse_tiles("6-5")[0]), TurnStarted(1, 2)]
        assert same_tiles(hand(state, 0), "6-6 1-1 4-4 3-1 5-5 3-3 2-2")
    assert events[-1] == TurnStarted(1, 2)
    assert state.wall_size == 17 - extra


def test_an_old_record_with_the_first_turn_draw_under_classic_replays_as_stored() -> None:
    old = {**kap_shap("classic").flags(), "first_turn_extra_draw": True}
    rules = RuleSet.from_flags(json.loads(json.dumps(old)))
    state = start(rules, [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")
    assert state.current == 1 and takes(state) == {"take 2-2"}
    assert [str(m) for m in state.history] == ["discard 6-5", "draw", "discard 2-2"]


@pytest.mark.parametrize(
    ("game", "players", "hands", "extra"),
    [
        ("kap-shap", 2, [P0, P1], False),
        ("kap-tai-shap", 2, [KTS_P0, KTS_P1], True),
    ],
)
def test_first_turn_extra_draw_flag_overrides_the_default(
    game: str, players: int, hands: list[str], extra: bool
) -> None:
    rules = make_rules(game, players, first_turn_extra_draw=extra)
    state = start(rules, hands, "5-1")
    state, _ = play(state, "discard 6-5")
    if extra:
        assert state.current == 0 and legal(state) == {"draw"}
    else:
        assert state.current == 1 and state.phase is Phase.TAKE_OR_DRAW


# ---------------------------------------------------------------------------------------------
# Declaring


WINNER = "6-6 6-6 4-4 1-1 3-1 3-3 6-5 6-3"  # eye 6-6, 4-4 + 1-1, 3-1 + 3-3, 6-5 + 6-3
NO_PAIR = "6-5 6-4 6-1 5-1 5-2 4-3 4-1 3-2"  # no eye at all
NEEDS_65 = "6-6 6-6 4-4 1-1 3-1 3-3 6-3"  # wins with 6-5 (11 + 9 = 20), and nothing else


def test_declaring_only_on_ones_own_turn_with_a_verified_hand() -> None:
    state = start(kap_shap(), [NO_PAIR, NEEDS_65], "2-2 6-5")
    # A false declaration is refused and changes nothing.
    reason = refused(state, "declare")
    assert "not a winning hand" in reason
    # Seat 0 throws away the tile seat 1 needs; seat 1 cannot claim it out of turn.
    state, _ = play(state, "discard 6-5")
    assert state.current == 0 and "declare" not in legal(state)
    assert not view(state, 1).my_turn and view(state, 0).my_turn
    assert "full hand" in refused(state, "declare")
    state, _ = play(state, "draw", "discard 2-2")
    # Seat 1's turn, but he holds 7 tiles: nothing to declare yet.
    assert state.current == 1
    assert "full hand" in refused(state, "declare")
    state, events = play(state, "take 6-5")
    assert "declare" in legal(state)
    state, events = play(state, "declare")
    (declared,) = events
    assert isinstance(declared, Declared)
    assert declared.seat == 1 and declared.win_by is WinBy.TAKE
    assert (
        witness_problems(declared.witness, hand_tiles(state, 1), state.rules.four_two_value, False)
        == []
    )
    assert declared.witness.eye == tuple(tiles("6-6 6-6"))
    result = state.result
    assert result is not None
    assert (result.reason, result.winner, result.win_by, result.turn) == (
        EndReason.DECLARED,
        1,
        WinBy.TAKE,
        2,
    )
    assert result.witness == declared.witness
    assert legal_actions(state) == []
    assert "over" in refused(state, "draw")


def test_declaring_a_dealt_winning_hand() -> None:
    state = start(kap_shap(), [WINNER, "5-5 5-5 6-4 6-4 6-1 6-1 5-1"])
    assert "declare" in legal(state)
    state, events = play(state, "declare")
    declared = events[0]
    assert isinstance(declared, Declared)
    assert events == [Declared(0, declared.witness, WinBy.DEALT)]
    assert state.result is not None and state.result.win_by is WinBy.DEALT
    assert state.result.turn == 1


def test_a_dealt_winning_hand_of_the_first_player_in_another_seat() -> None:
    rules = make_rules("kap-tai-shap", 3)  # 2 sets
    state = start(
        rules,
        [KTS_P1, "6-6 6-6 4-4 1-1 3-1 3-3 6-5 6-3 5-5 6-4", KTS_P1],
        first_seat=1,
    )
    assert state.current == 1
    state, events = play(state, "declare")
    assert isinstance(events[0], Declared) and events[0].seat == 1
    assert events[0].win_by is WinBy.DEALT


@pytest.mark.parametrize("rule_set", ["culin", "classic", "last-draw"])
def test_win_after_a_take(rule_set: str) -> None:
    state = start(kap_shap(rule_set), [NO_PAIR, NEEDS_65], "2-2")
    # Only Kap Shap under Culin gives the first player a draw after his opening discard.
    opening = ("discard 5-2", "draw", "discard 6-5") if rule_set == "culin" else ("discard 6-5",)
    state, _ = play(state, *opening)
    assert "declare" not in legal(state)
    state, _ = play(state, "take 6-5")
    state, events = play(state, "declare")
    assert isinstance(events[0], Declared) and events[0].win_by is WinBy.TAKE
    assert state.result is not None and state.result.winner == 1


@pytest.mark.parametrize("rule_set", ["culin", "classic", "last-draw"])
def test_win_after_a_draw(rule_set: str) -> None:
    if rule_set == "culin":
        state = start(kap_shap(rule_set), [NO_PAIR, NEEDS_65], "2-2 6-5")
        state, _ = play(state, "discard 5-2", "draw", "discard 2-2", "draw")
    else:
        state = start(kap_shap(rule_set), [NO_PAIR, NEEDS_65], "6-5")
        state, _ = play(state, "discard 5-2", "draw")
    assert "declare" in legal(state)
    state, events = play(state, "declare")
    assert isinstance(events[0], Declared) and events[0].win_by is WinBy.DRAW
    assert state.result is not None and state.result.winner == 1


def test_a_winning_hand_need_not_be_declared_but_stays_declarable() -> None:
    state = start(kap_shap(), [WINNER, "6-4 6-1 5-1 5-2 4-3 4-1 3-2"], "4-4")
    assert "declare" in legal(state)
    state, _ = play(state, "discard 4-4", "draw")
    # Back to a winning hand after the draw: declared as a draw win.
    state, events = play(state, "declare")
    assert isinstance(events[0], Declared) and events[0].win_by is WinBy.DRAW


MILITARY_EYE = "6-3 6-3 5-5 6-4 6-5 5-4 3-1 3-3 4-4 1-1"


def test_military_eyes_with_several_sets() -> None:
    rules = make_rules("kap-tai-shap", 2, sets=2)
    state = start(rules, [MILITARY_EYE, KTS_P1])
    assert "declare" in legal(state)
    state, events = play(state, "declare")
    assert isinstance(events[0], Declared)
    assert events[0].witness.eye == tuple(tiles("6-3 6-3"))


def test_military_eyes_refused_with_civil_eyes_only() -> None:
    rules = make_rules("kap-tai-shap", 2, sets=2, civil_eyes_only=True)
    state = start(rules, [MILITARY_EYE, KTS_P1])
    assert "declare" not in legal(state)
    assert "not a winning hand" in refused(state, "declare")


def test_military_eyes_impossible_with_one_set() -> None:
    rules = make_rules("kap-tai-shap", 2, sets=1)
    with pytest.raises(RulesError, match="6-3"):
        deal_from_tiles(rules, [parse_tiles(MILITARY_EYE), parse_tiles(KTS_P1)])


@pytest.mark.parametrize(
    ("dealt", "winners"),
    [
        ("6-6 6-6 4-2 6-1 3-1 3-3 6-5 6-3", {"3", "wild"}),  # 4-2 + 6-1 = 3 + 7
        ("6-6 6-6 4-2 2-2 3-1 3-3 6-5 6-3", {"6", "wild"}),  # 4-2 + 2-2 = 6 + 4
        ("6-6 6-6 2-1 3-1 4-2 2-2 6-5 6-3", {"wild"}),  # 2-1 and 4-2 both as 6
    ],
)
@pytest.mark.parametrize("value", ["3", "6", "wild"])
def test_four_two_value_changes_whether_a_hand_wins(
    dealt: str, winners: set[str], value: str
) -> None:
    state = start(kap_shap(four_two_value=value), [dealt, "1-1 1-1 4-4 4-4 5-5 5-5 6-4"])
    if value in winners:
        state, events = play(state, "declare")
        assert isinstance(events[0], Declared)
        problems = witness_problems(
            events[0].witness, tiles(dealt), state.rules.four_two_value, False
        )
        assert problems == []
    else:
        assert "not a winning hand" in refused(state, "declare")


# ---------------------------------------------------------------------------------------------
# Ends that are not a win


# The stall guard under Classic: seat 1 takes seat 0's opening discard, seat 0 takes seat 1's
# discard, and what seat 0 throws next either completes seat 1's hand (6-5) or not.
STALL_P0 = "6-3 6-5 5-5 2-2 5-2 4-3 4-1 3-2"  # no pair: never wins
STALL_P1 = "6-6 6-6 4-4 1-1 3-1 3-3 5-1"  # with 6-3 in and 5-1 out, it is NEEDS_65
STALL_WALL = "6-4 6-1"


def _stalled_classic(thrown: str) -> GameState:
    """Two turns in a row took a discard and drew nothing (after an opening discard, which
    took nothing); seat 0 has just thrown ``thrown``."""
    state = start(kap_shap("classic"), [STALL_P0, STALL_P1], STALL_WALL)
    state, _ = play(state, "discard 6-3")
    # The opening discard took nothing: it does not count toward the guard.
    assert view(state, 1).turns_without_draw == 0
    state, _ = play(state, "take 6-3", "discard 5-1")
    assert view(state, 0).turns_without_draw == 1
    assert takes(state) == {"take 5-1"}
    state, _ = play(state, "take 5-1", f"discard {thrown}")
    assert state.current == 1 and view(state, 1).turns_without_draw == 2
    return state


def test_stall_guard_forces_a_draw_after_n_turns_that_took_without_a_draw() -> None:
    state = _stalled_classic("5-5")
    # Two players, two turns in a row took a discard without a draw, and taking 5-5 would
    # not win: seat 1 must draw.
    assert legal(state) == {"draw"}
    for move in ("take 5-5", "take"):
        reason = refused(state, move)
        assert "2 turns" in reason and "without a draw" in reason and "must draw" in reason
    # The view agrees with the legal actions: 5-5 lies face up and live, yet not takeable.
    seen = view(state, 1)
    assert str(seen.pool[-1].tile) == "5-5" and not seen.pool[-1].dead
    assert seen.takeable == ()
    state, _ = play(state, "draw", "discard 6-6")
    assert view(state, 0).turns_without_draw == 0
    assert takes(state) == {"take 6-6"}
    assert [str(p.tile) for p in view(state, 0).takeable] == ["6-6"]


def test_stall_guard_never_forbids_a_winning_take() -> None:
    state = _stalled_classic("6-5")
    # The guard holds, but 6-5 completes seat 1's hand: the take is allowed (and a draw too).
    assert legal(state) == {"take 6-5", "draw"}
    assert [str(p.tile) for p in view(state, 1).takeable] == ["6-5"]
    assert view(state, 0).takeable == () and view(state, None).takeable == ()
    state, _ = play(state, "take 6-5")
    state, events = play(state, "declare")
    assert isinstance(events[0], Declared) and events[0].win_by is WinBy.TAKE
    assert state.result is not None and state.result.winner == 1


def test_stall_guard_does_not_count_the_opening_discard_of_kap_tai_shap() -> None:
    rules = make_rules("kap-tai-shap", 3, rule_set="classic")
    state = start(rules, [KTS_P0, KTS_P1, KTS_P1])
    state, _ = play(state, "discard 6-1", "take 6-1", "discard 6-6", "take 6-6", "discard 1-1")
    # Three turns without a draw, but the first took nothing: two count, seat 0 may take.
    assert state.current == 0
    assert view(state, 0).turns_without_draw == 2
    assert legal(state) == {"take 1-1", "draw"}
    state, _ = play(state, "take 1-1", "discard 4-4")
    assert view(state, 1).turns_without_draw == 3
    assert legal(state) == {"draw"}
    assert "3 turns" in refused(state, "take 4-4")


def test_stall_guard_can_be_switched_off() -> None:
    state = start(kap_shap("classic", stall_guard=False), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")
    state, _ = play(state, "take 2-2", "discard 1-1", "take 1-1", "discard 6-6")
    assert takes(state) == {"take 6-6"}


def _draw_and_throw(state: GameState) -> GameState:
    """Draw, then discard the tile just drawn (the hand never changes)."""
    state, events = apply(state, Draw())
    drawn = events[0]
    assert isinstance(drawn, Drew)
    state, _ = apply(state, Discard(drawn.tile))
    return state


# The wall runs out: every drawn tile is thrown at once, the last one (6-5) by the seat before
# the one holding NEEDS_65.
EMPTY_WALL = "1-1 4-4 3-1 5-5 5-5 3-3 2-2 2-2 6-4 6-1 5-1 6-2 5-3 3-2 4-2 2-1 6-5"
JUNK = "6-5 5-4 6-1 5-1 5-2 4-3 4-1"  # no pair: never wins


def _until_the_wall_is_empty(
    rule_set: str, junk: str = JUNK, wall: str = EMPTY_WALL
) -> tuple[GameState, int, list[Event]]:
    """The game once the last tile is drawn and thrown; the seat holding NEEDS_65 plays next.

    Returns the state, that seat and the events of the last discard.
    """
    rules = kap_shap(rule_set)
    # 17 tiles to draw: with the first player's extra draw, seat 0 draws the last one.
    needy = 1 if rules.first_turn_extra_draw else 0
    hands = [f"{junk} 6-4", NEEDS_65] if needy else [f"{NEEDS_65} 6-4", junk]
    state = start(rules, hands, wall)
    state, events = play(state, "discard 6-4")
    while state.wall_size:
        state, drew = play(state, "draw")
        drawn = drew[0]
        assert isinstance(drawn, Drew)
        state, events = play(state, Discard(drawn.tile))
    return state, needy, events


@pytest.mark.parametrize("rule_set", ["culin", "classic", "last-draw"])
def test_an_empty_wall_allows_only_a_winning_take(rule_set: str) -> None:
    state, needy, events = _until_the_wall_is_empty(rule_set)
    assert events[-1] == TurnStarted(needy, state.turn)
    assert state.result is None and state.current == needy
    # No draw is left; of the face-up discards only the winning 6-5 may be taken.
    assert legal(state) == {"take 6-5"}
    assert "wall is empty" in refused(state, "draw")
    seen = view(state, needy)
    assert [str(p.tile) for p in seen.takeable] == ["6-5"]
    assert view(state, 1 - needy).takeable == ()
    if rule_set == "culin":
        # Every discard is live under Culin, yet one that cannot win may not be taken.
        assert sum(not p.dead for p in seen.pool) > 1
        reason = refused(state, "take 2-1")
        assert "wall is empty" in reason and "only if it wins" in reason
    state, _ = play(state, "take 6-5")
    state, events = play(state, "declare")
    assert isinstance(events[0], Declared) and events[0].win_by is WinBy.TAKE
    assert state.result is not None and state.result.winner == needy


@pytest.mark.parametrize("rule_set", ["culin", "classic", "last-draw"])
def test_an_empty_wall_draws_the_game_at_once_when_no_take_wins(rule_set: str) -> None:
    # Both 6-5 lie in the other hand: no discard can complete NEEDS_65, so nobody is made to
    # take a tile only to find the game drawn.
    junk = "6-5 6-5 6-1 5-1 5-2 4-3 4-1"
    state, _, events = _until_the_wall_is_empty(rule_set, junk, EMPTY_WALL.replace("6-5", "5-4"))
    assert events[-1] == GameDrawn(EndReason.WALL)
    assert not any(isinstance(e, TurnStarted) for e in events)
    assert state.result is not None
    assert (state.result.reason, state.result.winner) == (EndReason.WALL, None)
    assert legal_actions(state) == []
    assert view(state, 0).takeable == () and view(state, 1).takeable == ()


def test_max_turns_caps_the_game() -> None:
    state = start(kap_shap(max_turns=3), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 6-4")
    state = _draw_and_throw(state)
    state, _ = play(state, "draw")
    assert state.result is None
    state, events = play(state, "discard 2-2")
    assert events[-1] == GameDrawn(EndReason.CAP)
    assert not any(isinstance(e, TurnStarted) for e in events)
    assert state.result is not None
    assert (state.result.reason, state.result.turn, state.result.winner) == (EndReason.CAP, 3, None)
    assert "over" in refused(state, "take 2-2")


def test_max_turns_of_one() -> None:
    rules = make_rules("kap-tai-shap", 2, max_turns=1)
    state = start(rules, [KTS_P0, KTS_P1])
    state, events = play(state, "discard 6-1")
    assert events[-1] == GameDrawn(EndReason.CAP)


def test_take_without_a_tile_takes_the_most_recent() -> None:
    state = start(kap_shap("culin"), [P0, P1], WALL)
    state, _ = play(state, "discard 6-5", "draw", "discard 2-2")
    state, events = apply(state, Take())
    assert events == [Took(1, parse_tiles("2-2")[0], 0)]
    assert Declare() not in legal_actions(state)


def test_a_hand_of_one_kind_can_still_discard_after_taking_that_kind() -> None:
    # With 5 sets there are 10 copies of 6-6: a player holding nine takes the tenth. Every
    # discard would put a 6-6 back; forbidding them all would leave him without a legal move
    # and the game could never end (RULES.md §2.4).
    rules = make_rules("kap-tai-shap", 2, sets=5)
    state = start(rules, [KTS_P0, " ".join(["6-6"] * 9)])
    state, _ = play(state, "discard 6-6", "take 6-6")
    assert state.result is None
    assert legal(state) == {"discard 6-6"}
    state, _ = play(state, "discard 6-6")
    assert hand(state, 1) == ["6-6"] * 9
    assert state.phase is Phase.DRAW  # Culin: the draw still follows


def test_events_describe_a_drawn_tile_only_to_the_drawer() -> None:
    state = start(kap_shap(), [P0, P1], WALL)
    state, events = play(state, "discard 6-5", "draw")
    drew = events[-1]
    assert isinstance(drew, Drew) and str(drew.tile) == "6-4"
    seat_names = ["Ann", "Bob"]
    assert "6-4" in describe_event(drew, 0, seat_names)
    for viewer in (1, None):
        text = describe_event(drew, viewer, seat_names)
        assert "6-4" not in text and "Red-head" not in text
        assert "Ann drew a tile" in text
    assert "6-5" in describe_event(events[0], 1, seat_names)  # discards are public
    assert [str(m) for m in view(state, 1).history] == ["discard 6-5", "draw"]
