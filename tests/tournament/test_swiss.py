"""Swiss pairing: unit tests, a brute-force oracle for small fields, and whole random events."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import EventSettings, Format, TournamentError, pair_swiss, swiss
from bot.tournament.swiss import SwissPairing, pairing_order

from .helpers import new_event, play_open_matches


def perfect_matchings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of an even list (brute force)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def rematches(pairs: Sequence[tuple[int, int]], met: Mapping[int, set[int]]) -> int:
    return sum(1 for a, b in pairs if b in met.get(a, set()))


def score_cost(pairs: Sequence[tuple[int, int]], scores: Mapping[int, int]) -> int:
    return sum((scores[a] - scores[b]) ** 2 for a, b in pairs)


def check_basic(ranked: Sequence[int], result: SwissPairing) -> None:
    seen = [p for pair in result.pairs for p in pair]
    if result.bye is not None:
        seen.append(result.bye)
    assert sorted(seen) == sorted(ranked), "every player paired exactly once or given the bye"
    assert (result.bye is not None) == (len(ranked) % 2 == 1)
    rank = {p: i for i, p in enumerate(ranked)}
    assert all(rank[a] < rank[b] for a, b in result.pairs), "higher-ranked player first"


def test_first_round_is_top_half_against_bottom_half() -> None:
    ranked = list(range(1, 9))
    result = pair_swiss(ranked, dict.fromkeys(ranked, 0), {})
    assert result.pairs == ((1, 5), (2, 6), (3, 7), (4, 8))
    assert result.bye is None and result.rematches == 0


def test_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    ranked = [1, 2, 3, 4, 5]
    scores = {1: 2, 2: 2, 3: 0, 4: 0, 5: 2}
    assert pair_swiss(ranked, scores, {}).bye == 5
    assert pair_swiss(ranked, scores, {}, had_bye={5}).bye == 4
    assert pair_swiss(ranked, scores, {}, had_bye={5, 4, 3}).bye == 2


def test_rematch_avoided_by_floating() -> None:
    # 1 and 2 lead and have met: each floats down instead of meeting again.
    ranked = [1, 2, 3, 4]
    scores = {1: 4, 2: 4, 3: 2, 4: 2}
    met = {1: {2}, 2: {1}}
    result = pair_swiss(ranked, scores, met)
    assert result.rematches == 0
    assert {frozenset(p) for p in result.pairs} in (
        {frozenset({1, 3}), frozenset({2, 4})},
        {frozenset({1, 4}), frozenset({2, 3})},
    )


def test_unavoidable_rematch_is_made_and_counted() -> None:
    result = pair_swiss([1, 2], {1: 2, 2: 0}, {1: {2}, 2: {1}})
    assert result.pairs == ((1, 2),) and result.rematches == 1


def test_bye_moves_up_when_the_lowest_cannot_leave_a_rematch_free_pairing() -> None:
    # Without 3, players 1 and 2 would have to meet again; without 2, 1 v 3 is new.
    ranked = [1, 2, 3]
    met = {1: {2}, 2: {1}}
    result = pair_swiss(ranked, {1: 0, 2: 0, 3: 0}, met)
    assert result.bye == 2 and result.pairs == ((1, 3),) and result.rematches == 0


def test_pairing_order_interleaves_each_score_group() -> None:
    order = pairing_order([1, 2, 3, 4, 5, 6, 7], {1: 4, 2: 4, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2})
    assert order == [[1, 2], [3, 6, 4, 7, 5]]


def test_refuses_a_field_of_one_or_duplicates() -> None:
    with pytest.raises(TournamentError):
        pair_swiss([1], {1: 0}, {})
    with pytest.raises(TournamentError):
        pair_swiss([1, 1], {1: 0}, {})


@st.composite
def small_rounds(
    draw: st.DrawFn,
) -> tuple[list[int], dict[int, int], dict[int, set[int]], set[int]]:
    n = draw(st.integers(2, 9))
    players = list(range(1, n + 1))
    scores = {p: draw(st.integers(0, 6)) for p in players}
    ranked = sorted(players, key=lambda p: (-scores[p], p))
    met: dict[int, set[int]] = {p: set() for p in players}
    for a in players:
        for b in players:
            if a < b and draw(st.integers(0, 99)) < 45:
                met[a].add(b)
                met[b].add(a)
    had_bye = {p for p in players if draw(st.booleans())}
    return ranked, scores, met, had_bye


@settings(max_examples=300, deadline=None)
@given(small_rounds())
def test_swiss_matches_brute_force_for_small_fields(
    case: tuple[list[int], dict[int, int], dict[int, set[int]], set[int]],
) -> None:
    ranked, scores, met, had_bye = case
    result = pair_swiss(ranked, scores, met, had_bye)
    check_basic(ranked, result)
    assert result.rematches == rematches(result.pairs, met)
    eligible = [p for p in reversed(ranked) if p not in had_bye] or list(reversed(ranked))
    if len(ranked) % 2:
        assert result.bye in eligible, "the bye goes to someone without one when possible"
        # The oracle: the lowest-ranked eligible player whose absence leaves a rematch-free
        # pairing gets the bye; with no such player, the lowest-ranked eligible one.
        options = []
        for candidate in eligible:
            rest = [p for p in ranked if p != candidate]
            free = [m for m in perfect_matchings(rest) if rematches(m, met) == 0]
            if free:
                options.append((candidate, free))
        if options:
            expected_bye, free = options[0]
        else:
            expected_bye, free = eligible[0], []
        assert result.bye == expected_bye
    else:
        free = [m for m in perfect_matchings(ranked) if rematches(m, met) == 0]
        expected_bye = None
    if free:
        assert result.rematches == 0, "no rematch while a rematch-free pairing exists"
        assert score_cost(result.pairs, scores) == min(score_cost(m, scores) for m in free), (
            "score groups respected: no rematch-free pairing keeps scores closer"
        )
    else:
        rest = [p for p in ranked if p != expected_bye]
        fewest = min(rematches(m, met) for m in perfect_matchings(rest))
        assert result.rematches == fewest


def swiss_rounds_of(event_size: int, seed: int, *, drop_some: bool) -> None:
    rng = Random(seed)
    event = new_event(EventSettings(format=Format.SWISS, best_of=1), event_size, seed=seed)
    byes: dict[int, int] = {}
    met: dict[int, set[int]] = {}
    total = event.settings.swiss_rounds(event_size)
    for number in range(1, total + 1):
        if drop_some and number == 2 and len(event.active) > 3:
            event.withdraw(event.active[-1])
        rnd = event.next_round()
        assert rnd is not None and rnd.number == number and rnd.phase == "swiss"
        active = event.active
        in_round = [p for m in rnd.matches for p in m.players]
        assert sorted(in_round) == sorted(active), "each active player once per round"
        for m in rnd.matches:
            if m.is_bye:
                byes[m.players[0]] = byes.get(m.players[0], 0) + 1
            else:
                a, b = m.players
                if len(active) >= 2 * number + 2:
                    assert b not in met.get(a, set()), "rematch in a field that avoids them"
                met.setdefault(a, set()).add(b)
                met.setdefault(b, set()).add(a)
        play_open_matches(event, rng)
    assert all(n == 1 for n in byes.values()), "at most one bye per player over the event"
    assert event.next_round() is None and event.finished


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 60), st.integers(0, 10_000), st.booleans())
def test_random_swiss_events(size: int, seed: int, drop_some: bool) -> None:
    swiss_rounds_of(size, seed, drop_some=drop_some)


def test_large_swiss_event_has_no_rematch_and_keeps_score_groups() -> None:
    # 300 players: the segmented matching. Every pair must come from the same score group or
    # neighbouring ones (a float of at most one point).
    rng = Random(5)
    event = new_event(EventSettings(format=Format.SWISS, seats_limit=1024, rounds=7), 300)
    for _ in range(7):
        rows = {r.player: r for r in event.pair_standings()}
        rnd = event.next_round()
        assert rnd is not None
        for m in rnd.matches:
            if not m.is_bye:
                a, b = m.players
                assert abs(rows[a].score - rows[b].score) <= 2
        play_open_matches(event, rng)
    opponents = [r.opponents for r in event.pair_standings()]
    assert all(len(set(o)) == len(o) == 7 for o in opponents)


def test_a_segment_that_cannot_be_paired_is_merged_with_its_neighbour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 40 players on one score: matched in segments of the pairing order (16, then 24). The
    # first segment's players have all met each other, so it has no rematch-free matching.
    ranked = list(range(40))
    first = [p for group in pairing_order(ranked, dict.fromkeys(ranked, 0)) for p in group][:16]
    met = {p: set(first) - {p} for p in first}
    sizes: list[tuple[int, bool]] = []
    real = swiss._match

    def spy(segment: list[int], *args: object) -> object:
        sizes.append((len(segment), args[-1] is True))
        return real(segment, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(swiss, "_match", spy)
    result = pair_swiss(ranked, dict.fromkeys(ranked, 0), met)
    assert sizes == [(16, False), (40, False)], "the failed segment merged with the next one"
    check_basic(ranked, result)
    assert result.rematches == 0
    assert all(not (a in first and b in first) for a, b in result.pairs)
