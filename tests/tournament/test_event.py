"""Whole events through :class:`Event`: every format, persistence, withdrawals, prizes, rules."""

from __future__ import annotations

import json
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    DecideBy,
    Event,
    EventSettings,
    Format,
    How,
    Player,
    Result,
    TournamentError,
    explain_rules,
    seed_players,
)
from bot.tournament.event import DISQUALIFIED
from bot.tournament.matches import forfeit_result

from .helpers import make_players, new_event, play_open_matches, run_event

PRIZES = {"buy_in": 100, "prize_split": (60, 30, 10)}


def test_seeding_rated_first_then_random() -> None:
    players = [Player(1, "a"), Player(2, "b", 1500.0), Player(3, "c"), Player(4, "d", 1700.0)]
    seeded = seed_players(players, Random(1))
    assert [p.id for p in seeded[:2]] == [4, 2]
    orders = {tuple(p.id for p in seed_players(players, Random(s))[2:]) for s in range(20)}
    assert orders == {(1, 3), (3, 1)}, "unrated players in random order"
    with pytest.raises(TournamentError):
        seed_players([Player(1, "a"), Player(1, "b")], Random(0))


def test_settings_validation_and_round_trip() -> None:
    s = EventSettings(game="tsung-shap", best_of=5, decide_by=DecideBy.POINTS, **PRIZES)
    assert EventSettings.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    for bad in (
        {"best_of": 2},
        {"game": "mahjong"},
        {"decide_by": DecideBy.POINTS},
        {"format": Format.TABLE_ROUNDS},
        {"game": "kap-tai-shap"},
        {"prize_split": (60, 30)},
        {"buy_in": 5, "prize_split": ()},
        {"top_cut": 4, "format": Format.ROUND_ROBIN},
        {"game": "kap-tai-shap", "format": Format.TABLE_ROUNDS, "table_size": 21},
        {"game": "kap-tai-shap", "format": Format.TABLE_ROUNDS, "table_min": 7},
    ):
        with pytest.raises(TournamentError):
            EventSettings(**bad)  # type: ignore[arg-type]
    assert EventSettings().swiss_rounds(8) == 3
    assert EventSettings().swiss_rounds(9) == 4
    assert EventSettings(rounds=2).swiss_rounds(100) == 2


def test_start_refuses_wrong_fields() -> None:
    with pytest.raises(TournamentError, match="at least two"):
        new_event(EventSettings(), 1)
    with pytest.raises(TournamentError, match="at most 4"):
        new_event(EventSettings(seats_limit=4), 5)
    with pytest.raises(TournamentError, match="human"):
        new_event(EventSettings(), 3, ai=3)
    with pytest.raises(TournamentError, match="round robin"):
        new_event(EventSettings(format=Format.ROUND_ROBIN), 25)
    kts = EventSettings(game="kap-tai-shap", format=Format.TABLE_ROUNDS, table_min=4)
    with pytest.raises(TournamentError, match="at least 4"):
        new_event(kts, 3)


def check_finished(event: Event, n: int) -> None:
    assert event.finished
    ranking = event.ranking()
    assert sorted(ranking) == list(range(1, n + 1))
    paying = sum(1 for p in event.players if not p.ai)
    pool = event.settings.buy_in * paying
    paid = event.payouts(pool)
    assert sum(paid.values()) == pool, "chips conserved: the whole pool is paid"
    assert all(not event.player(p).ai for p in paid), "computer fillers never win prize money"
    humans = [p for p in ranking if event.eligible_for_prizes(p)]
    assert list(paid) == humans[: len(paid)], "prizes follow the ranking"


def test_swiss_event_of_eight() -> None:
    s = EventSettings(best_of=3, **PRIZES)
    event = run_event(new_event(s, 8), Random(1))
    assert [r.phase for r in event.rounds] == ["swiss"] * 3
    check_finished(event, 8)
    for row in event.pair_standings():
        assert len(set(row.opponents)) == 3, "three different opponents"


def test_swiss_event_of_five_gives_byes() -> None:
    event = run_event(new_event(EventSettings(**PRIZES), 5, ai=1), Random(2))
    byes = [m.players[0] for r in event.rounds for m in r.matches if m.is_bye]
    assert len(byes) == 3 and len(set(byes)) == 3, "one bye a round, never twice the same"
    check_finished(event, 5)


def test_swiss_with_a_top_cut() -> None:
    s = EventSettings(best_of=1, top_cut=4, **PRIZES)
    event = run_event(new_event(s, 12), Random(3))
    phases = [r.phase for r in event.rounds]
    assert phases == ["swiss"] * 4 + ["playoff"] * 2
    swiss_top = [r.player for r in event.pair_standings()][:4]
    assert event.cut == swiss_top
    final = event.rounds[-1].matches[0]
    assert final.id == "W2-1" and final.result is not None
    assert event.ranking()[0] == final.result.winner
    assert set(event.ranking()[:4]) == set(swiss_top)
    check_finished(event, 12)


@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
@pytest.mark.parametrize("n", [2, 3, 5, 8, 13])
def test_elimination_events(fmt: Format, n: int) -> None:
    event = run_event(new_event(EventSettings(format=fmt, best_of=3, **PRIZES), n), Random(n))
    check_finished(event, n)
    assert all(r.phase == "bracket" for r in event.rounds)
    for r in event.rounds:
        for m in r.matches:
            assert m.result is not None and m.result.winner is not None, "knockout: a winner"
    played = sum(len(r.matches) for r in event.rounds)
    assert played in ((n - 1,) if fmt is Format.SINGLE_ELIMINATION else (2 * n - 2, 2 * n - 1))


def test_round_robin_event() -> None:
    s = EventSettings(game="tsung-shap", format=Format.ROUND_ROBIN, best_of=3)
    event = run_event(new_event(s, 7), Random(4))
    assert len(event.rounds) == 7
    for row in event.pair_standings():
        assert sorted(row.opponents) == sorted(set(range(1, 8)) - {row.player})
        assert row.byes == 1
    check_finished(event, 7)


def test_table_rounds_of_thirteen_with_a_final_table() -> None:
    s = EventSettings(
        game="kap-tai-shap",
        format=Format.TABLE_ROUNDS,
        rounds=3,
        table_size=6,
        table_min=3,
        final_table=6,
        **PRIZES,
    )
    event = new_event(s, 13, ai=3)
    rng = Random(5)
    for number in range(1, 4):
        rnd = event.next_round()
        assert rnd is not None and rnd.phase == "tables"
        assert sorted(len(m.players) for m in rnd.matches) == [4, 4, 5]
        assert sorted(p for m in rnd.matches for p in m.players) == list(range(1, 14))
        assert [m.id for m in rnd.matches] == [f"R{number}-T{i}" for i in (1, 2, 3)]
        play_open_matches(event, rng)
        event = Event.from_dict(json.loads(json.dumps(event.to_dict())))
    top = [r.player for r in event.table_standings()][:6]
    final = event.next_round()
    assert final is not None and final.phase == "final"
    assert list(final.matches[0].players) == top
    play_open_matches(event, rng)
    assert event.next_round() is None
    ranking = event.ranking()
    assert set(ranking[:6]) == set(top)
    table = final.matches[0]
    assert table.result is not None
    points = [table.result.games_won.get(p, 0) for p in ranking[:6]]
    assert points == sorted(points, reverse=True), "the final table decides the top places"
    check_finished(event, 13)


@settings(max_examples=25, deadline=None)
@given(
    # The arena is not played round by round: test_arena.py plays random arenas.
    st.sampled_from([f for f in Format if f is not Format.ARENA]),
    st.integers(2, 24),
    st.integers(0, 10_000),
    st.booleans(),
)
def test_random_events_end_and_conserve_chips(
    fmt: Format, n: int, seed: int, withdraw: bool
) -> None:
    game = "kap-tai-shap" if fmt is Format.TABLE_ROUNDS else "kap-shap"
    s = EventSettings(game=game, format=fmt, best_of=3, table_min=2, **PRIZES)
    event = new_event(s, n, seed=seed, ai=n // 3)
    rng = Random(seed)
    for _ in range(300):
        rnd = event.next_round()
        event = Event.from_dict(json.loads(json.dumps(event.to_dict())))
        if rnd is None:
            break
        if rnd.phase == "tables":
            sizes = [len(m.players) for m in rnd.matches]
            assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2, "table sizes within one"
            seated = sorted(p for m in rnd.matches for p in m.players)
            assert seated == sorted(event.active), "every active player at one table"
        elif rnd.phase in ("swiss", "round-robin"):
            paired = [p for m in rnd.matches for p in m.players]
            assert len(paired) == len(set(paired)), "nobody twice in a round"
            if rnd.phase == "swiss":
                assert sorted(paired) == sorted(event.active), "every active player once"
        if withdraw and rng.random() < 0.3 and len(event.active) > 2:
            who = rng.choice(event.active)
            for mid in event.withdraw(who, disqualify=rng.random() < 0.5):
                _, match = event.find(mid)
                assert match.result is not None and match.result.how is How.FORFEIT
        active = set(event.active)
        for m in event.open_matches():
            if len(m.players) == 2:
                assert set(m.players) <= active or event.is_knockout(m.id)
        play_open_matches(event, rng)
    else:
        raise AssertionError("the event never ended")
    assert event.finished
    ranking = event.ranking()
    assert sorted(ranking) == list(range(1, n + 1))
    disqualified = [p for p, why in event.withdrawn.items() if why == DISQUALIFIED]
    assert set(ranking[len(ranking) - len(disqualified) :]) == set(disqualified)
    pool = 100 * sum(1 for p in event.players if not p.ai)
    paid = event.payouts(pool)
    eligible = [p for p in ranking if event.eligible_for_prizes(p)]
    assert sum(paid.values()) == (pool if eligible else 0)
    assert not set(paid) & set(disqualified)


def test_dropped_players_are_not_paired_and_their_match_is_forfeited() -> None:
    event = new_event(EventSettings(), 6)
    rnd = event.next_round()
    assert rnd is not None
    match = rnd.matches[0]
    a, b = match.players
    assert event.withdraw(a) == [match.id]
    assert match.result is not None and match.result.winner == b
    with pytest.raises(TournamentError, match="already"):
        event.withdraw(a)
    play_open_matches(event, Random(0))
    nxt = event.next_round()
    assert nxt is not None
    assert a not in {p for m in nxt.matches for p in m.players}
    assert {m.players[0] for m in nxt.matches if m.is_bye} != {a}


def test_record_checks() -> None:
    event = new_event(EventSettings(format=Format.SINGLE_ELIMINATION), 4)
    with pytest.raises(TournamentError):
        event.record("W1-1", Result(1, {1: 1, 4: 0}, 1))
    rnd = event.next_round()
    assert rnd is not None
    with pytest.raises(TournamentError, match="not finished"):
        event.next_round()
    m = rnd.matches[0]
    a, b = m.players
    with pytest.raises(TournamentError, match="knockout"):
        event.record(m.id, Result(None, {a: 1, b: 1}, 2))
    with pytest.raises(TournamentError, match="did not play"):
        event.record(m.id, Result(99, {a: 0, b: 0}, 1))
    with pytest.raises(TournamentError, match="not in the current round"):
        event.record("W9-9", Result(a, {a: 1, b: 0}, 1))
    event.record(m.id, Result(a, {a: 1, b: 0}, 1))
    with pytest.raises(TournamentError, match="already"):
        event.record(m.id, Result(a, {a: 1, b: 0}, 1))
    assert event.is_knockout(m.id)


def test_re_pairing_a_round_before_it_is_played() -> None:
    event = new_event(EventSettings(), 6)
    first = event.next_round()
    assert first is not None
    event.unpair()
    assert event.rounds == []
    again = event.next_round()
    assert again is not None and [m.players for m in again.matches] == [
        m.players for m in first.matches
    ]
    first_match = again.matches[0]
    event.record(first_match.id, forfeit_result(first_match.players[0], first_match.players))
    event.unpair()  # a forfeit is not a played result: the round can still be re-paired
    rnd = event.next_round()
    assert rnd is not None
    play_open_matches(event, Random(1))
    with pytest.raises(TournamentError, match="results"):
        event.unpair()


def test_state_round_trips_through_json() -> None:
    event = new_event(EventSettings(format=Format.DOUBLE_ELIMINATION, **PRIZES), 6, ai=1)
    rng = Random(9)
    while event.next_round() is not None:
        if len(event.rounds) == 2:
            event.withdraw(event.active[-1])
        data = json.loads(json.dumps(event.to_dict()))
        copy = Event.from_dict(data)
        assert copy.to_dict() == event.to_dict()
        assert copy == event
        play_open_matches(event, rng)
    with pytest.raises(TournamentError):
        Event.from_dict({**event.to_dict(), "version": 99})
    with pytest.raises(TournamentError, match="over"):
        event.next_round()


def test_payouts_need_a_finished_event() -> None:
    event = new_event(EventSettings(**PRIZES), 4)
    with pytest.raises(TournamentError, match="not over"):
        event.payouts(400)


@pytest.mark.parametrize(
    ("settings", "phrases"),
    [
        (EventSettings(), ["Swiss", "⌈log₂ 9⌉", "bye", "Median-Buchholz", "Free event"]),
        (
            EventSettings(top_cut=8, best_of=3, **PRIZES),
            ["top 8", "best of 3", "first to win 2", "higher seed", "1st 540"],
        ),
        (
            EventSettings(format=Format.DOUBLE_ELIMINATION, grand_final_reset=True),
            ["double elimination", "second final", "byes go to the top seeds"],
        ),
        (
            EventSettings(game="tsung-shap", decide_by=DecideBy.POINTS, best_of=3),
            ["total points", "in points"],
        ),
        (EventSettings(format=Format.ROUND_ROBIN), ["round robin", "rests one round"]),
        (
            EventSettings(game="kap-tai-shap", format=Format.TABLE_ROUNDS),
            ["3 table rounds", "final table", "one point per other player", "average points"],
        ),
    ],
)
def test_rules_text(settings: EventSettings, phrases: list[str]) -> None:
    text = explain_rules(settings, 9)
    for phrase in phrases:
        assert phrase in text, phrase
    # Prize talk only where there is prize money.
    assert ("never win prize money" in text) == bool(settings.buy_in)
    assert "Computer players may fill the event" in text
    assert all(par[0].isupper() for par in text.split("\n\n"))


def test_make_players_helper() -> None:
    assert [p.ai for p in make_players(4, ai=1)] == [False, False, False, True]


def test_seeds_set_by_hand_come_first_and_the_rest_keep_their_order() -> None:
    players = make_players(6)  # rated: seed i is player i
    event = Event.start(EventSettings(), players, Random(0), fixed=[5, 2, 99])
    # 99 is not an entrant (left since): ignored; the others follow by rating.
    assert event.seeds == [5, 2, 1, 3, 4, 6]
    assert Event.start(EventSettings(), players, Random(0)).seeds == [1, 2, 3, 4, 5, 6]


def test_the_organiser_sets_and_corrects_a_result_of_the_current_round_only() -> None:
    event = new_event(EventSettings(best_of=3), 4)
    rnd = event.next_round()
    assert rnd is not None
    first, second = rnd.matches
    a, b = first.players
    result = event.set_result(first.id, b)
    assert result.winner == b and result.games_won == {a: 0, b: 2}
    assert result.how is How.ORGANISER
    event.set_result(first.id, a)  # corrected: the standings follow the result stored
    assert {s.player: s.wins for s in event.pair_standings()}[a] == 1
    with pytest.raises(TournamentError, match="did not play"):
        event.set_result(first.id, second.players[0])
    assert first.result is not None and first.result.winner == a  # the refused one left nothing
    event.set_result(second.id, None)  # a drawn match
    assert event.next_round() is not None
    with pytest.raises(TournamentError, match="not in the current round"):
        event.set_result(first.id, b)


def test_a_round_with_a_result_set_by_hand_is_not_paired_again() -> None:
    event = new_event(EventSettings(), 4)
    rnd = event.next_round()
    assert rnd is not None
    event.set_result(rnd.matches[0].id, rnd.matches[0].players[0])
    with pytest.raises(TournamentError, match="results already"):
        event.unpair()
