"""Plain-text posts: pairings, standings, final results."""

from __future__ import annotations

from random import Random

from bot.tournament import EventSettings, Format
from bot.tournament.describe import pairings_text, results_text, standings_text

from .helpers import new_event, play_open_matches, run_event


def test_swiss_pairings_show_scores_and_the_bye() -> None:
    event = new_event(EventSettings(), 5, ai=1)
    rnd = event.next_round()
    assert rnd is not None
    text = pairings_text(event, rnd)
    assert text.splitlines()[0] == "Round 1 (Swiss)"
    assert "1. P1 (0) v P3 (0)" in text
    assert "P5 (AI) (0) has a bye (a win)" in text
    play_open_matches(event, Random(1))
    rnd = event.next_round()
    assert rnd is not None
    assert "(1)" in pairings_text(event, rnd), "scores before the round"


def test_bracket_and_table_pairings() -> None:
    event = new_event(EventSettings(format=Format.SINGLE_ELIMINATION), 4)
    rnd = event.next_round()
    assert rnd is not None
    assert "W1-1. P1 v P4" in pairings_text(event, rnd)
    event.withdraw(2)
    assert "W1-2. P2 v P3 (forfeit)" in pairings_text(event, rnd)
    tables = new_event(EventSettings(game="kap-tai-shap", format=Format.TABLE_ROUNDS), 7)
    rnd = tables.next_round()
    assert rnd is not None
    assert "Table 1 (4 seats): P1, P4, P5" in pairings_text(tables, rnd)


def test_standings_and_results() -> None:
    s = EventSettings(buy_in=10, prize_split=(70, 30))
    event = run_event(new_event(s, 6, ai=1), Random(4))
    text = standings_text(event, limit=4)
    assert text.startswith("1. ") and "M-Buch" in text and text.endswith("… and 2 more")
    results = results_text(event, 50)
    lines = results.splitlines()
    assert lines[0] == "Final results"
    paid = event.payouts(50)
    for pid, chips in paid.items():
        assert any(line.endswith(f"{chips} chips") and f"P{pid}" in line for line in lines)
    tables = run_event(
        new_event(EventSettings(game="kap-tai-shap", format=Format.TABLE_ROUNDS), 8), Random(1)
    )
    assert "pts" in standings_text(tables)
    assert "final table" in results_text(tables, 0)
