"""The master's ``infer`` 4: a weighted particle set of each opponent's hidden tiles, judged by
the opponent's whole public history (every discard replayed on trajectories consistent with
every move). Only public moves enter it (``tests/ai/test_master.py`` checks it never peeks);
here: on games of experts the particle mass sits on hands far closer to the true one than
uniform draws are, and the true hand outweighs uniform draws."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from bot.engine import Offer, apply, legal_actions, make_deal, make_rules, new_game, view  # noqa: E402
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET  # noqa: E402
from bot.games.collecting.ai import kernel  # noqa: E402
from bot.games.collecting.ai.core import pack_tiles, unpack  # noqa: E402
from bot.games.collecting.ai.knowledge import read_view  # noqa: E402
from bot.games.collecting.ai.levels import get_player  # noqa: E402
from bot.games.collecting.ai.master import FILTER_WEIGHTS  # noqa: E402
from bot.games.collecting.engine.actions import Declare  # noqa: E402
from bot.games.collecting.engine.machine import Phase  # noqa: E402

_CODES = {"discard": 0, "draw": 1, "take": 2}


def _weights() -> object:
    return np.array(FILTER_WEIGHTS, dtype=np.float64)


def test_the_history_gaps_judge_earlier_discards() -> None:
    """Without draws the trajectory is exact: before its earlier discard ``d`` the seat held
    its hand now plus its latest discard plus ``d``; the gap is how many more tiles are
    missing than after the expert's best discard from that hand."""
    rules = make_rules("kap-shap")
    ev = kernel.ev_array(rules)
    total, _ = kernel.kind_tables(rules)
    state = np.array([3], dtype=np.uint64)
    work = np.zeros(21, np.int64)
    out = np.zeros(kernel.N_GAPS, np.float64)
    rng = random.Random(12)
    wrong = 0
    for _ in range(200):
        pool = [k for k in range(21) for _ in range(int(total[k]))]
        tiles = rng.sample(pool, rules.hand_size + 1)
        earlier, latest, kept = tiles[0], tiles[1], tiles[2:]
        hand = np.zeros(21, np.int64)
        for k in kept:
            hand[k] += 1
        before_call = hand.copy()
        events = np.array([[0, earlier], [0, latest]], np.int64)
        kernel._history_gaps(ev, state, hand, events, 2, work, 3, out)
        assert (hand == before_call).all()
        before = hand.copy()
        before[latest] += 1
        before[earlier] += 1
        before[earlier] -= 1
        after = kernel._info(ev, before)[0]
        before[earlier] += 1
        fewest = after
        for k in range(21):
            if before[k] and k != earlier:
                before[k] -= 1
                fewest = min(fewest, kernel._info(ev, before)[0])
                before[k] += 1
        assert out[0] == min(2, after - fewest)
        wrong += out[0] > 0
    assert 0 < wrong < 200  # both cases occur


def _decisions(games: int) -> list[tuple[object, ...]]:
    """Per decision of seat 0 in games of experts: the public inputs of a particle set of
    seat 1's hidden tiles, and seat 1's true hidden tiles."""
    rules = make_rules("kap-shap")
    expert = get_player("expert")
    out: list[tuple[object, ...]] = []
    for game in range(games):
        state = new_game(rules, ["a", "b"], make_deal(rules, random.Random(f"pf:{game}")))
        while state.result is None:
            seat = state.current
            legal = legal_actions(state)
            v = view(state, seat)
            if seat == 0 and Declare() not in legal and v.phase is not Phase.DRAW:
                seen = read_view(v, legal)
                known = np.array(unpack(seen.known[1]), np.int64)
                true = np.array(
                    unpack(pack_tiles(PIECE_KINDS[p % PIECES_PER_SET] for p in state.hands[1])),
                    np.int64,
                )
                live = np.zeros(21, np.int64)
                if rules.offer is Offer.ANY:
                    for p in v.pool:
                        if not p.dead:
                            live[p.tile.index] += 1
                moves = [
                    (_CODES[m.verb], m.tile.index if m.tile else -1)
                    for m in v.history
                    if m.seat == 1 and m.verb in _CODES
                ]
                unseen = unpack(seen.unseen())
                out.append(
                    (
                        np.array([k for k in range(21) for _ in range(unseen[k])], np.int64),
                        known,
                        true - known,
                        np.array(unpack(seen.passed[1]), np.int64),
                        np.array(unpack(seen.recent[1]), np.int64),
                        np.array(unpack(seen.discarded[1]), np.int64),
                        live,
                        np.array(moves or [(0, 0)], np.int64).reshape(-1, 2),
                        len(moves),
                    )
                )
            state, _ = apply(state, expert.choose(v, legal, random.Random(0)))
    return out


def test_the_particle_mass_sits_near_the_true_hand() -> None:
    """On games of experts, the particles' weights put their mass on hands sharing more tiles
    with the true hidden hand than uniform draws do, and the true hand itself, among as many
    uniform draws, gets several times the uniform share of the weight."""
    rules = make_rules("kap-shap")
    ev = kernel.ev_array(rules)
    weights = _weights()
    rng = random.Random(4)
    state = np.array([rng.getrandbits(64)], dtype=np.uint64)
    work = np.zeros(21, np.int64)
    features = np.zeros(kernel.N_FEATURES + kernel.N_GAPS, np.float64)
    gaps = np.zeros(kernel.N_GAPS, np.float64)
    weighted = uniform = 0.0
    true_share = 0.0
    decisions = _decisions(6)
    assert len(decisions) > 10
    n = 64
    for tiles, known, hidden, passed, recent, discarded, pool, events, n_events in decisions:
        need = int(hidden.sum())
        if need == 0:
            continue
        particles = np.zeros((n, 21), np.int64)
        cumulative = np.zeros(n, np.float64)
        kernel._particles(
            ev, state, tiles.copy(), need, known, passed, recent, discarded, pool, weights,
            events, n_events, particles, cumulative,
        )  # fmt: skip
        mass = np.diff(np.concatenate([[0.0], cumulative]))
        mass /= mass.sum()
        common = np.minimum(particles, hidden).sum(axis=1)
        weighted += float(mass @ common)
        uniform += float(common.mean())
        # The true hand's weight among itself and the particles (uniform draws).
        thrown = int(recent.argmax()) if recent.sum() == 1 else -1
        logits = []
        for row in [hidden, *particles]:
            base = known + row
            logit = kernel._particle_logit(
                ev, state, base, thrown, passed, discarded, pool, weights, events, n_events,
                work, features, gaps,
            )  # fmt: skip
            logits.append(logit)
        z = np.array(logits)
        p = np.exp(z - z.max())
        true_share += float(p[0] / p.sum())
    count = len(decisions)
    assert weighted > uniform + 0.1 * count  # measured: about 0.2 tiles more in common
    assert true_share / count > 3.0 / (n + 1)
