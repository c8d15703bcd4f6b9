"""The live standings board's text (issue 23): short lines, the round's progress, the top N."""

from __future__ import annotations

from random import Random

from bot.tournament import EventSettings, Format, GameRecord, match_result
from bot.tournament.describe import board_standings_text

from .helpers import new_event, play_open_matches


def test_swiss_board_names_the_round_and_the_top_players() -> None:
    event = new_event(EventSettings(), 5)
    rnd = event.next_round()
    assert rnd is not None
    # Round 1 of five: P1 v P3, P2 v P4, P5 has the bye (not a match to decide).
    [first, *_] = event.open_matches()
    result = match_result(event.settings, first.players, [GameRecord(first.players[0])])
    assert result is not None
    event.record(first.id, result)
    event.withdraw(4)  # P4 drops: his match is forfeited to P2
    # The tie-breaks order the three on 1 point (games won, then seed): on the picture and in
    # /tournament show, not on the board's short lines.
    assert board_standings_text(event, limit=3).splitlines() == [
        "Round 1: 2 of 2 matches decided",
        "1. P1 · 1",
        "2. P2 · 1",
        "3. P5 · 1",
        "… and 2 more",
    ]
    lines = board_standings_text(event).splitlines()
    assert lines[-1] == "5. P4 (dropped) · 0"
    assert len(lines) == 6  # the round, five players, nothing more


def test_table_rounds_show_points_and_a_bracket_where_each_stands() -> None:
    tables = new_event(
        EventSettings(game="kap-tai-shap", format=Format.TABLE_ROUNDS, final_table=0), 6
    )
    tables.next_round()
    play_open_matches(tables, Random(3))
    lines = board_standings_text(tables).splitlines()
    assert lines[0] == "Round 1: 1 of 1 matches decided"
    assert all(" · " in line and line.endswith(" pts") for line in lines[1:])
    assert len(lines) == 7

    bracket = new_event(EventSettings(format=Format.SINGLE_ELIMINATION), 4)
    bracket.next_round()
    play_open_matches(bracket, Random(1), draws=False)
    lines = board_standings_text(bracket).splitlines()
    assert lines[0] == "Round 1: 2 of 2 matches decided"
    assert sum(line.endswith("still in (1-0)") for line in lines) == 2
    assert sum("knocked out in W1-" in line for line in lines) == 2
