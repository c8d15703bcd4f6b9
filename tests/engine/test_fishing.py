"""Tsung Shap (RULES.md §3): one exact-deal scenario per rule and per flag.

Piles are written in notation, first tile to be turned over first (``deal_from_piles``); the
tiles a test does not name fill the rest of the piles in a fixed order.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import (
    Deal,
    IllegalAction,
    apply,
    legal_actions,
    make_rules,
    new_game,
    parse_action,
    parse_tiles,
    view,
)
from bot.engine.events import TurnStarted
from bot.engine.rules import Game, RuleSet
from bot.engine.tiles import kind_of_piece
from bot.games.collecting.engine.actions import Take
from bot.games.dominoes.engine.actions import Draw
from bot.games.fishing.engine import (
    Captured,
    Claimed,
    FishingEndReason,
    FishingEvent,
    FishingPhase,
    FishingState,
    GameOver,
    MissedCapture,
    Placed,
    Swept,
    TileTurned,
    deal_from_piles,
    difference_payment,
    pile_tiles,
    row_tiles,
)
from bot.games.fishing.engine.actions import Capture, Claim, ComboKind, End, FishingAction, Place

RULES = make_rules("tsung-shap")


def rules(**flags: Any) -> RuleSet:
    return make_rules("tsung-shap", **flags)


def start(
    first: str, second: str = "", rules: RuleSet = RULES, first_seat: int = 0
) -> FishingState:
    """A new game whose piles begin with these tiles (first player's pile first)."""
    deal = deal_from_piles(rules, parse_tiles(first), parse_tiles(second), first_seat)
    return new_game(rules, ["A", "B"], deal)


def play(state: FishingState, *moves: str) -> tuple[FishingState, list[FishingEvent]]:
    """Apply moves in notation; returns the final state and every event."""
    events: list[FishingEvent] = []
    for move in moves:
        state, new = apply(state, parse_action(move, Game.TSUNG_SHAP))
        events += new
    return state, events


def row(state: FishingState) -> str:
    return " ".join(map(str, row_tiles(state)))


def legal(state: FishingState) -> list[str]:
    return [str(a) for a in legal_actions(state)]


def of(kind: type[Any], events: list[FishingEvent]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def simple_policy(state: FishingState) -> FishingAction:
    """Capture with the first option if any, otherwise draw or place right (never claims)."""
    actions = legal_actions(state)
    captures = [a for a in actions if isinstance(a, Capture)]
    if captures:
        return captures[0]
    if Draw() in actions:
        return Draw()
    return Place(End.RIGHT)


def play_out(state: FishingState) -> tuple[FishingState, list[FishingEvent]]:
    events: list[FishingEvent] = []
    while state.result is None:
        state, new = apply(state, simple_policy(state))
        events += new
    return state, events


# A row of three with no capture on the way: 6-6 1-1 (the opening), then A places 5-5 right.
# Turn 4 is B's: t + 6-6 + 1-1 (left), t + 1-1 + 5-5 (right), t + 6-6 + 5-5 (ends).
THREE_ROW = ("6-6 5-5", "1-1")


def three_row(
    b_tile: str, rules: RuleSet = RULES, a_more: str = "", b_more: str = ""
) -> FishingState:
    first, second = THREE_ROW
    state = start(f"{first} {a_more}", f"{second} {b_tile} {b_more}", rules)
    state, _ = play(state, "draw", "draw", "draw", "place right", "draw")
    assert row(state) == "6-6 1-1 5-5"
    assert state.current == 1 and state.phase is FishingPhase.PLAY
    return state


# ---------------------------------------------------------------------------------------------
# Setup and the opening


def test_setup_first_sixteen_go_to_the_first_player() -> None:
    deal = deal_from_piles(RULES, parse_tiles("6-6 5-5"), parse_tiles("1-1"), first_seat=1)
    state = new_game(RULES, ["A", "B"], deal)
    assert [kind_of_piece(p) for p in deal.order[:16]] == pile_tiles(state, 1)
    assert [kind_of_piece(p) for p in deal.order[16:]] == pile_tiles(state, 0)
    assert pile_tiles(state, 1)[:2] == parse_tiles("6-6 5-5")
    assert pile_tiles(state, 0)[0] == parse_tiles("1-1")[0]
    assert state.current == 1 and state.turn == 1
    assert state.phase is FishingPhase.TURN_OVER
    assert legal(state) == ["draw"]
    assert view(state, 0).pile_sizes == (16, 16)


def test_opening_tiles_are_simply_laid_out() -> None:
    state = start("6-6 4-4", "5-5")
    state, events = play(state, "draw")
    assert row(state) == "6-6"
    assert events == [
        TileTurned(0, parse_tiles("6-6")[0], 15),
        Placed(0, parse_tiles("6-6")[0], None, auto=True),
        TurnStarted(1, 2),
    ]
    state, events = play(state, "draw")
    assert row(state) == "6-6 5-5"  # beside it, to the right
    assert of(Placed, events) == [Placed(1, parse_tiles("5-5")[0], End.RIGHT, auto=True)]
    assert state.current == 0 and state.turn == 3
    assert legal(state) == ["draw"]


def test_opening_tile_identical_to_the_first_is_laid_out_not_captured() -> None:
    state = start("6-6", "6-6")
    state, events = play(state, "draw", "draw")
    assert row(state) == "6-6 6-6"
    assert state.scores == (0, 0)
    assert not of(MissedCapture, events)
    assert legal(state) == ["draw"]  # nothing to claim: there was no choice


def test_second_may_capture_opening() -> None:
    r = rules(second_may_capture_opening=True)
    state, _ = play(start("6-6 5-5", "6-6", r), "draw", "draw")
    assert state.phase is FishingPhase.PLAY
    assert legal(state) == ["capture pair left", "place left", "place right"]
    captured, events = play(state, "capture pair left")
    assert captured.scores == (0, 240)
    assert row(captured) == ""
    assert not of(Swept, events)
    # A places the next tile on the empty row: it starts a new one.
    captured, events = play(captured, "draw")
    assert row(captured) == "5-5"
    assert of(Placed, events)[0].end is None
    # Or B places the opening tile at the left: that is a miss A may claim.
    placed, events = play(state, "place left")
    assert row(placed) == "6-6 6-6"
    assert of(MissedCapture, events)[0].claimant == 0
    assert legal(placed) == ["claim pair left", "draw"]


def test_second_may_capture_opening_without_a_capture_places_either_side() -> None:
    r = rules(second_may_capture_opening=True)
    state, _ = play(start("6-6", "5-5", r), "draw", "draw")
    assert legal(state) == ["place left", "place right"]
    state, events = play(state, "place left")
    assert row(state) == "5-5 6-6"
    assert not of(MissedCapture, events)


# ---------------------------------------------------------------------------------------------
# Pairs


def test_pair_left() -> None:
    state, _ = play(start("6-6 6-6", "5-5"), "draw", "draw", "draw")
    assert legal(state) == ["capture pair left", "place left", "place right"]
    state, events = play(state, "capture pair left")
    assert state.scores == (240, 0)  # 10 x (12 + 12)
    assert row(state) == "5-5"
    captured = of(Captured, events)[0]
    assert (captured.kind, captured.end, captured.score) == (ComboKind.PAIR, End.LEFT, 240)
    assert captured.tiles == tuple(parse_tiles("6-6 6-6"))
    assert not of(Swept, events)
    assert state.current == 1
    assert sorted(map(str, view(state, 1).captured[0])) == ["6-6", "6-6"]


def test_pair_right() -> None:
    state, _ = play(start("6-6 5-5", "5-5"), "draw", "draw", "draw")
    assert legal(state) == ["capture pair right", "place left", "place right"]
    state, _ = play(state, "capture pair right")
    assert state.scores == (200, 0)
    assert row(state) == "6-6"


def test_single_tile_row_pair_empties_the_row_without_a_sweep() -> None:
    # A pairs 6-6 at the left, leaving 5-5 alone; B pairs it.
    state, _ = play(start("6-6 6-6 4-4", "5-5 5-5"), "draw", "draw", "draw", "capture pair left")
    state, _ = play(state, "draw")
    assert row(state) == "5-5"
    assert legal(state) == ["capture pair left", "place left", "place right"]
    # "pair right" names the same capture on a one-tile row.
    same, _ = play(state, "capture pair right")
    state, events = play(state, "capture pair left")
    assert same.row == state.row and same.scores == state.scores
    assert state.scores == (240, 200)
    assert row(state) == ""
    assert not of(Swept, events)
    assert not [e for e in events if isinstance(e, TileTurned) and e.relay]
    assert state.current == 0
    state, events = play(state, "draw")  # A's next tile starts a new row
    assert row(state) == "4-4"
    assert of(Placed, events)[0] == Placed(0, parse_tiles("4-4")[0], None, auto=True)


# ---------------------------------------------------------------------------------------------
# Triplets


def test_triplet_left() -> None:
    state = three_row("3-3")  # 6 + 12 + 2 = 20
    assert legal(state) == ["capture triplet left", "place left", "place right"]
    state, events = play(state, "capture triplet left")
    assert state.scores == (0, 20)
    assert row(state) == "5-5"
    assert of(Captured, events)[0].tiles == tuple(parse_tiles("3-3 6-6 1-1"))


def test_triplet_right_and_ends() -> None:
    state = three_row("4-4")  # 8 + 2 + 10 = 20 (right), 8 + 12 + 10 = 30 (ends)
    assert legal(state) == [
        "capture triplet right",
        "capture triplet ends",
        "place left",
        "place right",
    ]
    right, _ = play(state, "capture triplet right")
    assert right.scores == (0, 20)
    assert row(right) == "6-6"
    ends, events = play(state, "capture triplet ends")
    assert ends.scores == (0, 30)
    assert row(ends) == "1-1"
    assert of(Captured, events)[0].tiles == tuple(parse_tiles("4-4 6-6 5-5"))
    assert not of(Swept, events)


def test_triplet_both_ends_only() -> None:
    r = rules(triplet_both_ends_only=True)
    left_only = three_row("3-3", r)
    assert legal(left_only) == ["place left", "place right"]
    with pytest.raises(IllegalAction, match="triplet_both_ends_only"):
        play(left_only, "capture triplet left")
    both = three_row("4-4", r)
    assert legal(both) == ["capture triplet ends", "place left", "place right"]
    with pytest.raises(IllegalAction, match="capture triplet ends"):
        play(both, "capture triplet right")
    # Pairs are unaffected.
    paired, _ = play(start("6-6 6-6", "5-5", r), "draw", "draw", "draw")
    assert "capture pair left" in legal(paired)


# ---------------------------------------------------------------------------------------------
# Sweeps


def test_sweep_scores_forty_and_the_sweeper_starts_a_new_row() -> None:
    # Row 6-6 1-1; A turns over 3-3: 6 + 12 + 2 = 20 takes the last two tiles.
    state, _ = play(start("6-6 3-3 4-4 2-2", "1-1"), "draw", "draw", "draw")
    assert legal(state) == ["capture triplet ends", "place left", "place right"]
    same, _ = play(state, "capture triplet left")  # another name for the same capture
    state, events = play(state, "capture triplet ends")
    assert same.row == state.row and same.scores == state.scores
    assert state.scores == (40, 0)
    assert row(state) == "4-4"
    four_four = parse_tiles("4-4")[0]
    assert events == [
        Captured(0, ComboKind.TRIPLET, End.ENDS, tuple(parse_tiles("3-3 6-6 1-1")), 40, True),
        Swept(0),
        TileTurned(0, four_four, 13, relay=True),
        Placed(0, four_four, None, auto=True),
        TurnStarted(1, 4),
    ]
    assert view(state, 0).pile_sizes == (13, 15)
    assert pile_tiles(state, 0)[0] == parse_tiles("2-2")[0]


def test_sweep_adds_pips() -> None:
    r = rules(sweep_adds_pips=True)
    state, _ = play(start("6-6 3-3 4-4", "1-1", r), "draw", "draw", "draw")
    state, _ = play(state, "capture triplet ends")
    assert state.scores == (60, 0)  # 40 + 20


def test_sweep_with_the_last_tile_leaves_no_new_row() -> None:
    # Found by search: A sweeps with the last tile of his pile on turn 29 (relays used the
    # others up), so nobody starts a new row.
    first = "6-6 1-1 6-3 2-2 3-2 6-6 2-1 6-5 6-2 6-4 3-1 1-1 5-3 4-1 3-3 5-5"
    second = "3-1 4-4 4-4 2-2 3-3 4-2 5-1 5-4 5-1 5-5 6-5 5-2 6-1 6-1 4-3 6-4"
    # By default the game is over then.
    state, events = play_out(start(first, second))
    assert state.result is not None
    assert state.result.turn == 29
    assert state.result.reason is FishingEndReason.PILE_EMPTY
    assert isinstance(events[-2], Swept) and events[-2].seat == 0
    assert isinstance(events[-1], GameOver)
    assert pile_tiles(state, 0) == [] and row(state) == ""
    # Playing until both piles are empty, B goes on alone and starts the next row.
    r = rules(play_until_both_piles_empty=True)
    state, events = play_out(start(first, second, r))
    swept_at = max(i for i, e in enumerate(events) if isinstance(e, Swept))
    assert events[swept_at + 1] == TurnStarted(1, 30)
    assert isinstance(events[swept_at + 2], TileTurned)
    assert isinstance(events[swept_at + 3], Placed) and events[swept_at + 3].end is None
    assert events[swept_at + 4] == TurnStarted(1, 31)
    assert state.result is not None
    assert state.result.reason is FishingEndReason.BOTH_PILES_EMPTY
    assert state.result.turn == 31
    assert view(state, 0).pile_sizes == (0, 0)


def test_a_relay_tile_that_empties_the_pile_ends_the_game() -> None:
    # Found by search: B sweeps on turn 30 with one tile left, lays it out, and his pile is
    # empty: the game ends before A turns over his sixteenth tile.
    first = "3-3 3-3 1-1 5-3 6-6 6-4 5-1 4-3 6-1 6-5 1-1 3-2 4-4 5-5 4-2 5-1"
    second = "4-1 3-1 5-2 6-4 2-2 5-5 6-3 3-1 6-2 6-1 6-6 4-4 2-2 5-4 6-5 2-1"
    state, events = play_out(start(first, second))
    relay = [e for e in events if isinstance(e, TileTurned) and e.relay][-1]
    assert (relay.seat, relay.pile_left) == (1, 0)
    assert state.result is not None
    assert (state.result.turn, state.result.reason) == (30, FishingEndReason.PILE_EMPTY)
    assert view(state, 0).pile_sizes == (1, 0)
    assert state.result.scores == (520, 140) and state.result.winner == 0


# ---------------------------------------------------------------------------------------------
# Missed captures


def test_missed_capture_is_claimed_at_the_start_of_the_next_turn() -> None:
    state = three_row("4-4", a_more="2-2")  # B could take triplet right (20) or ends (30)
    state, events = play(state, "place left")
    assert row(state) == "4-4 6-6 1-1 5-5"
    missed = of(MissedCapture, events)[0]
    assert (missed.seat, missed.claimant) == (1, 0)
    assert [(str(c.claim), c.score) for c in missed.missed] == [
        ("claim triplet right", 20),
        ("claim triplet ends", 30),
    ]
    seen = view(state, 0)
    assert [c.score for c in seen.pending] == [20, 30] and seen.missed_by == 1
    assert view(state, None).pending == seen.pending  # public
    assert legal(state) == ["claim triplet right", "claim triplet ends", "draw"]
    # The claim takes the combination's tiles from wherever they now lie.
    state, events = play(state, "claim triplet ends")
    assert row(state) == "1-1"
    assert state.scores == (30, 0)
    claimed = of(Claimed, events)[0]
    assert (claimed.seat, claimed.from_seat, claimed.combination.score) == (0, 1, 30)
    assert claimed.combination.tiles == tuple(parse_tiles("4-4 6-6 5-5"))
    # One claim only; then the turn goes on normally.
    assert legal(state) == ["draw"]
    with pytest.raises(IllegalAction, match="already claimed"):
        play(state, "claim triplet right")
    state, _ = play(state, "draw")  # A's own tile, 2-2, cannot capture on a one-tile row
    assert row(state) == "1-1" and state.phase is FishingPhase.PLAY
    assert legal(state) == ["place left", "place right"]
    assert view(state, 0).pending == ()


def test_missed_capture_lapses_if_unclaimed() -> None:
    state = three_row("4-4", a_more="2-2")
    state, _ = play(state, "place left", "draw")
    assert state.phase is FishingPhase.PLAY
    assert view(state, 0).pending == ()
    assert not any(isinstance(a, Claim) for a in legal_actions(state))
    with pytest.raises(IllegalAction, match="start of a turn"):
        play(state, "claim triplet ends")
    state, _ = play(state, "place right")
    assert not any(isinstance(a, Claim) for a in legal_actions(state))  # not at B's turn either
    assert state.scores == (0, 0)


def test_missed_sweep_is_claimed_as_a_sweep() -> None:
    state, _ = play(start("6-6 3-3 4-4", "1-1 2-2"), "draw", "draw", "draw")
    state, events = play(state, "place right")
    assert row(state) == "6-6 1-1 3-3"
    assert legal(state) == ["claim triplet ends", "draw"]
    same, _ = play(state, "claim triplet left")  # other name, as when it was missed
    state, events = play(state, "claim triplet ends")
    assert same.row == state.row
    assert state.scores == (0, 40)
    assert row(state) == ""
    assert not of(Swept, events)  # no relay for a claim: B's own tile will start the row
    state, _ = play(state, "draw")
    assert row(state) == "2-2"


def test_auto_capture_offers_only_the_best_capture() -> None:
    r = rules(auto_capture=True)
    state = three_row("4-4", r)
    assert legal(state) == ["capture triplet ends"]
    with pytest.raises(IllegalAction, match="auto_capture"):
        play(state, "place left")
    with pytest.raises(IllegalAction, match="only the best capture"):
        play(state, "capture triplet right")
    state, events = play(state, "capture triplet ends")
    assert state.scores == (0, 30)
    assert not of(MissedCapture, events)
    # Without a capture, placing is free.
    state = three_row("6-4", r)  # 10 + 14, 10 + 12, 10 + 22: none
    assert legal(state) == ["place left", "place right"]


def test_auto_capture_keeps_tied_captures() -> None:
    r = rules(auto_capture=True)
    # Row 6-4 1-1 5-5; B turns over 4-4: left 8 + 10 + 2 = 20, right 8 + 2 + 10 = 20,
    # ends 8 + 10 + 10 = 28. The two best captures tie: the choice is B's.
    state, _ = play(start("6-4 5-5", "1-1 4-4", r), "draw", "draw", "draw", "place right")
    state, _ = play(state, "draw")
    assert row(state) == "6-4 1-1 5-5"
    assert legal(state) == ["capture triplet left", "capture triplet right"]


# ---------------------------------------------------------------------------------------------
# The end, scores, settlement


def always_place(state: FishingState) -> FishingState:
    while state.result is None:
        action: FishingAction = Draw() if Draw() in legal_actions(state) else Place(End.RIGHT)
        state, _ = apply(state, action)
    return state


def test_game_ends_as_soon_as_a_pile_is_laid_out() -> None:
    state = always_place(start(""))
    assert state.result is not None
    assert state.result.turn == 31  # A's sixteenth tile; B still holds one
    assert view(state, 0).pile_sizes == (0, 1)
    assert state.result.reason is FishingEndReason.PILE_EMPTY
    assert legal_actions(state) == []
    with pytest.raises(IllegalAction, match="over"):
        apply(state, Draw())


def test_play_until_both_piles_empty() -> None:
    state = always_place(start("", rules=rules(play_until_both_piles_empty=True)))
    assert state.result is not None
    assert state.result.turn == 32
    assert view(state, 0).pile_sizes == (0, 0)
    assert len(state.row) == 32  # tiles left in the row score nothing
    assert state.result.reason is FishingEndReason.BOTH_PILES_EMPTY


def test_equal_scores_are_a_draw() -> None:
    state, _ = play(
        start("2-2 2-2", "3-1 3-1"), "draw", "draw", "draw", "capture pair left", "draw"
    )
    state, _ = play(state, "capture pair left")
    assert state.scores == (80, 80)
    state = always_place(state)
    assert state.result is not None
    assert state.result.scores == (80, 80)
    assert state.result.winner is None
    assert state.result.difference == 0
    assert difference_payment(rules(settlement="difference"), state.result) == 0


def test_highest_score_wins_and_difference_settlement() -> None:
    state, _events = play(start("6-6 6-6", "5-5"), "draw", "draw", "draw", "capture pair left")
    final = always_place(state)
    assert final.result is not None
    assert final.result.scores == (240, 0) and final.result.winner == 0
    over = [e for e in play_out(state)[1] if isinstance(e, GameOver)]
    assert over and over[0].winner is not None
    assert difference_payment(RULES, final.result) == 0  # pot settlement: services pay the pot
    r = rules(settlement="difference", settle_rate=3)
    assert difference_payment(r, final.result) == 720


# ---------------------------------------------------------------------------------------------
# The value of 4-2 (and 2-1 when wild)


def four_two_row(b_tile: str, four_two: str, gee_joon: str = "4-2") -> FishingState:
    """Row ``gee_joon`` 6-2 1-1 (A places 1-1 right), B to play ``b_tile``."""
    r = rules(four_two_value=four_two)
    state = start(f"{gee_joon} 1-1", f"6-2 {b_tile}", r)
    state, _ = play(state, "draw", "draw", "draw")
    assert legal(state) == ["place left", "place right"]
    state, _ = play(state, "place right", "draw")
    return state


@pytest.mark.parametrize(
    ("four_two", "b_tile", "captures"),
    [
        ("6", "3-3", True),  # 6 + 6 + 8 = 20
        ("6", "6-3", False),  # 9 + 6 + 8 = 23
        ("3", "3-3", False),  # 6 + 3 + 8 = 17
        ("3", "6-3", True),  # 9 + 3 + 8 = 20
        ("wild", "3-3", True),  # 4-2 counts 6
        ("wild", "6-3", True),  # 4-2 counts 3
    ],
)
def test_four_two_value(four_two: str, b_tile: str, captures: bool) -> None:
    state = four_two_row(b_tile, four_two)
    assert ("capture triplet left" in legal(state)) is captures
    if captures:
        state, _ = play(state, "capture triplet left")
        assert state.scores == (0, 20)


def test_default_four_two_value_is_six() -> None:
    assert RULES.four_two_value.value == "6"


@pytest.mark.parametrize(("four_two", "captures"), [("6", False), ("3", False), ("wild", True)])
def test_two_one_is_wild_only_under_wild(four_two: str, captures: bool) -> None:
    # 3-3 + 2-1 + 6-2 = 6 + 3 + 8 = 17; with 2-1 counting 6: 20.
    state = four_two_row("3-3", four_two, gee_joon="2-1")
    assert ("capture triplet left" in legal(state)) is captures


# ---------------------------------------------------------------------------------------------
# Illegal actions


def test_illegal_actions_are_refused_with_a_reason() -> None:
    state = start("6-6 6-6 4-4", "5-5 4-4")
    for move, words in [
        ("capture pair left", "turn over your next tile first"),
        ("place left", "turn over your next tile first"),
        ("claim pair left", "no missed capture"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            play(state, move)
    with pytest.raises(IllegalAction, match="not a Tsung Shap action"):
        apply(state, Take())
    state, _ = play(state, "draw", "draw", "draw")
    for move, words in [
        ("draw", "turned over 6-6 already"),
        ("capture pair right", "6-6 is not identical to the right end tile 5-5"),
        ("capture triplet ends", r"6-6 \+ 6-6 \+ 5-5 total 34, not a multiple of ten"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            play(state, move)
    state, _ = play(state, "capture pair left", "draw")  # B turns over 4-4 beside 5-5 alone
    assert row(state) == "5-5" and state.phase is FishingPhase.PLAY
    with pytest.raises(IllegalAction, match="needs two tiles"):
        play(state, "capture triplet left")
    with pytest.raises(IllegalAction, match="before turning over"):
        play(state, "claim pair left")


def test_the_collecting_engine_refuses_fishing_actions_and_rules() -> None:
    kap = new_game(make_rules("kap-shap"), ["A", "B"], Deal(tuple(range(32)), 0))
    with pytest.raises(IllegalAction, match="not a kap-shap action"):
        apply(kap, Capture(ComboKind.PAIR, End.LEFT))
    with pytest.raises(Exception, match="Tsung Shap"):
        deal_from_piles(make_rules("kap-shap"), [], [])


def test_state_is_not_mutated_and_versions_count_actions() -> None:
    state = start("6-6 6-6", "5-5")
    before = state
    after, _ = play(state, "draw")
    assert before == state and before.version == 0
    assert after.version == 1
    assert view(after, None).version == 1
