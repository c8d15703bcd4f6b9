"""Game records: export -> import -> replay gives the same game, and bad records name the line."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.family import State
from bot.engine.record import (
    FORMAT_LINE,
    GameRecord,
    RecordError,
    RecordSeat,
    final_state,
    parse_record,
    replay,
    result_line,
    write_record,
)
from bot.engine.tiles import kind_of_piece
from bot.games.collecting.engine.machine import GameState, hand_tiles
from bot.games.fishing.engine import FishingState

PRESETS = [
    ("kap-shap", 2, None, {}),
    ("kap-shap", 2, "classic", {}),
    ("kap-tai-shap", 4, None, {}),
    ("kap-tai-shap", 6, "last-draw", {"exclude_own_discards": False, "civil_eyes_only": True}),
    ("kap-tai-shap", 3, None, {"exclude_own_discards": True, "four_two_value": "wild"}),
    ("tsung-shap", 2, None, {}),
    ("tsung-shap", 2, None, {"auto_capture": True, "sweep_adds_pips": True}),
]


def random_game(preset: int, seed: int, limit: int | None = None) -> GameRecord:
    """A game of random legal actions (at most ``limit`` of them) as a record."""
    game, players, rule_set, flags = PRESETS[preset]
    rules = make_rules(game, players, rule_set, **flags)
    rng = random.Random(seed)
    deal = make_deal(rules, rng, thrower=rng.randrange(players))
    seats = tuple(
        RecordSeat(f"Player {i}", "member", str(1000 + i))
        if i % 2 == 0
        else RecordSeat(f"Bot {i}", "ai", "expert")
        for i in range(players)
    )
    state: State = new_game(rules, [s.name for s in seats], deal)
    actions: list[str] = []
    while state.result is None and (limit is None or len(actions) < limit):
        legal = legal_actions(state)  # type: ignore[arg-type]
        action = legal[rng.randrange(len(legal))]
        state, _ = apply(state, action)  # type: ignore[arg-type]
        actions.append(str(action))
    return GameRecord(rules, seats, deal, tuple(actions), {"Id": f"g{seed}", "Server": "42"})


def same_game(a: State, b: State) -> None:
    """The two states are the same game: every seat sees the same, hands hold the same tiles,
    same result, same public record, same wall (as tiles)."""
    assert a.result == b.result
    assert a.history == b.history
    assert a.version == b.version
    for seat in [None, *range(a.rules.players)]:
        assert view(a, seat) == view(b, seat)  # type: ignore[arg-type]
    if isinstance(a, GameState):
        assert isinstance(b, GameState)
        for seat in range(a.rules.players):
            assert hand_tiles(a, seat) == hand_tiles(b, seat)
        assert [kind_of_piece(p) for p in a.wall[a.wall_pos :]] == [
            kind_of_piece(p) for p in b.wall[b.wall_pos :]
        ]
    else:
        assert isinstance(a, FishingState) and isinstance(b, FishingState)
        assert [[kind_of_piece(p) for p in pile] for pile in a.piles] == [
            [kind_of_piece(p) for p in pile] for pile in b.piles
        ]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.integers(0, len(PRESETS) - 1), seed=st.integers(0, 10**9))
def test_export_import_replay_gives_the_same_final_state(preset: int, seed: int) -> None:
    record = random_game(preset, seed)
    text = write_record(record)
    back = parse_record(text)
    assert back.rules == record.rules
    assert back.seats == record.seats
    assert back.actions == record.actions
    assert back.tags["Id"] == f"g{seed}"
    same_game(final_state(record), final_state(back))
    # Writing the record read back gives the same text: the format is stable.
    assert write_record(back) == text


@pytest.mark.parametrize("preset", range(len(PRESETS)))
def test_every_game_kind_round_trips(preset: int) -> None:
    record = random_game(preset, 7)
    back = parse_record(write_record(record))
    same_game(final_state(record), final_state(back))
    assert result_line(final_state(back)) != "unfinished"


def test_an_unfinished_game_round_trips() -> None:
    record = random_game(0, 3, limit=3)
    text = write_record(record)
    assert "Result: unfinished" in text
    assert parse_record(text).actions == record.actions


def test_the_record_is_readable() -> None:
    record = random_game(0, 11)
    text = write_record(record)
    lines = text.splitlines()
    assert lines[0] == FORMAT_LINE
    assert "Game: kap-shap" in lines
    assert "Rule offer: any" in lines
    assert "Seat 0: Player 0 (member 1000)" in lines
    assert "Seat 1: Bot 1 (ai expert)" in lines
    assert any(line.startswith("; hand of seat ") for line in lines)
    assert "1. seat " in text


def bad(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.line == line, str(info.value)
    assert words.lower() in str(info.value).lower()
    assert str(info.value).startswith(f"line {line}: ") or line == 0


def edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_bad_records_name_the_line() -> None:
    record = random_game(0, 11)
    text = write_record(record)
    bad("", 0, "empty")
    bad("hello\n", 1, FORMAT_LINE)
    bad(edit(text, "Rule offer: any", "Rule offer: maybe"), line_of(text, "Rule offer"), "offer")
    bad(edit(text, "Rule sets: 1", "Rule sets: x"), line_of(text, "Rule sets"), "whole number")
    bad(edit(text, "Seat 1: Bot 1 (ai expert)", "Seat 1: Bot 1"), line_of(text, "Seat 1"), "seat")
    bad(edit(text, "Deal: ", "Deal: 7-7 "), line_of(text, "Deal:"), "7-7")
    bad(edit(text, "Deal: ", "Deal: 6-6 "), line_of(text, "Deal:"), "32 tiles")
    bad(edit(text, "First: ", "First: 9"), line_of(text, "First:"), "not at this table")
    bad(edit(text, "Dice: ", "Dice: 7 "), line_of(text, "Dice:"), "1 to 6")
    bad(text + "\nnonsense\n", len(text.splitlines()) + 2, "<n>. seat <s>")
    bad(edit(text, "Result: ", "Result: x"), line_of(text, "Result:"), "the actions give")
    first = line_of(text, "1. seat")
    seat = record.deal.first_seat
    bad(edit(text, f"1. seat {seat}:", f"1. seat {1 - seat}:"), first, "turn here")
    bad(edit(text, f"1. seat {seat}: ", f"1. seat {seat}: fly "), first, "Unknown action")
    bad(edit(text, "2. seat", "3. seat"), first + 1, "out of order")
    bad(edit(text, "Game: kap-shap", "Frobnicate: 1"), line_of(text, "Game:"), "Unknown")


def test_a_deal_word_that_is_no_tile_is_told_as_its_line_is_read() -> None:
    """The game's family reads the deal once the rules are known, but a word that names no
    tile is told first, as the reader meets the line (before a bad rule or a missing seat)."""
    text = write_record(random_game(5, 3))
    deal = line_of(text, "Deal:")
    for other in (
        edit(text, "Rule offer: any", "Rule offer: maybe"),
        edit(text, "Seat 1: Bot 1 (ai expert)\n", ""),
        edit(text, "First: ", "First: 9"),
    ):
        bad(edit(other, "Deal: ", "Deal: 7-7 "), deal - ("Seat 1" not in other), "7-7")


def test_an_illegal_action_names_its_line() -> None:
    record = random_game(0, 11)
    text = write_record(record)
    first = line_of(text, "1. seat")
    start = new_game(record.rules, record.names, record.deal)
    held = {str(t) for t in hand_tiles(start, start.current)}
    missing = next(str(kind_of_piece(p)) for p in range(32) if str(kind_of_piece(p)) not in held)
    lines = text.splitlines()
    seat = start.current
    lines[first - 1] = f"1. seat {seat}: discard {missing}"
    with pytest.raises(RecordError) as info:
        parse_record("\n".join(lines))
    assert info.value.line == first
    assert f"cannot play 'discard {missing}'" in str(info.value)
    assert "do not hold" in str(info.value)


def test_replay_steps_through_every_action() -> None:
    record = random_game(5, 5)
    steps = list(replay(record))
    assert [s.number for s in steps] == list(range(1, len(record.actions) + 1))
    assert steps[-1].state.result is not None
    assert all(s.before.version + 1 == s.state.version for s in steps)
