"""Late registration (issue 23): :meth:`Event.join_late`, when it is open, and the standings of
late entrants (a missed round scores 0 for him and ½ in his opponents' Buchholz)."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import EventSettings, Format, Match, Player, Result, TournamentError
from bot.tournament.event import Event
from bot.tournament.standings import pair_standings

from .helpers import new_event, play_open_matches


def _won(winner: int, loser: int) -> Result:
    return Result(winner, {winner: 1, loser: 0}, 1)


def test_the_setting_is_checked_and_stored() -> None:
    s = EventSettings(late_until=3, rounds=4)
    assert EventSettings.from_dict(s.to_dict()).late_until == 3
    assert EventSettings.from_dict({}).late_until == 0, "default: no late entry"
    with pytest.raises(TournamentError, match="only for Swiss"):
        EventSettings(format=Format.SINGLE_ELIMINATION, late_until=2)
    with pytest.raises(TournamentError, match="only for Swiss"):
        EventSettings(format=Format.ROUND_ROBIN, late_until=2)
    with pytest.raises(TournamentError, match="from 2 to the last round"):
        EventSettings(late_until=5, rounds=4)
    with pytest.raises(TournamentError, match="from 2 to the last round"):
        EventSettings(late_until=1)


def test_a_late_entrant_is_paired_from_the_next_round_and_scores_0_for_the_missed_one() -> None:
    event = new_event(EventSettings(rounds=3, late_until=2), 4)
    event.next_round()
    assert event.late_entry_round() == 2
    newcomer = Player(99, "Late", None)
    assert event.join_late(newcomer) == 2
    assert all(99 not in m.players for m in event.current_round.matches), "not in round 1"  # type: ignore[union-attr]
    play_open_matches(event, Random(0), draws=False)
    event = Event.from_dict(event.to_dict())
    assert event.late == {99: 2}
    row = next(r for r in event.pair_standings() if r.player == 99)
    assert (row.score, row.wins, row.losses, row.byes, row.missed) == (0, 0, 0, 0, 1)
    rnd = event.next_round()
    assert rnd is not None
    assert any(99 in m.players for m in rnd.matches), "paired in round 2 (five: he or a bye)"
    # Three rounds were announced for four players; the fifth does not add a round.
    assert event.settings.swiss_rounds(event.starters) == 3
    assert event.late_entry_round() is None, "round 3 is past late_until"
    with pytest.raises(TournamentError, match="closed with round 2"):
        event.join_late(Player(100, "Too late", None))


def test_late_entry_is_refused_for_formats_without_it_and_twice() -> None:
    event = new_event(EventSettings(format=Format.SINGLE_ELIMINATION), 4)
    event.next_round()
    assert event.late_entry_round() is None
    with pytest.raises(TournamentError, match="no entries after its start"):
        event.join_late(Player(99, "Late", None))
    swiss = new_event(EventSettings(rounds=3, late_until=3), 4)
    swiss.next_round()
    with pytest.raises(TournamentError, match="entered twice"):
        swiss.join_late(Player(1, "Again", None))
    full = new_event(EventSettings(rounds=3, late_until=3, seats_limit=4), 4)
    full.next_round()
    with pytest.raises(TournamentError, match="at most 4 players"):
        full.join_late(Player(99, "Late", None))


def test_missed_rounds_count_as_draws_in_the_opponents_buchholz() -> None:
    # Round 1: 1 beat 2, 3 beat 4; 5 joined for round 2: 5 beat 1, 3 beat 2, 4 had a bye.
    r1 = [Match("R1-1", (1, 2), _won(1, 2)), Match("R1-2", (3, 4), _won(3, 4))]
    r2 = [
        Match("R2-1", (1, 5), _won(5, 1)),
        Match("R2-2", (3, 2), _won(3, 2)),
    ]
    rows = {r.player: r for r in pair_standings([1, 2, 3, 4, 5], r1 + r2, missed={5: 1})}
    assert rows[5].score == 2 and rows[5].missed == 1, "one win, round 1 scored 0"
    # Player 1 met 2 (0) and 5 (2 + ½ for his missed round = 3 half-points).
    assert rows[1].buchholz == 0 + 3
    # Without the adjustment 5 would be worth 2 to his opponents.
    plain = {r.player: r for r in pair_standings([1, 2, 3, 4, 5], r1 + r2)}
    assert plain[1].buchholz == 2
    # 5's own tie-breaks are from his real opponents only.
    assert rows[5].buchholz == rows[1].score + 0


def test_unpairing_the_round_he_joined_in_puts_him_in_it() -> None:
    event = new_event(EventSettings(rounds=3, late_until=3), 4)
    event.next_round()
    play_open_matches(event, Random(1), draws=False)
    event.next_round()
    event.join_late(Player(99, "Late", None))
    assert event.late == {99: 3}
    event.unpair()
    assert event.late == {99: 2}
    rnd = event.next_round()
    assert rnd is not None and any(99 in m.players for m in rnd.matches)


@settings(max_examples=40, deadline=None)
@given(
    starters=st.integers(3, 9),
    joiners=st.lists(st.integers(1, 3), max_size=4),
    seed=st.integers(0, 10_000),
)
def test_every_player_scores_his_matches_only_and_the_event_ends(
    starters: int, joiners: list[int], seed: int
) -> None:
    """Whatever the late entries, the event ends with every player ranked once, nobody paired
    before his first round, and each score the points of his matches (a missed round: 0)."""
    rng = Random(seed)
    event = new_event(EventSettings(rounds=4, late_until=4), starters, seed)
    next_id = 100
    for _ in range(10):
        rnd = event.next_round()
        event = Event.from_dict(event.to_dict())
        if rnd is None:
            break
        for _ in range(joiners.count(rnd.number)):
            if event.late_entry_round() is not None:
                event.join_late(Player(next_id, f"L{next_id}", None))
                next_id += 1
        play_open_matches(event, rng)
    assert event.finished
    assert sorted(event.ranking()) == sorted(event.seeds)
    rows = {r.player: r for r in event.pair_standings()}
    for pid, first in event.late.items():
        early = [m for r in event.rounds if r.number < first for m in r.matches]
        assert all(pid not in m.players for m in early)
        played = [m for r in event.rounds for m in r.matches if pid in m.players]
        assert rows[pid].missed == first - 1
        assert rows[pid].wins + rows[pid].draws + rows[pid].losses == len(played)
