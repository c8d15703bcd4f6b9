"""What limits the master at Kap Shap Culin: three experiments behind docs/benchmarks.md.

* ``sweep``: a stronger policy to search over, by retuning the expert? The expert against
  itself with one of its six parameters changed (``POOL_OUTS``, ``DANGER`` and the four
  completion chances of ``bot.games.collecting.ai.expert``), on the fast path: each deal is played
  twice with
  the changed expert in each seat; a drawn game counts half.
* ``peek``: what the one-step levers are worth with perfect knowledge (benchmark only: these
  players see the opponent's true hand, which no player at a table can). ``safe``: the
  expert, except that it never discards a tile that completes the opponent's hand while another
  tile is left; ``deny``: the expert, except that it takes a lone face-up tile that would
  complete the opponent's hand on his next turn.
* ``risk``: how well the master's inferences from public moves predict which tiles complete
  the opponent's hand when a player must discard: ``infer`` 4's particles
  (``bot.games.collecting.ai.kernel._particles``) and ``infer`` 5's forward filter
  (``bot.games.collecting.ai.kernel._forward_filter``, at each ``--particles`` count), beside the
  expert's own
  estimate (``completion_risk``): the area under the ROC curve (0.5 is no better than chance)
  and, per band of estimated chance, how many kinds and how often they complete; then the
  expert playing with ``infer`` 4's chances as its completion risk (``--danger`` outs per unit
  of chance; 0 skips the match).

Deals are ``make_deal(rules, random.Random(f"limits:{i}"))``: the figures are reproducible.

    .venv/bin/python benchmarks/bench_master_limits.py sweep --deals 10000
    .venv/bin/python benchmarks/bench_master_limits.py peek --deals 2000
    .venv/bin/python benchmarks/bench_master_limits.py risk --deals 200 --danger 20
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import bot.games.collecting.ai.expert as expert
import bot.games.collecting.sim.fast as fast
from bot.engine import KINDS, apply, legal_actions, make_deal, make_rules, new_game, view
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET
from bot.games.collecting.ai import kernel
from bot.games.collecting.ai.core import (
    FIELD_BITS,
    FIELD_MASK,
    KIND_COUNT,
    UNIT,
    evaluator_for,
    pack_tiles,
    unpack,
)
from bot.games.collecting.ai.knowledge import Seen, read_view
from bot.games.collecting.ai.levels import get_player
from bot.games.collecting.ai.master import FILTER_WEIGHTS, public_record
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take
from bot.games.collecting.engine.machine import GameState, Phase, View

RULES = make_rules("kap-shap")
GRID: dict[str, tuple[float, ...]] = {
    "POOL_OUTS": (2, 4, 8, 12),
    "DANGER": (0, 5, 20, 40),
    "_P_KIND_PASSED": (0.0, 0.1),
    "_P_RESIDUE_PASSED": (0.0, 0.2),
    "_P_RESIDUE_DISCARDED": (0.0, 0.2),
    "_P_OTHER": (0.05, 0.1, 0.4),
}
"""Values tried for each parameter (the others keep the expert's)."""


def _deal(i: int) -> Any:
    return make_deal(RULES, random.Random(f"limits:{i}"))


def _interval(wins: float, games: int) -> str:
    share = wins / games
    half = 1.96 * math.sqrt(max(share * (1 - share), 1e-12) / games)
    return f"{100 * share:.1f} % ({100 * (share - half):.1f}–{100 * (share + half):.1f})"


# -- sweep -------------------------------------------------------------------------------------


@contextmanager
def _changed(name: str, value: float, seat: int) -> Iterator[None]:
    """The fast path's expert with ``name`` set to ``value`` at ``seat`` only."""
    take, discard = getattr(fast, "expert_take"), getattr(fast, "expert_discard")  # noqa: B009
    stock = getattr(expert, name)

    def seated(decide: Callable[[Seen], int]) -> Callable[[Seen], int]:
        def decision(seen: Seen) -> int:
            setattr(expert, name, value if seen.seat == seat else stock)
            try:
                return decide(seen)
            finally:
                setattr(expert, name, stock)

        return decision

    # play_fast looks its expert up in its own module at each decision.
    setattr(fast, "expert_take", seated(take))  # noqa: B010
    setattr(fast, "expert_discard", seated(discard))  # noqa: B010
    try:
        yield
    finally:
        setattr(fast, "expert_take", take)  # noqa: B010
        setattr(fast, "expert_discard", discard)  # noqa: B010


def sweep(deals: int) -> None:
    """Print the changed expert's share against the stock one, per parameter value."""
    print(f"Kap Shap Culin, changed expert vs expert, {deals} deals x 2 seats")
    print("| parameter | expert's value | tried | share of the changed expert (95 %) |")
    print("|---|---:|---:|---|")
    for name, values in GRID.items():
        for value in values:
            wins = 0.0
            for at in range(2):
                with _changed(name, value, at):
                    for i in range(deals):
                        record = fast.play_fast(RULES, _deal(i), ["expert"] * 2, random.Random(i))
                        if record.winner == at:
                            wins += 1.0
                        elif record.winner is None:
                            wins += 0.5
            stock = getattr(expert, name)
            share = _interval(wins, 2 * deals)
            print(f"| `{name}` | {stock:g} | {value:g} | {share} |", flush=True)


# -- peek --------------------------------------------------------------------------------------


def _counts(state: GameState, seat: int) -> int:
    return pack_tiles(PIECE_KINDS[p % PIECES_PER_SET] for p in state.hands[seat])


def _kinds(counts: int) -> int:
    """The kinds present in packed ``counts``, as a bit set."""
    return sum(1 << k for k in range(KIND_COUNT) if (counts >> (FIELD_BITS * k)) & FIELD_MASK)


def _waits(hand: int) -> int:
    """The kinds that complete ``hand`` (between turns) as a bit set; 0 if it is further."""
    missing, _, improvers = evaluator_for(RULES).info(hand)
    return sum(1 << k for k in improvers) if missing == 1 else 0


def _safe_discard(seen: Seen, waits: int) -> int:
    """The expert's discard among the kinds that do not complete the opponent (``waits``)."""
    ev = evaluator_for(RULES)
    risk = expert.completion_risk(seen, ev)
    pool = seen.faceup
    unseen = seen.unseen()
    best: tuple[int, float] | None = None
    best_kind = -1
    for k in range(KIND_COUNT - 1, -1, -1):
        if k == seen.just_taken or not (seen.hand >> (FIELD_BITS * k)) & FIELD_MASK:
            continue
        if waits >> k & 1:
            continue
        missing, outs = expert._hand_score(ev, seen.hand - UNIT[k], unseen, pool)
        score = (missing, expert.DANGER * risk[k] - outs)
        if best is None or score < best:
            best, best_kind = score, k
    return best_kind


def _peeking(lever: str, state: GameState, v: View, legal: list[Action]) -> Action | None:
    """The lever's move where it differs from the expert's, else None."""
    seen = read_view(v, legal)
    waits = _waits(_counts(state, 1 - v.seat)) if v.seat is not None else 0
    if not waits:
        return None
    if lever == "safe" and v.phase is Phase.DISCARD and Declare() not in legal:
        kind = expert.expert_discard(seen)
        if waits >> kind & 1:
            safe = _safe_discard(seen, waits)
            if safe >= 0:
                return Discard(KINDS[safe])
    if lever == "deny" and v.phase is Phase.TAKE_OR_DRAW:
        if _waits(seen.hand) & _kinds(seen.takeable):
            return None  # the expert wins by a take: no denial needed
        for k in range(KIND_COUNT):
            lone = (seen.faceup >> (FIELD_BITS * k)) & FIELD_MASK == 1
            if waits >> k & 1 and lone and Take(KINDS[k]) in legal:
                return Take(KINDS[k])
    return None


def _play(deal: Any, at: int, rng: random.Random, move: Any) -> float:
    """One game, the changed player at ``at``: 1 for its win, 0.5 for a draw."""
    state = new_game(RULES, ["a", "b"], deal)
    player = get_player("expert")
    while state.result is None:
        seat = state.current
        legal = legal_actions(state)
        v = view(state, seat)
        action = move(state, v, legal, rng) if seat == at else None
        if action is None:
            action = player.choose(v, legal, rng)
        state, _ = apply(state, action)
    winner = state.result.winner
    return 1.0 if winner == at else 0.5 if winner is None else 0.0


def peek(deals: int) -> None:
    """Print each peeking lever's share against the expert."""
    print(f"Kap Shap Culin, peeking expert vs expert, {deals} deals x 2 seats")
    for lever in ("safe", "deny"):

        def move(state: GameState, v: View, legal: list[Action], rng: random.Random) -> Any:
            return _peeking(lever, state, v, legal)  # noqa: B023 (called in this iteration)

        wins = sum(
            _play(_deal(i), at, random.Random(2 * i + at), move)
            for i in range(deals)
            for at in range(2)
        )
        print(f"{lever}: {_interval(wins, 2 * deals)}", flush=True)


# -- risk --------------------------------------------------------------------------------------


def _events(v: View, seat: int) -> tuple[Any, int]:
    """``seat``'s public moves as kernel events (code, kind), and how many."""
    rows = [(code, kind) for s, code, kind in public_record(v) if s == seat]
    return np.array(rows, np.int64).reshape(len(rows), 2), len(rows)


def particle_risk(v: View, seen: Seen, key: int, n: int, forward: bool) -> list[float]:
    """Per kind, the weight of the particles of the opponent's hand that it completes: the
    forward filter's (``infer`` 5) or else ``infer`` 4's."""
    s = 1 - seen.seat
    ev = kernel.ev_array(RULES)
    unknown = np.array(unpack(seen.unseen()), np.int64)
    known = np.array(unpack(seen.known[s]), np.int64)
    out = np.zeros((n, KIND_COUNT), np.int64)
    cumulative = np.zeros(n, np.float64)
    state = np.array([key], np.uint64)
    total, _ = kernel.kind_tables(RULES)
    alive = forward and kernel._forward_filter(
        ev, kernel.rule_flags(RULES), total, s, v.first_seat,
        np.array(public_record(v), np.int64).reshape(-1, 3), unknown,
        kernel.FORWARD_LOG_EPS, state, out, cumulative, np.zeros(0, np.int64),
    )  # fmt: skip
    if not alive:
        pool = np.zeros(KIND_COUNT, np.int64)
        for face_up in v.pool:
            if not face_up.dead:
                pool[face_up.tile.index] += 1
        events, n_events = _events(v, s)
        weights = np.zeros(kernel.N_FEATURES + kernel.N_GAPS, np.float64)
        weights[: len(FILTER_WEIGHTS)] = FILTER_WEIGHTS
        tiles = np.array([k for k in range(KIND_COUNT) for _ in range(unknown[k])], np.int64)
        kernel._particles(
            ev, state, tiles, v.hand_sizes[s] - int(known.sum()), known,
            np.array(unpack(seen.passed[s]), np.int64), np.array(unpack(seen.recent[s]), np.int64),
            np.array(unpack(seen.discarded[s]), np.int64), pool, weights, events, n_events, out,
            cumulative,
        )  # fmt: skip
    mass = np.diff(np.concatenate([[0.0], cumulative]))
    risk = [0.0] * KIND_COUNT
    for p in range(n):
        held = [int(known[k] + out[p, k]) for k in range(KIND_COUNT)]
        waits = _waits(pack_tiles(k for k in range(KIND_COUNT) for _ in range(held[k])))
        for k in range(KIND_COUNT):
            if waits >> k & 1:
                risk[k] += float(mass[p] / cumulative[-1])
    return risk


def _auc(scores: list[float], truth: list[bool]) -> float:
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(order):  # tied scores share their mean rank
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for m in range(i, j + 1):
            ranks[order[m]] = (i + j) / 2
        i = j + 1
    positives = [r for r, t in zip(ranks, truth, strict=True) if t]
    negatives = len(scores) - len(positives)
    return (sum(positives) / len(positives) - (len(positives) - 1) / 2) / negatives


def risk(deals: int, danger: float, sizes: list[int]) -> None:
    """Print how well each estimate predicts the opponent's waits, then the expert playing
    with infer 4's chances as its completion risk."""
    names = ["expert's completion_risk", "infer 4 (512 particles)"]
    names += [f"forward filter ({n} particles)" for n in sizes]
    rows: list[tuple[list[float], bool]] = []
    games = deals // 4 or 1
    for i in range(games):
        state = new_game(RULES, ["a", "b"], _deal(i))
        player = get_player("expert")
        rng = random.Random(i)
        while state.result is None:
            seat = state.current
            legal = legal_actions(state)
            v = view(state, seat)
            if v.phase is Phase.DISCARD and Declare() not in legal:
                seen = read_view(v, legal)
                waits = _waits(_counts(state, 1 - seat))
                key = 1000 * i + len(v.history) + 1
                chances = [expert.completion_risk(seen, evaluator_for(RULES))]
                chances.append(particle_risk(v, seen, key, 512, False))
                chances += [particle_risk(v, seen, key, n, True) for n in sizes]
                for k in range(KIND_COUNT):
                    if (seen.hand >> (FIELD_BITS * k)) & FIELD_MASK:
                        rows.append(([c[k] for c in chances], bool(waits >> k & 1)))
            state, _ = apply(state, player.choose(v, legal, rng))
    truth = [t for _, t in rows]
    print(f"Kinds in hand at the discards of {games} games of experts: {len(rows)}, ", end="")
    print(f"{sum(truth)} of which complete the opponent ({100 * sum(truth) / len(rows):.1f} %)")
    print("| estimate | area under the ROC curve | chance < 5 % | 5-15 % | 15-30 % | >= 30 % |")
    print("|---|---:|---:|---:|---:|---:|")
    for e, name in enumerate(names):
        cells = []
        for low, high in ((0, 0.05), (0.05, 0.15), (0.15, 0.3), (0.3, 1.01)):
            band = [t for c, t in rows if low <= c[e] < high]
            rate = f"{100 * sum(band) / len(band):.1f} %" if band else "-"
            cells.append(f"{len(band)}: {rate}")
        area = _auc([c[e] for c, _ in rows], truth)
        print(f"| {name} | {area:.3f} | " + " | ".join(cells) + " |")

    def move(state: GameState, v: View, legal: list[Action], rng: random.Random) -> Any:
        if v.phase is not Phase.DISCARD or Declare() in legal:
            return None
        seen = read_view(v, legal)
        chances = particle_risk(v, seen, rng.getrandbits(63), 512, False)
        scaled = [danger / expert.DANGER * c for c in chances]
        ev = evaluator_for(RULES)
        pool = seen.faceup
        kind = expert._best_discard(ev, seen.hand, seen.just_taken, seen.unseen(), pool, scaled)
        return Discard(KINDS[kind[1]])

    if danger <= 0:
        return
    wins = sum(
        _play(_deal(i), at, random.Random(2 * i + at), move)
        for i in range(deals)
        for at in range(2)
    )
    share = _interval(wins, 2 * deals)
    print(f"expert with infer 4's chances as its risk (danger {danger:g}) vs expert: {share}")


def main() -> None:
    """Run the chosen experiment."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment", choices=("sweep", "peek", "risk"))
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument(
        "--danger", type=float, default=20.0, help="risk: outs per unit of chance (0: no match)"
    )
    parser.add_argument(
        "--particles", type=int, nargs="*", default=[2048, 8192], help="risk: forward filters"
    )
    args = parser.parse_args()
    if args.experiment == "sweep":
        sweep(args.deals)
    elif args.experiment == "peek":
        peek(args.deals)
    else:
        risk(args.deals, args.danger, args.particles)


if __name__ == "__main__":
    main()
