"""Issue 23's formats: the third-place match, the grand final without a reset, and a group
stage into an elimination bracket, with exact brackets and a property over random events."""

from __future__ import annotations

import math
from collections.abc import Collection
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    Event,
    EventSettings,
    Format,
    TournamentError,
    double_elimination,
    single_elimination,
)
from bot.tournament.bracket import Slot, knockout_standings, placing, resolve, seed_order
from bot.tournament.event import GROUP_STAGE
from bot.tournament.groups import advancing, snake_groups
from bot.tournament.model import Result
from tests.tournament.helpers import new_event, run_event

SE, DE = Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION


def play_by_seed(event: Event, upsets: Collection[str] = ()) -> Event:
    """Play the event to its end: the better seed (lower id: the helpers rate player i as
    2000 − i) wins every match, except the matches named in ``upsets``; the state goes
    through to_dict/from_dict after every step, as the service stores it."""
    for _ in range(200):
        rnd = event.next_round()
        event = Event.from_dict(event.to_dict())
        if rnd is None:
            return event
        for m in event.open_matches():
            a, b = sorted(m.players)
            winner = b if m.id in upsets else a
            event.record(m.id, Result(winner, {winner: 1, a if winner == b else b: 0}, 1))
    raise AssertionError("the event did not end")


# ------------------------------------------------------------------------------ third place


def test_third_place_match_is_between_the_semi_finals_losers() -> None:
    bracket = single_elimination(8, third_place=True)
    third = bracket.node("3P")
    assert third.slots == (Slot("loser", "W2-1"), Slot("loser", "W2-2"))
    stages = bracket.stages()
    assert stages["3P"] == stages["W3-1"] == 3, "played alongside the final"
    assert bracket.final == "W3-1"
    seeds = list(range(1, 9))
    won = {"W1-1": 1, "W1-2": 4, "W1-3": 2, "W1-4": 3, "W2-1": 1, "W2-2": 2, "W3-1": 1}
    state = resolve(bracket, seeds, {**won, "3P": 3})
    assert state["3P"].players == (4, 3)
    assert placing(bracket, state, seeds.index)[:4] == [1, 2, 3, 4]
    state = resolve(bracket, seeds, {**won, "3P": 4})
    assert placing(bracket, state, seeds.index)[:4] == [1, 2, 4, 3]
    rows = knockout_standings(bracket, state, seeds)
    assert [(r.player, r.rank) for r in rows[:4]] == [(1, 1), (2, 2), (4, 3), (3, 4)]


def test_without_third_place_the_semi_finals_losers_share_third() -> None:
    bracket = single_elimination(4)
    seeds = [1, 2, 3, 4]
    state = resolve(bracket, seeds, {"W1-1": 1, "W1-2": 2, "W2-1": 1})
    assert "3P" not in {n.id for n in bracket.nodes}
    assert [r.rank for r in knockout_standings(bracket, state, seeds)] == [1, 2, 3, 3]


def test_third_place_needs_semi_finals_and_a_bye_is_a_walkover() -> None:
    assert not single_elimination(2, third_place=True).third_place
    bracket = single_elimination(3, third_place=True)  # seed 1 has a bye in his semi-final
    state = resolve(bracket, [1, 2, 3], {"W1-2": 2, "W2-1": 1})
    assert state["3P"].decided and state["3P"].winner == 3 and state["3P"].loser is None
    assert placing(bracket, state, [1, 2, 3].index) == [1, 2, 3]


@pytest.mark.parametrize("upset", [False, True])
def test_third_place_in_a_single_elimination_event(upset: bool) -> None:
    s = EventSettings(format=SE, third_place=True, prize_split=(50, 30, 20), buy_in=10)
    event = play_by_seed(new_event(s, 6), {"3P"} if upset else ())
    last = event.rounds[-1]
    assert {m.id for m in last.matches} == {"W3-1", "3P"}
    # Seeds 3 and 4 lose their semi-finals to 2 and 1 (seeds 5 and 6 lost to them first).
    third, fourth = (4, 3) if upset else (3, 4)
    assert event.ranking()[:4] == [1, 2, third, fourth]
    assert event.payouts(60) == {1: 30, 2: 18, third: 12}


def test_third_place_in_a_swiss_top_cut() -> None:
    s = EventSettings(format=Format.SWISS, rounds=3, top_cut=4, third_place=True)
    event = run_event(new_event(s, 8), Random(3))
    playoff = [m.id for r in event.rounds if r.phase == "playoff" for m in r.matches]
    assert "3P" in playoff
    third = event.find("3P")[1]
    assert third.result is not None and third.result.winner is not None
    assert event.ranking()[2] == third.result.winner


def test_third_place_and_groups_are_refused_where_they_do_not_apply() -> None:
    with pytest.raises(TournamentError, match="third-place"):
        EventSettings(format=DE, third_place=True)
    with pytest.raises(TournamentError, match="third-place"):
        EventSettings(format=Format.SWISS, third_place=True)
    EventSettings(format=Format.SWISS, top_cut=4, third_place=True)
    with pytest.raises(TournamentError, match="Groups of 3 to 8"):
        EventSettings(format=Format.SWISS, groups=4)
    with pytest.raises(TournamentError, match="Groups of 3 to 8"):
        EventSettings(format=SE, groups=2)
    with pytest.raises(TournamentError, match="Groups of 3 to 8"):
        EventSettings(format=SE, groups=9)
    with pytest.raises(TournamentError, match="at least three"):
        new_event(EventSettings(format=SE, groups=3), 2)


# ------------------------------------------------------------------------------ grand final


def test_grand_final_without_reset_is_one_match() -> None:
    """The winners' bracket player (seed 1) loses the grand final once: without a reset the
    losers' champion is the champion at once, and seed 1 is out in the grand final."""
    bracket = double_elimination(4, reset=False)
    assert "GF2" not in {n.id for n in bracket.nodes} and bracket.final == "GF"
    seeds = [1, 2, 3, 4]
    won = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 3, "L2-1": 3, "GF": 3}
    state = resolve(bracket, seeds, won)
    assert state["GF"].players == (1, 3)
    assert placing(bracket, state, seeds.index) == [3, 1, 2, 4]
    rows = knockout_standings(bracket, state, seeds)
    assert [(r.player, r.rank, r.out_in) for r in rows] == [
        (3, 1, None),
        (1, 2, "GF"),
        (2, 3, "L2-1"),
        (4, 4, "L1-1"),
    ]
    assert rows[0].champion


def test_grand_final_with_reset_plays_a_second_final() -> None:
    bracket = double_elimination(4, reset=True)
    seeds = [1, 2, 3, 4]
    won = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 3, "L2-1": 3, "GF": 3}
    state = resolve(bracket, seeds, won)
    assert state["GF2"].playable and state["GF2"].players == (3, 1)
    rows = knockout_standings(bracket, state, seeds)
    assert [(r.player, r.out_in) for r in rows[:2]] == [(1, None), (3, None)], "both still in"
    state = resolve(bracket, seeds, {**won, "GF2": 1})
    assert placing(bracket, state, seeds.index) == [1, 3, 2, 4]


@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_event_honours_the_reset_setting(reset: bool) -> None:
    s = EventSettings(format=DE, grand_final_reset=reset)
    # Seed 3 beats seed 2 in the losers' final and seed 1 in the grand final.
    event = play_by_seed(new_event(s, 4), {"L2-1", "GF"})
    played = [m.id for r in event.rounds for m in r.matches]
    assert ("GF2" in played) is reset
    assert event.ranking()[:2] == ([1, 3] if reset else [3, 1])


# ------------------------------------------------------------------------------ group stage


def test_snake_groups() -> None:
    assert snake_groups(list(range(1, 11)), 4) == [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]
    assert snake_groups(list(range(1, 9)), 4) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert snake_groups([1, 2, 3], 8) == [[1, 2, 3]]
    assert advancing([1, 2]) == 1 and advancing([1, 2, 3]) == 2 and advancing(range(8)) == 2


def test_groups_of_three_into_a_bracket() -> None:
    """Six players in two groups of three (each rests once) play into a bracket of four: the
    group winners are seeds 1 and 2, the runners-up 3 and 4 (group A's first)."""
    event = new_event(EventSettings(format=SE, groups=3), 6)
    assert event.groups() == [[1, 4, 5], [2, 3, 6]]
    event = play_by_seed(event)
    first = event.rounds[0]
    assert first.phase == GROUP_STAGE
    assert sorted(m.id for m in first.matches) == ["R1-A-bye", "R1-A1", "R1-B-bye", "R1-B1"]
    assert len([r for r in event.rounds if r.phase == GROUP_STAGE]) == 3
    assert [[r.player for r in rows] for rows in event.group_tables()] == [[1, 4, 5], [2, 3, 6]]
    assert event.cut == [1, 2, 4, 3]
    bracket_rounds = [r for r in event.rounds if r.phase == "bracket"]
    assert [m.players for m in bracket_rounds[0].matches] == [(1, 3), (2, 4)]
    ranking = event.ranking()
    assert sorted(ranking) == [1, 2, 3, 4, 5, 6]
    # The semi-finals' losers (no third-place match) are placed by bracket seed: A's runner-up
    # (player 4) is seed 3, B's (player 3) seed 4.
    assert ranking == [1, 2, 4, 3, 5, 6]
    rows = event.standings()
    assert [r.out_in for r in rows[4:]] == [GROUP_STAGE, GROUP_STAGE]
    assert rows[4].rank == rows[5].rank == 5, "third in their groups: the same place"


def test_groups_of_four_with_byes_into_a_double_bracket() -> None:
    """Seven players, groups of at most four: a group of three (with rests) and one of four;
    the four qualifiers play a double-elimination bracket."""
    event = new_event(EventSettings(format=DE, groups=4), 7)
    assert event.groups() == [[1, 4, 5], [2, 3, 6, 7]]
    event = play_by_seed(event)
    assert len([r for r in event.rounds if r.phase == GROUP_STAGE]) == 3
    assert event.cut == [1, 2, 4, 3]
    # Bracket seeds 3 and 4 are players 4 and 3: both lose to 1 and 2, then 3 beats 4.
    assert event.ranking() == [1, 2, 3, 4, 5, 6, 7]
    byes = [m for r in event.rounds if r.phase == GROUP_STAGE for m in r.matches if m.is_bye]
    assert sorted(m.players[0] for m in byes) == [1, 4, 5], "the group of three rests in turn"
    assert all(r.score == 0 for r in event.group_tables()[0] if r.player == 5)


def test_a_withdrawn_player_does_not_go_through() -> None:
    event = new_event(EventSettings(format=SE, groups=4), 8)
    event.withdraw(1)  # before the first round: every group match of his is a forfeit
    event = play_by_seed(event)
    assert 1 not in event.cut
    assert event.cut[0] == 4, "group A's next player takes the winner's place"


def test_the_group_stage_survives_a_restart_and_an_unpair() -> None:
    event = new_event(EventSettings(format=SE, groups=3, third_place=True), 9)
    while event.current_round is None or event.current_round.phase == GROUP_STAGE:
        rnd = event.next_round()
        assert rnd is not None
        if rnd.phase != GROUP_STAGE:
            break
        for m in event.open_matches():
            a, b = sorted(m.players)
            event.record(m.id, Result(a, {a: 1, b: 0}, 1))
    assert event.current_round.phase == "bracket" and not event.in_groups
    cut = list(event.cut)
    restored = Event.from_dict(event.to_dict())
    assert restored.cut == cut and restored.bracket() is not None
    restored.unpair()
    assert restored.in_groups, "taking the first bracket round back takes the cut back"
    again = restored.next_round()
    assert again is not None and again.phase == "bracket" and restored.cut == cut


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 40),
    st.integers(3, 8),
    st.sampled_from([SE, DE]),
    st.booleans(),
    st.integers(0, 10**6),
)
def test_every_entrant_is_placed_exactly_once(
    n: int, size: int, fmt: Format, third: bool, seed: int
) -> None:
    s = EventSettings(format=fmt, groups=size, third_place=third and fmt is SE)
    event = new_event(s, n, seed)
    groups = event.groups()
    assert sorted(p for g in groups for p in g) == list(range(1, n + 1))
    assert len(groups) == math.ceil(n / size)
    assert max(map(len, groups)) <= size and max(map(len, groups)) - min(map(len, groups)) <= 1
    event = run_event(event, Random(seed))
    assert event.finished
    assert len(event.cut) == sum(advancing(g) for g in groups)
    found = event.bracket()
    assert found is not None
    bracket, seeds = found
    assert seeds == event.cut
    assert bracket.size == 2 ** math.ceil(math.log2(len(event.cut)))
    ranking = event.ranking()
    assert sorted(ranking) == list(range(1, n + 1))
    assert set(ranking[: len(event.cut)]) == set(event.cut), "the qualifiers place first"
    assert sorted(r.player for r in event.standings()) == list(range(1, n + 1))


def test_the_rules_text_explains_the_formats() -> None:
    from bot.tournament import explain_rules

    text = explain_rules(EventSettings(format=SE, third_place=True, groups=4), 10)
    paragraphs = text.split("\n\n")
    assert paragraphs[0].startswith("Group stage first: round-robin groups of at most 4 players")
    assert "The top 2 of each group" in paragraphs[0]
    assert "single elimination: one loss and you are out" in paragraphs[1]
    assert paragraphs[2].startswith("The losers of the two semi-finals play a match for third")
    assert any(p.startswith("Standings: a match win scores 1") for p in paragraphs)
    swiss = explain_rules(EventSettings(format=Format.SWISS, top_cut=4, third_place=True))
    assert "Swiss system" in swiss and "third place" in swiss
    without = explain_rules(EventSettings(format=DE, grand_final_reset=False))
    assert "losers' champion, one match" in without and "second final" not in without


def test_the_export_has_the_groups_and_the_qualifiers() -> None:
    from bot.tournament.export import event_data, standings_csv

    event = play_by_seed(new_event(EventSettings(format=SE, groups=3, third_place=True), 6))
    data = event_data(event, meta={"id": 1}, prizes={})
    assert [g["name"] for g in data["groups"]] == ["A", "B"]
    assert [r["player"] for r in data["groups"][0]["standings"]] == [1, 4, 5]
    assert data["groups"][0]["standings"][0]["score"] == 4  # two wins, in half-points
    assert data["qualified"] == event.cut == [1, 2, 4, 3]
    assert {r["id"]: r["group"] for r in data["standings"]} == {
        1: "A",
        4: "A",
        5: "A",
        2: "B",
        3: "B",
        6: "B",
    }
    header = standings_csv(data).splitlines()[0].split(",")
    assert "group" in header
    plain = event_data(new_event(EventSettings(format=SE), 4), meta={}, prizes={})
    assert plain["groups"] == [] and plain["qualified"] == []


@pytest.mark.parametrize(("n", "size"), [(6, 3), (8, 4), (12, 3), (16, 4), (9, 3), (15, 3)])
def test_a_groups_qualifiers_meet_as_late_as_they_can(n: int, size: int) -> None:
    """Two or four groups: a group's winner and runner-up are in different halves (they can
    only meet in the final). Three or five groups (byes in the bracket): never in round 1."""
    event = play_by_seed(new_event(EventSettings(format=SE, groups=size), n))
    group_of = {p: i for i, g in enumerate(event.groups()) for p in g}
    found = event.bracket()
    assert found is not None
    bracket, seeds = found
    order = seed_order(bracket.size)
    half = {seeds[s - 1]: i < bracket.size // 2 for i, s in enumerate(order) if s <= len(seeds)}
    first_round = next(r for r in event.rounds if r.phase == "bracket")
    for a, b in (m.players for m in first_round.matches if len(m.players) == 2):
        assert group_of[a] != group_of[b], "no rematch from a group in the first round"
    if len(event.groups()) in (2, 4):
        for p in seeds:
            mates = [q for q in seeds if q != p and group_of[q] == group_of[p]]
            assert all(half[q] != half[p] for q in mates)
