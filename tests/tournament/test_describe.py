"""Plain-text posts: pairings, standings, final results."""

from __future__ import annotations

from random import Random

import pytest

from bot.tournament import Event, EventSettings, Format, KnockoutStanding
from bot.tournament.bracket import placing
from bot.tournament.describe import pairings_text, results_text, standings_text

from .helpers import new_event, play_open_matches, run_event


def test_swiss_pairings_show_scores_and_the_bye() -> None:
    event = new_event(EventSettings(), 5, ai=1)
    rnd = event.next_round()
    assert rnd is not None
    text = pairings_text(event, rnd)
    assert text.splitlines()[0] == "Round 1 (Swiss)"
    assert "1. P1 (0) v P3 (0)" in text
    # A computer filler is shown by its label alone (the service's "Computer 1 (Normal)").
    assert "P5 (0) has a bye (a win)" in text
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


@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_an_elimination_event_has_bracket_standings(fmt: Format) -> None:
    """Who is still in and where the others went out, never Swiss tie-breaks; finished, the
    standings' order is the final placing."""
    event = new_event(EventSettings(format=fmt), 6)
    rng = Random(3)
    for _ in range(40):
        rnd = event.next_round()
        if rnd is None:
            break
        play_open_matches(event, rng, draws=False)
        rows = event.standings()
        assert all(isinstance(r, KnockoutStanding) for r in rows)
        assert sorted(r.player for r in rows) == sorted(event.seeds)
        text = standings_text(event)
        assert "Buch" not in text
        lives = 2 if fmt is Format.DOUBLE_ELIMINATION else 1
        for r in rows:
            assert isinstance(r, KnockoutStanding)
            out = r.out_in is not None
            assert out == (r.losses >= lives)
            # Ranks: nobody still in is below someone out; ties only among equals.
            assert not out or all(
                o.rank <= r.rank for o in rows if isinstance(o, KnockoutStanding) and not o.out_in
            )
            line = next(line for line in text.splitlines() if f" P{r.player}: " in line)
            assert line.endswith(f"({r.wins}-{r.losses})")
            assert ("knocked out in " in line) == out
    assert event.finished
    rows = event.standings()
    first = rows[0]
    assert isinstance(first, KnockoutStanding) and first.champion and first.rank == 1
    found, state = event.bracket(), event.bracket_state()
    assert found is not None and state is not None
    ranks = {r.player: r.rank for r in rows}
    order = placing(found[0], state, event.seed_of)
    assert [ranks[p] for p in order] == sorted(ranks[p] for p in order)
    assert "1. P" in standings_text(event) and ": champion (" in standings_text(event)


def test_a_free_event_names_no_prizes() -> None:
    """Computer fillers on top of a free event: nothing is said about prizes."""

    def computer_first(settings: EventSettings) -> Event:
        # Random play: the first seed whose event a computer wins.
        for seed in range(100):
            event = run_event(new_event(settings, 4, ai=3), Random(seed))
            if event.player(event.ranking()[0]).ai:
                return event
        raise AssertionError("no computer won in 100 events")

    assert "prize" not in results_text(computer_first(EventSettings()), 0)
    paid = computer_first(EventSettings(buy_in=10))
    assert "prizes went to the humans" in results_text(paid, 40)
