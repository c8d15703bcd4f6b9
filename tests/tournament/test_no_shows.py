"""No-shows (issue 23): :meth:`Event.no_show`, the settings that drive it, and the scoring of a
match both players forfeited."""

from __future__ import annotations

from random import Random

import pytest

from bot.tournament import EventSettings, Format, How, TournamentError
from bot.tournament.event import DROPPED, Event

from .helpers import new_event, play_open_matches


def _round_one(settings: EventSettings, n: int = 4) -> Event:
    event = new_event(settings, n)
    event.next_round()
    return event


def test_settings_of_the_window_are_checked_and_stored() -> None:
    settings = EventSettings(no_show_minutes=3, no_show_limit=2)
    back = EventSettings.from_dict(settings.to_dict())
    assert (back.no_show_minutes, back.no_show_limit) == (3, 2)
    assert EventSettings.from_dict({}).no_show_minutes == 5, "default: five minutes"
    with pytest.raises(TournamentError, match="no-show window"):
        EventSettings(no_show_minutes=61)
    with pytest.raises(TournamentError, match="no-shows in a row"):
        EventSettings(no_show_limit=0)


def test_the_absent_player_loses_by_forfeit_and_is_withdrawn_at_the_limit() -> None:
    event = _round_one(EventSettings())
    match = event.open_matches()[0]
    a, b = match.players
    withdrawn = event.no_show(match.id, {b})
    assert match.result is not None
    assert (match.result.winner, match.result.how) == (a, How.FORFEIT)
    assert withdrawn == [b] and event.withdrawn[b] == DROPPED
    assert event.no_shows == {b: 1}
    # Stored and read back: the count survives a restart.
    assert Event.from_dict(event.to_dict()).no_shows == {b: 1}


def test_no_shows_in_a_row_count_and_a_played_match_clears_them() -> None:
    event = _round_one(EventSettings(no_show_limit=2, rounds=3))
    match = event.open_matches()[0]
    _a, b = match.players
    assert event.no_show(match.id, {b}) == [], "one no-show of two allowed"
    assert event.no_shows == {b: 1} and b not in event.withdrawn
    play_open_matches(event, Random(1))
    event.next_round()
    mine = next(m for m in event.open_matches() if b in m.players)
    other = mine.players[0] if mine.players[1] == b else mine.players[1]
    assert event.no_show(mine.id, {b}) == [b], "the second in a row withdraws him"
    assert mine.result is not None and mine.result.winner == other
    # A player who plays his match starts his count again.
    event2 = _round_one(EventSettings(no_show_limit=2, rounds=3))
    m2 = event2.open_matches()[0]
    event2.no_show(m2.id, {m2.players[1]})
    play_open_matches(event2, Random(2))
    event2.next_round()
    again = next(m for m in event2.open_matches() if m2.players[1] in m.players)
    play_open_matches(event2, Random(3))
    assert again.result is not None and again.result.how is How.PLAYED
    assert m2.players[1] not in event2.no_shows


def test_both_absent_is_a_double_loss() -> None:
    event = _round_one(EventSettings(no_show_limit=3))
    match = event.open_matches()[0]
    a, b = match.players
    assert event.no_show(match.id, {a, b}) == []
    assert match.result is not None and match.result.winner is None
    lines = {s.player: s for s in event.pair_standings()}
    assert lines[a].score == lines[b].score == 0, "no half point for either"
    assert (lines[a].losses, lines[b].losses) == (1, 1)


def test_both_absent_in_a_knockout_sends_the_higher_seed_through() -> None:
    event = _round_one(EventSettings(format=Format.SINGLE_ELIMINATION, no_show_limit=3))
    match = event.open_matches()[0]
    a, b = match.players
    event.no_show(match.id, {a, b})
    assert match.result is not None
    assert match.result.winner == min((a, b), key=event.seed_of)


def test_a_decided_match_or_nobody_absent_changes_nothing() -> None:
    event = _round_one(EventSettings())
    match = event.open_matches()[0]
    assert event.no_show(match.id, set()) == [] and match.result is None
    play_open_matches(event, Random(0))
    before = match.result
    assert event.no_show(match.id, {match.players[0]}) == []
    assert match.result is before and not event.no_shows
    with pytest.raises(TournamentError):
        event.no_show("nope", {1})
