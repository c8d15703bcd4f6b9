"""Tsung Shap's master: it never reads the hidden orders, it keeps the expert's move unless
beaten clearly, and it plays without the compiled kernel too."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.engine import apply, legal_actions, make_deal, make_rules, new_game, view
from bot.games.fishing.ai.master import MasterFishingPlayer, pick
from bot.games.fishing.ai.players import ExpertFishingPlayer
from bot.games.fishing.engine import FishingPhase, FishingState

pytest.importorskip("numpy")


def _reshuffled(state: FishingState, rng: random.Random) -> FishingState:
    """The same public position with the hidden tiles (both piles) in another order."""
    hidden = [p for pile in state.piles for p in pile]
    rng.shuffle(hidden)
    piles = []
    at = 0
    for pile in state.piles:
        piles.append(tuple(hidden[at : at + len(pile)]))
        at += len(pile)
    return replace(state, piles=tuple(piles))


def test_the_master_decides_the_same_whatever_the_hidden_orders() -> None:
    rules = make_rules("tsung-shap")
    master = MasterFishingPlayer(budget=200)
    expert = ExpertFishingPlayer()
    rng = random.Random(3)
    checked = 0
    for i in range(2):
        state = new_game(rules, ["a", "b"], make_deal(rules, random.Random(f"peek:{i}")))
        while state.result is None:
            seat = state.current
            legal = legal_actions(state)
            if state.phase is FishingPhase.PLAY and len(legal) > 1:
                seed = rng.getrandbits(32)
                mine = master.choose(view(state, seat), legal, random.Random(seed))
                for _ in range(3):
                    other = _reshuffled(state, rng)
                    if other.piles == state.piles:
                        continue
                    assert view(other, seat) == view(state, seat)
                    assert legal_actions(other) == legal
                    assert master.choose(view(other, seat), legal, random.Random(seed)) == mine
                    checked += 1
            state, _ = apply(state, expert.choose(view(state, seat), legal, rng))
    assert checked > 20


def test_pick_keeps_the_expert_move_unless_clearly_beaten() -> None:
    even = [[1.0, 0.0], [0.0, 1.0]] * 10
    assert pick(even, 1) == 1
    better = [[1.0, 0.0]] * 20 + [[0.0, 0.0]] * 5
    assert pick(better, 1) == 0
    assert pick(better, 0) == 0
    assert pick([[0.6, 0.5, 0.4]] * 2 + [[0.5, 0.5, 0.5]], 1, margin=0.0) == 0


def test_without_the_kernel_the_master_plays_through_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.games.fishing.ai import kernel as fishing_kernel

    monkeypatch.setenv("KAPSHAP_KERNEL", "0")
    assert not fishing_kernel.ready()
    rules = make_rules("tsung-shap")
    master = MasterFishingPlayer(budget=90)  # 3 play-outs per decision in Python
    expert = ExpertFishingPlayer()
    state = new_game(rules, ["a", "b"], make_deal(rules, random.Random("python")))
    rng = random.Random(4)
    while state.result is None:
        seat = state.current
        legal = legal_actions(state)
        player = master if seat == 0 else expert
        action = player.choose(view(state, seat), legal, rng)
        assert action in legal
        state, _ = apply(state, action)
