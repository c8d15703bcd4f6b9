"""The master level: its play-outs start from exactly the state of the table, and it plays.

The strongest check of the search's plumbing: give the kernel's play-out the true hidden tiles
(the other hands and the wall in order) instead of a random deal, force the move the expert
makes, and the play-out must end exactly as the real game of experts does, from every decision
of every game. So the state rebuilt from a view (live discards, knowledge, turn, compulsory
draws, stall count) is the engine's.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

from bot.engine import RuleSet, apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.ai import kernel
from bot.games.collecting.ai.core import DRAW, pack_tiles, unpack
from bot.games.collecting.ai.expert import expert_discard, expert_take
from bot.games.collecting.ai.knowledge import read_view
from bot.games.collecting.ai.levels import get_player
from bot.games.collecting.ai.master import MasterPlayer, _scalars
from bot.games.collecting.engine.actions import Declare
from bot.games.collecting.engine.machine import GameState, Phase


def kind_of(piece: int) -> int:
    """The kind of a physical tile of the deal."""
    return PIECE_KINDS[piece % PIECES_PER_SET]


def _exact_tiles(state: GameState, seat: int, known: list[int]) -> list[int]:
    out: list[int] = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            continue
        counts = unpack(pack_tiles(kind_of(p) for p in hand))
        hidden = [c - k for c, k in zip(counts, unpack(known[s]), strict=True)]
        out += [k for k in range(21) for _ in range(hidden[k])]
    return out + [kind_of(p) for p in state.wall[state.wall_pos :]]


REPLAY_RULES = [
    make_rules("kap-shap"),
    make_rules("kap-shap", rule_set="classic"),
    make_rules("kap-shap", rule_set="last-draw"),
    make_rules("kap-tai-shap", 4, exclude_own_discards=True),
    make_rules("kap-tai-shap", 5, "classic"),
]
"""Rule sets whose every turn rule a replay of real games must meet (the offer, the draw after
a take, the stall guard, excluded own discards, several sets)."""


@pytest.mark.parametrize("rules", REPLAY_RULES, ids=lambda r: r.describe())
def test_a_play_out_from_the_true_hidden_tiles_replays_the_game(rules: RuleSet) -> None:
    expert = get_player("expert")
    for game in range(4):
        state = new_game(
            rules, [f"s{i}" for i in range(rules.players)], make_deal(rules, random.Random(game))
        )
        checks: list[tuple[int, list[list[float]]]] = []
        while state.result is None:
            seat = state.current
            v = view(state, seat)
            legal = legal_actions(state)
            if Declare() not in legal and v.phase is not Phase.DRAW:
                seen = read_view(v, legal)
                if v.phase is Phase.TAKE_OR_DRAW:
                    choice = expert_take(seen)
                else:
                    choice = expert_discard(seen)
                scores = kernel.rollout_scores(
                    rules,
                    seat,
                    {
                        "hand": unpack(seen.hand),
                        "unknown": unpack(seen.unseen()),
                        "faceup": unpack(seen.faceup),
                        "public": unpack(seen.public),
                    },
                    {
                        "known": [unpack(x) for x in seen.known],
                        "discarded": [unpack(x) for x in seen.discarded],
                        "passed": [unpack(x) for x in seen.passed],
                        "recent": [unpack(x) for x in seen.recent],
                    },
                    list(v.hand_sizes),
                    [(p.tile.index, p.seat) for p in v.pool if not p.dead],
                    _scalars(v, seen),
                    [choice],
                    [0],
                    _exact_tiles(state, seat, seen.known),
                )
                checks.append((seat, scores))
            state, _ = apply(state, expert.choose(v, legal, random.Random(0)))
        winner = state.result.winner
        for seat, ((score,),) in checks:
            expected = (
                0.0 if winner is None else (1.0 if winner == seat else -1 / (rules.players - 1))
            )
            assert score == pytest.approx(expected), (game, seat)


def test_master_plays_legal_moves_and_declares_wins() -> None:
    rules = make_rules("kap-tai-shap", 3)
    master = MasterPlayer(budget=30)
    state = new_game(rules, ["a", "b", "c"], make_deal(rules, random.Random(3)))
    rng = random.Random(1)
    others = get_player("expert")
    while state.result is None:
        seat = state.current
        legal = legal_actions(state)
        player = master if seat == 0 else others
        action = player.choose(view(state, seat), legal, rng)
        assert action in legal
        if Declare() in legal:
            assert action == Declare()
        state, _ = apply(state, action)


def test_master_replays_the_same_for_the_same_random_stream() -> None:
    rules = make_rules("kap-shap")
    deal = make_deal(rules, random.Random(9))
    from bot.games.collecting.sim.play import play_reference

    one = play_reference(rules, deal, ("master", "expert"), random.Random(4))
    two = play_reference(rules, deal, ("master", "expert"), random.Random(4))
    assert one == two


def test_the_master_level_is_offered_for_every_game() -> None:
    from bot.ai.levels import levels_for, player_for

    for game in ("kap-shap", "kap-tai-shap", "tsung-shap"):
        assert levels_for(game)[-1] == "master"
        assert player_for(game, "master").level == "master"


def test_the_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAPSHAP_MASTER_BUDGET", "123")
    assert MasterPlayer().budget == 123
    monkeypatch.setenv("KAPSHAP_MASTER_BUDGET", "lots")
    assert MasterPlayer().budget is None  # the default, shared among the players
    assert MasterPlayer(budget=7).budget == 7


def test_master_keeps_the_expert_move_unless_clearly_beaten() -> None:
    from bot.games.collecting.ai.master import _pick

    even = [[1.0, 0.0], [0.0, 1.0]] * 10
    assert _pick([5, 9], even, 9) == 9
    better = [[1.0, 0.0]] * 20 + [[0.0, 0.0]] * 5
    assert _pick([5, 9], better, 9) == 5
    assert _pick([5, 9], better, DRAW) == DRAW  # a fallback outside the candidates stands


def test_the_tsung_shap_master_plays_legal_moves() -> None:
    from bot.games.fishing.ai.master import MasterFishingPlayer
    from bot.games.fishing.sim.play import play_fishing

    rules = make_rules("tsung-shap")
    master = MasterFishingPlayer(budget=16)
    deal = make_deal(rules, random.Random(2))
    state = new_game(rules, ["a", "b"], deal)
    rng = random.Random(5)
    from bot.games.fishing.ai.levels import fishing_player

    expert = fishing_player("expert")
    while state.result is None:
        seat = state.current
        legal = legal_actions(state)
        action = (master if seat == 1 else expert).choose(view(state, seat), legal, rng)
        assert action in legal
        state, _ = apply(state, action)
    one = play_fishing(rules, deal, ("expert", "master"), random.Random(3))
    assert one == play_fishing(rules, deal, ("expert", "master"), random.Random(3))


def test_the_master_never_peeks_at_the_hidden_tiles() -> None:
    """Swap the other seat's hidden tiles with the wall's: the view is the same, and so must
    be every decision of the master (its inference reads public moves only)."""
    import dataclasses

    rules = make_rules("kap-shap")
    expert = get_player("expert")
    checked = 0
    for game in range(3):
        state = new_game(rules, ["a", "b"], make_deal(rules, random.Random(40 + game)))
        while state.result is None:
            seat = state.current
            legal = legal_actions(state)
            v = view(state, seat)
            if seat == 0 and Declare() not in legal and v.phase is not Phase.DRAW:
                # The other hand's tiles go to the wall and as many of the wall's to the hand.
                wall = list(state.wall)
                hand = list(state.hands[1])
                for i in range(min(len(hand), state.wall_size)):
                    at = state.wall_pos + i
                    hand[i], wall[at] = wall[at], hand[i]
                swapped = dataclasses.replace(
                    state, hands=(state.hands[0], tuple(hand)), wall=tuple(wall)
                )
                assert view(swapped, 0) == v
                for infer in (2, 3, 4, 5):
                    master = MasterPlayer(budget=64, infer=infer)
                    one = master.choose(v, legal, random.Random(game))
                    assert one == master.choose(view(swapped, 0), legal, random.Random(game))
                checked += 1
            state, _ = apply(state, expert.choose(v, legal, random.Random(0)))
    assert checked > 5
