"""Fit the master's inference weights: how much more likely real expert hands are than uniform
draws, feature by feature (``bot.games.collecting.ai.kernel._hand_features``).

Experts play each other through the engine. At every decision of every seat, each other seat's
true hidden tiles and ``--draws`` uniform draws of as many tiles from what the deciding seat has
not seen are described by the same features, computed from public moves only. A conditional
logit (which of the group is the real hand) is fitted by Newton's method: its weights are the
log ratio of the real hands' density to the uniform draws', exactly what importance resampling
among uniform draws needs (``infer`` 3 of the master). Held-out games report the fit.

    .venv/bin/python benchmarks/fit_inference.py --games 400
    .venv/bin/python benchmarks/fit_inference.py --game kap-tai-shap --players 6 --games 150
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from bot.engine import Offer, apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.ai import kernel
from bot.games.collecting.ai.core import pack_tiles, unpack
from bot.games.collecting.ai.knowledge import read_view
from bot.games.collecting.ai.levels import get_player
from bot.games.collecting.engine.actions import Declare
from bot.games.collecting.engine.machine import Phase


def _groups(rules: Any, games: int, draws: int, seed: str, gaps: int = 0) -> list[np.ndarray]:
    """Per (decision, other seat): a matrix of features, the real hand's row first."""
    ev = kernel.ev_array(rules)
    expert = get_player("expert")
    rng = random.Random(seed)
    out: list[np.ndarray] = []
    for game in range(games):
        deal = make_deal(rules, random.Random(f"{seed}:{game}"))
        state = new_game(rules, [f"s{i}" for i in range(rules.players)], deal)
        while state.result is None:
            seat = state.current
            v = view(state, seat)
            legal = legal_actions(state)
            if Declare() not in legal and v.phase is not Phase.DRAW:
                seen = read_view(v, legal)
                unseen = unpack(seen.unseen())
                pool_tiles = [k for k in range(21) for _ in range(unseen[k])]
                live = [0] * 21
                if rules.offer is Offer.ANY:
                    for p in v.pool:
                        if not p.dead:
                            live[p.tile.index] += 1
                pool = np.array(live, np.int64)
                codes = {"discard": 0, "draw": 1, "take": 2}
                state_rng = np.array([rng.getrandbits(64)], dtype=np.uint64)
                work = np.zeros(21, np.int64)
                for s in range(rules.players):
                    if s == seat:
                        continue
                    known = unpack(seen.known[s])
                    true = unpack(
                        pack_tiles(PIECE_KINDS[p % PIECES_PER_SET] for p in state.hands[s])
                    )
                    recent = unpack(seen.recent[s])
                    thrown = recent.index(1) if sum(recent) == 1 else -1
                    passed = np.array(unpack(seen.passed[s]), np.int64)
                    discarded = np.array(unpack(seen.discarded[s]), np.int64)
                    need = sum(true) - sum(known)
                    moves = [
                        (codes[m.verb], m.tile.index if m.tile else -1)
                        for m in v.history
                        if m.seat == s and m.verb in codes
                    ]
                    events = np.array(moves or [(0, 0)], np.int64).reshape(-1, 2)
                    rows = []
                    for d in range(draws + 1):
                        base = np.array(known, np.int64)
                        if d == 0:
                            base = np.array(true, np.int64)
                        else:
                            for k in rng.sample(pool_tiles, need):
                                base[k] += 1
                        f = np.zeros(kernel.N_FEATURES, np.float64)
                        kernel._hand_features(ev, base, thrown, passed, discarded, pool, f)
                        f[-1] = kernel._history_feature(
                            ev, state_rng, base, events, len(moves), work
                        )
                        if gaps:
                            # The whole history, judged trajectory by trajectory (infer 4).
                            g = np.zeros(kernel.N_GAPS, np.float64)
                            kernel._history_gaps(
                                ev, state_rng, base, events, len(moves), work, gaps, g
                            )
                            f = np.concatenate([f, g])
                        rows.append(f)
                    out.append(np.array(rows))
            state, _ = apply(state, expert.choose(v, legal, random.Random(0)))
    return out


def _loglik(w: np.ndarray, groups: list[np.ndarray]) -> float:
    total = 0.0
    for g in groups:
        z = g @ w
        top = z.max()
        total += z[0] - top - np.log(np.exp(z - top).sum())
    return total / len(groups)


def _fit(groups: list[np.ndarray], ridge: float = 1e-3) -> np.ndarray:
    n = groups[0].shape[1]
    w = np.zeros(n)
    for _ in range(30):
        grad = -ridge * w
        hess = -ridge * np.eye(n)
        for g in groups:
            z = g @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ g
            grad += g[0] - mean
            centred = g - mean
            hess -= (centred * p[:, None]).T @ centred
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def main() -> None:
    """Collect the groups, fit, and print the weights and the held-out log-likelihoods."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kap-shap")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--draws", type=int, default=15)
    parser.add_argument(
        "--gaps", type=int, default=0, help="trajectories per hand for the history gaps (infer 4)"
    )
    args = parser.parse_args()
    rules = make_rules(args.game, args.players) if args.players else make_rules(args.game)
    train = _groups(rules, args.games, args.draws, "fit", args.gaps)
    test = _groups(rules, max(1, args.games // 3), args.draws, "check", args.gaps)
    w = _fit(train)
    zero = np.zeros_like(w)
    print(f"{rules.describe()}: {len(train)} groups to fit, {len(test)} to check")
    print("weights:", ", ".join(f"{x:.3f}" for x in w))
    share = np.mean([np.exp(g[0] @ w - np.log(np.exp(g @ w).sum())) for g in test])
    print(
        f"held-out mean weight of the real hand: {share:.3f} (uniform {1 / (args.draws + 1):.3f})"
    )
    print(
        f"held-out log-likelihood of the real hand among {args.draws + 1}: "
        f"uniform {_loglik(zero, test):.3f}, fitted {_loglik(w, test):.3f}"
    )


if __name__ == "__main__":
    main()
