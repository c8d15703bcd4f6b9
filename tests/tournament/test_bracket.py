"""Elimination brackets: seeding, byes, every N from 2 to 130, losers' bracket routing."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from bot.tournament import TournamentError, double_elimination, seed_order, single_elimination
from bot.tournament.bracket import Bracket, Resolved, champion, placing, resolve


def play_out(bracket: Bracket, rng: Random | None) -> tuple[dict[str, Resolved], list[list[str]]]:
    """Play the bracket stage by stage with random winners (``rng``) or the better seed always
    winning (None). Returns the final state and the node ids played in each round."""
    seeds = list(range(1, bracket.entrants + 1))
    winners: dict[str, int] = {}
    rounds: list[list[str]] = []
    while True:
        state = resolve(bracket, seeds, winners)
        playable = [n.id for n in bracket.nodes if state[n.id].playable]
        if not playable:
            return state, rounds
        rounds.append(playable)
        for node_id in playable:
            a, b = state[node_id].players
            assert a is not None and b is not None
            winners[node_id] = rng.choice([a, b]) if rng else min(a, b)


def test_seed_order() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (16, 32, 64, 128, 256):
        order = seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    with pytest.raises(TournamentError):
        seed_order(6)


def test_a_bracket_needs_two_players() -> None:
    with pytest.raises(TournamentError):
        single_elimination(1)
    with pytest.raises(TournamentError):
        double_elimination(0)


@pytest.mark.parametrize("n", range(2, 131))
def test_single_elimination_for_every_size(n: int) -> None:
    bracket = single_elimination(n)
    size = bracket.size
    assert size >= n > size // 2
    state = resolve(bracket, list(range(1, n + 1)), {})
    first = [state[node.id] for node in bracket.nodes if node.round == 1]
    byes = [r for r in first if None in r.players]
    assert len(byes) == size - n, "one bye per empty slot"
    assert sorted(r.winner for r in byes if r.winner is not None) == list(range(1, size - n + 1))
    assert all(r.decided for r in byes), "byes go straight through to the top seeds"
    for rng in (None, Random(n), Random(n + 1000)):
        final, rounds = play_out(bracket, rng)
        played = [node for stage in rounds for node in stage]
        assert len(played) == n - 1, "N − 1 matches decide N players"
        losses = Counter(final[node_id].loser for node_id in played)
        winner = champion(bracket, final)
        assert winner is not None and losses[winner] == 0
        assert set(losses) == set(range(1, n + 1)) - {winner}
        assert all(count == 1 for count in losses.values())
        places = placing(bracket, final, lambda p: p)
        assert sorted(places) == list(range(1, n + 1)) and places[0] == winner
        if rng is None:
            assert places[:2] == [1, 2], "seeds 1 and 2 only meet in the final"
            if n >= 4:
                assert sorted(places[2:4]) == [3, 4]


@pytest.mark.parametrize("reset", [True, False])
@pytest.mark.parametrize("n", range(2, 131))
def test_double_elimination_for_every_size(n: int, reset: bool) -> None:
    bracket = double_elimination(n, reset=reset)
    k = bracket.size.bit_length() - 1
    stage = bracket.stages()
    assert list(stage.values()) == sorted(stage.values()), "nodes come in playing order"
    for rng in (None, Random(n)):
        final, rounds = play_out(bracket, rng)
        played = [node for r in rounds for node in r]
        winner = champion(bracket, final)
        assert winner is not None
        losses = Counter(final[node_id].loser for node_id in played)
        assert losses[winner] <= 1
        gf = final["GF"]
        lb_won_gf = gf.winner == gf.players[1]
        if reset:
            assert len(played) == 2 * n - 2 + (1 if lb_won_gf else 0)
            assert all(c == 2 for p, c in losses.items() if p != winner)
        else:
            assert len(played) == 2 * n - 2
            runner_up = gf.loser
            assert all(c == 2 for p, c in losses.items() if p not in (winner, runner_up))
        assert set(losses) | {winner} == set(range(1, n + 1))
        places = placing(bracket, final, lambda p: p)
        assert sorted(places) == list(range(1, n + 1)) and places[0] == winner
        if rng is None:
            assert places[:2] == [1, 2]
        # Nobody plays after his second loss.
        seen: Counter[int] = Counter()
        for r in rounds:
            for node_id in r:
                for p in final[node_id].players:
                    assert p is not None and seen[p] < 2
            for node_id in r:
                loser = final[node_id].loser
                if loser is not None:
                    seen[loser] += 1
        # The losers' bracket avoids early rematches: none in its first rounds (two rounds
        # from 8 players on, three from 16; its final, L(2k−2), may be a rematch).
        met: dict[int, set[int]] = {}
        early = min(3 if k >= 4 else 2, 2 * k - 3)
        for r in rounds:
            for node_id in r:
                node = bracket.node(node_id)
                a, b = final[node_id].players
                assert a is not None and b is not None
                if node.side == "L" and node.round <= early:
                    assert b not in met.get(a, set()), f"rematch in {node_id} of {n} players"
            for node_id in r:
                a, b = final[node_id].players
                assert a is not None and b is not None
                met.setdefault(a, set()).add(b)
                met.setdefault(b, set()).add(a)


def test_double_elimination_of_two_is_a_final_and_a_grand_final() -> None:
    bracket = double_elimination(2)
    assert [n.id for n in bracket.nodes] == ["W1-1", "GF", "GF2"]
    state = resolve(bracket, [10, 20], {"W1-1": 20, "GF": 10})
    assert state["GF2"].playable and state["GF2"].players == (10, 20)
    state = resolve(bracket, [10, 20], {"W1-1": 20, "GF": 20})
    assert state["GF2"].skipped and champion(bracket, state) == 20


def test_resolve_refuses_a_winner_who_did_not_play() -> None:
    bracket = single_elimination(4)
    with pytest.raises(TournamentError):
        resolve(bracket, [1, 2, 3, 4], {"W1-1": 2})
