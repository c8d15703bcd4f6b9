"""The master level: its win share against experts (95 % interval) and its time per decision.

* ``shap``: Kap Shap Culin, master against expert, every deal played twice with the seats
  swapped; the share counts a drawn game as half a win.
* ``tsung``: Tsung Shap, the same.
* ``table``: Kap Tai Shap with 6 seats (its default rules: Classic, 3 sets), master and 5
  experts, the master's seat turning round the table from deal to deal; its share of the games
  won against the 1/6 of an equal.

Each decision of the master is timed by the wall clock and by the processor time of this
process (what it costs on an idle core; the machine is shared).

``--peek`` gives the master the other seats' true hidden tiles (``PeekingMaster``; never at a
table): what search would gain if the inference were perfect.

Games are dealt by ``make_deal(rules, random.Random(f"master:{i}"))`` and the players draw from
``random.Random(i)``, so the figures are reproducible.

    .venv/bin/python benchmarks/bench_master.py shap --deals 300
    .venv/bin/python benchmarks/bench_master.py shap --deals 150 --peek   # ceiling: sees the hands
    .venv/bin/python benchmarks/bench_master.py tsung --deals 100 --budget 600
    .venv/bin/python benchmarks/bench_master.py table --deals 120
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.ai.levels as ai_levels
import bot.games.collecting.ai.master as master
import bot.games.fishing.ai.levels as fishing_levels
from bot.engine import make_deal, make_rules
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.ai.core import pack_tiles, unpack
from bot.games.collecting.ai.knowledge import Seen
from bot.games.collecting.ai.master import INFER, MasterPlayer
from bot.games.collecting.engine.machine import GameState, View
from bot.games.collecting.sim.play import play_reference
from bot.games.fishing.ai.master import MasterFishingPlayer
from bot.games.fishing.sim.play import play_fishing

TIMES: list[float] = []
CPU: list[float] = []
"""Per decision: wall-clock seconds, and this process's processor seconds (what the decision
costs on an idle core: the machine is shared, so the wall clock includes waiting)."""
STATE: list[GameState] = []
"""The state of the game being played, for the peeking master (``--peek``) only."""


class PeekingMaster(MasterPlayer):
    """The master with the other seats' true hands (benchmark only: the ceiling of search)."""

    def peek(self, view: View, seen: Seen) -> list[list[int]]:
        """The other seats' true hidden tiles, less what this seat knows they hold."""
        state = STATE[-1]
        out = []
        for s, hand in enumerate(state.hands):
            if s == seen.seat:
                out.append([0] * 21)
                continue
            counts = unpack(pack_tiles(PIECE_KINDS[p % PIECES_PER_SET] for p in hand))
            out.append([c - k for c, k in zip(counts, unpack(seen.known[s]), strict=True)])
        return out


def _play_peeking(rules: Any, deal: Any, levels: Any, rng: random.Random) -> Any:
    # play_reference, keeping the state where the peeking master finds it.
    import bot.engine as engine

    original = engine.view

    def spying(state: GameState, seat: int) -> View:
        STATE[:] = [state]
        return original(state, seat)

    import bot.games.collecting.sim.play as sim_play

    sim_play.view = spying  # type: ignore[attr-defined]
    try:
        return play_reference(rules, deal, levels, rng)
    finally:
        sim_play.view = original  # type: ignore[attr-defined]


def _timed(player: Any) -> Any:
    choose = player.choose

    def wrapped(view: Any, legal: Any, rng: random.Random) -> Any:
        began = time.perf_counter()
        cpu = time.process_time()
        action = choose(view, legal, rng)
        TIMES.append(time.perf_counter() - began)
        CPU.append(time.process_time() - cpu)
        return action

    player.choose = wrapped
    return player


def _interval(wins: float, games: int) -> tuple[float, float, float]:
    share = wins / games
    half = 1.96 * math.sqrt(max(share * (1 - share), 1e-12) / games)
    return share, share - half, share + half


def main() -> None:
    """Play the chosen match and print the share, its interval and the decision times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("match", choices=("shap", "tsung", "table"))
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument(
        "--start", type=int, default=0, help="first deal (to split a run between processes)"
    )
    parser.add_argument("--budget", type=int, default=None, help="play-outs per decision")
    parser.add_argument(
        "--infer", type=int, default=INFER, help="fit opponent hands to their public moves (0-5)"
    )
    parser.add_argument(
        "--margin", type=float, default=None, help="standard errors to beat the expert's move"
    )
    parser.add_argument(
        "--peek",
        action="store_true",
        help="let the master see the other hands (the ceiling of search; never at a table)",
    )
    parser.add_argument(
        "--halving", type=int, choices=(0, 1), default=None, help="successive halving (1) or not"
    )
    parser.add_argument(
        "--particles", type=int, default=None, help="particles of infer 5's forward filter"
    )
    args = parser.parse_args()
    if args.particles is not None:
        master.FORWARD_PARTICLES = args.particles
    if args.halving is not None:
        master.HALVING = bool(args.halving)
    if args.margin is not None:
        master.MARGIN = args.margin
    level = PeekingMaster if args.peek else MasterPlayer
    ai_levels.AI_LEVELS["master"] = lambda: _timed(level(args.budget, args.infer))
    fishing_levels.FISHING_LEVELS["master"] = lambda: _timed(MasterFishingPlayer(args.budget))

    rules = {
        "shap": make_rules("kap-shap"),
        "tsung": make_rules("tsung-shap"),
        "table": make_rules("kap-tai-shap", 6),
    }[args.match]
    play: Callable[..., Any] = play_fishing if args.match == "tsung" else play_reference
    if args.peek:
        play = _play_peeking
    players = rules.players
    wins = 0.0
    games = 0
    began = time.perf_counter()
    # A first game compiles (or loads) the kernel outside the timing.
    play(rules, make_deal(rules, random.Random("warm-up")), ["master"] * players, random.Random(0))
    TIMES.clear()
    CPU.clear()
    for i in range(args.start, args.start + args.deals):
        deal = make_deal(rules, random.Random(f"master:{i}"))
        seats = (0, 1) if players == 2 else (i % players,)
        for seat in seats:
            levels = ["expert"] * players
            levels[seat] = "master"
            record = play(rules, deal, levels, random.Random(i))
            games += 1
            if record.winner is None:
                wins += 0.5 if players == 2 else 0.0
            elif record.winner == seat:
                wins += 1
    share, low, high = _interval(wins, games)
    print(
        f"{args.match}: {games} games, master share {share:.3f} (95 % {low:.3f}-{high:.3f}); "
        f"{len(TIMES)} decisions, wall {_spread(TIMES)}, processor {_spread(CPU)}; "
        f"{time.perf_counter() - began:.0f} s"
    )


def _spread(times: list[float]) -> str:
    ordered = sorted(times)
    mean = sum(ordered) / len(ordered)
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    return (
        f"mean {mean * 1000:.0f} ms, 99th pct {p99 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
