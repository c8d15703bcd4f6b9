"""The master's ``infer`` 5: a forward filter of each opponent's hidden tiles over the public
record (``bot.games.collecting.ai.kernel._forward_filter``).

Its replay of the game must be the engine's: given the opponent's true dealt tiles and draws
instead of random ones, and no tolerance for a decision the expert would not make, the one
particle must survive every decision of a game of experts, under every rule set, and end as
the opponent's true hidden tiles. A replay that got one piece of the public state wrong (the
live discards, the stall count, the empty wall, what a seat passed over) would make some
expert decide otherwise and kill it. Then: on random trajectories, the filter's weight sits
on hands that complete with the tiles the true hand waits for far more than chance.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

np = pytest.importorskip("numpy")

from bot.engine import RuleSet, apply, legal_actions, make_deal, make_rules, new_game, view  # noqa: E402
from bot.games.collecting.ai import kernel  # noqa: E402
from bot.games.collecting.ai.core import evaluator_for, pack_tiles, unpack  # noqa: E402
from bot.games.collecting.ai.knowledge import Seen, read_view  # noqa: E402
from bot.games.collecting.ai.levels import get_player  # noqa: E402
from bot.games.collecting.ai.master import public_record  # noqa: E402
from bot.games.collecting.engine.actions import Declare  # noqa: E402
from bot.games.collecting.engine.machine import GameState, Phase, View  # noqa: E402
from bot.games.dominoes.engine.actions import Draw  # noqa: E402
from tests.ai.test_master import REPLAY_RULES, kind_of  # noqa: E402


def _filter(
    rules: RuleSet, v: View, unknown: list[int], op: int, n: int, log_eps: float, exact: list[int]
) -> tuple[bool, object, object]:
    out = np.zeros((n, 21), np.int64)
    cumulative = np.zeros(n, np.float64)
    total, _ = kernel.kind_tables(rules)
    alive = kernel._forward_filter(
        kernel.ev_array(rules), kernel.rule_flags(rules), total, op, v.first_seat,
        np.array(public_record(v), np.int64).reshape(-1, 3),
        np.array(unknown, np.int64), log_eps, np.array([7], np.uint64), out, cumulative,
        np.array(exact, np.int64),
    )  # fmt: skip
    return alive, out, cumulative


@dataclass
class Decision:
    """A decision of a game of experts (not a declaration, not a compulsory draw)."""

    state: GameState
    view: View
    seen: Seen
    trajectory: list[list[int]]
    """Each seat's hidden tiles in the order they came so far: dealt, then drawn."""

    def hidden(self, op: int) -> list[int]:
        """Seat ``op``'s true hidden tiles: its hand less what this seat knows it took."""
        counts = unpack(pack_tiles(kind_of(p) for p in self.state.hands[op]))
        return [c - k for c, k in zip(counts, unpack(self.seen.known[op]), strict=True)]


def _decisions(rules: RuleSet, game: int) -> Iterator[Decision]:
    """Every decision of game ``game`` of experts, with the trajectories of the hidden tiles."""
    expert = get_player("expert")
    deal = make_deal(rules, random.Random(f"forward:{game}"))
    state: GameState = new_game(rules, [f"s{i}" for i in range(rules.players)], deal)
    trajectory = [[kind_of(p) for p in hand] for hand in state.hands]
    while state.result is None:
        seat = state.current
        v = view(state, seat)
        legal = legal_actions(state)
        if Declare() not in legal and v.phase is not Phase.DRAW:
            yield Decision(state, v, read_view(v, legal), [list(t) for t in trajectory])
        action = expert.choose(v, legal, random.Random(0))
        before = set(state.hands[seat])
        state, _ = apply(state, action)
        if action == Draw():
            (new,) = set(state.hands[seat]) - before
            trajectory[seat].append(kind_of(new))


@pytest.mark.parametrize(
    "rules", [*REPLAY_RULES, make_rules("kap-tai-shap", 6)], ids=lambda r: r.describe()
)
def test_the_true_trajectory_survives_every_decision(rules: RuleSet) -> None:
    checked = 0
    for game in range(6):
        for d in _decisions(rules, game):
            unknown = unpack(d.seen.unseen())
            for op in range(rules.players):
                if op == d.view.seat:
                    continue
                alive, out, _ = _filter(rules, d.view, unknown, op, 1, -np.inf, d.trajectory[op])
                assert alive, (game, d.view.seat, op, len(d.view.history))
                assert list(out[0]) == d.hidden(op)
                checked += 1
    assert checked > 40


def test_a_wrong_trajectory_dies() -> None:
    """The same check can fail: a trajectory whose first dealt tile is swapped for another
    dies (or ends as another hand), so the survival above is a real test of the replay."""
    rules = make_rules("kap-shap")
    told_apart = 0
    for d in _decisions(rules, 0):
        if d.view.seat == 0 and d.view.phase is Phase.DISCARD:
            unknown = unpack(d.seen.unseen())
            wrong = list(d.trajectory[1])
            wrong[0] = next(k for k in range(21) if unknown[k] and k not in wrong[:3])
            alive, out, _ = _filter(rules, d.view, unknown, 1, 1, -np.inf, wrong)
            told_apart += not alive or list(out[0]) != d.hidden(1)
    assert told_apart > 0


def test_the_filter_finds_the_tiles_the_opponent_waits_for() -> None:
    """On games of experts, when a seat must discard and its opponent is one tile short, the
    filter's weight on the kinds that would complete him is far above chance: the mean chance
    it gives those kinds at least triples that of the kinds that would not."""
    rules = make_rules("kap-shap")
    ev = evaluator_for(rules)
    waits_chance: list[float] = []
    other_chance: list[float] = []
    for game in range(12):
        for d in _decisions(rules, game):
            op = 1 - d.seen.seat
            missing, _, waits = ev.info(pack_tiles(kind_of(p) for p in d.state.hands[op]))
            if missing != 1 or d.view.phase is not Phase.DISCARD:
                continue
            alive, out, cumulative = _filter(
                rules, d.view, unpack(d.seen.unseen()), op, 512, -5.0, []
            )
            assert alive
            mass = np.diff(np.concatenate([[0.0], cumulative])) / cumulative[-1]
            known = unpack(d.seen.known[op])
            chance = [0.0] * 21
            for p in range(512):
                hand = pack_tiles(k for k in range(21) for _ in range(known[k] + out[p, k]))
                m, _, completing = ev.info(hand)
                if m == 1:
                    for k in completing:
                        chance[k] += float(mass[p])
            for k in range(21):
                (waits_chance if k in waits else other_chance).append(chance[k])
    assert len(waits_chance) > 20
    mean_waits = sum(waits_chance) / len(waits_chance)
    mean_other = sum(other_chance) / len(other_chance)
    assert mean_waits > 3 * mean_other, (mean_waits, mean_other)
