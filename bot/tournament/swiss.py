"""Swiss pairing: score groups, no rematch while avoidable, one bye per player.

A round is paired as a **maximum-weight matching** (networkx's blossom algorithm) over the
allowed pairs, so it never fails late the way a greedy pass can. The weight of a pair is a big
constant minus a lexicographic cost:

1. rematches (only used when no rematch-free pairing exists at all),
2. the squared score difference of the pair (score groups first: a player floats to the next
   group only when his own group cannot be paired),
3. inside a score group, the Dutch rule: the top half meets the bottom half (1 v m+1, 2 v m+2…);
   across groups, the bottom of the upper group meets the top of the lower one.

Blossom is cubic, so large events are split into **segments**: consecutive even runs of the
pairing order (score groups, each interleaved top half / bottom half) of at least 16 players,
cut at score-group boundaries where possible. Each segment is matched exactly; a segment without
a rematch-free perfect matching is merged with its neighbour and matched again. Merging always
ends: a run of ``2·d + 2`` players, where ``d`` is the most opponents anyone has met, has one by
Dirac's theorem (everyone may meet at least half of the others), and merging everything is the
whole round in one graph. Small events (up to 32 players) are always one graph, which is what
the brute-force tests check.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from bot.tournament.model import PlayerId, TournamentError

__all__ = ["SwissPairing", "pair_swiss", "pairing_order"]

_MIN_SEGMENT = 16


@dataclass(frozen=True)
class SwissPairing:
    """A round's pairs (higher-ranked player first, best pair first) and the bye, if any."""

    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    bye: PlayerId | None
    rematches: int


def pair_swiss(
    ranked: Sequence[PlayerId],
    scores: Mapping[PlayerId, int],
    played: Mapping[PlayerId, Iterable[PlayerId]],
    had_bye: Iterable[PlayerId] = (),
) -> SwissPairing:
    """Pair one Swiss round.

    ``ranked`` is the active players in standings order (best first); ``scores`` their scores
    (any integer scale, e.g. half-points); ``played`` the opponents each has met; ``had_bye``
    those who already had a bye. With an odd number of players the bye goes to the lowest-ranked
    player without one for whom the others can still be paired without a rematch (if nobody
    can, to the lowest-ranked without one, and rematches are kept to the fewest)."""
    players = list(ranked)
    if len(players) < 2:
        raise TournamentError("A Swiss round needs at least two players.")
    if len(set(players)) != len(players):
        raise TournamentError("A player is listed twice.")
    met = {p: frozenset(played.get(p, ())) for p in players}
    if len(players) % 2 == 0:
        pairs = _pair_even(players, scores, met, allow_rematch=False)
        if pairs is not None:
            return SwissPairing(pairs, None, 0)
        pairs = _pair_even(players, scores, met, allow_rematch=True)
        assert pairs is not None  # the complete graph on an even number always has one
        return SwissPairing(pairs, None, _count_rematches(pairs, met))
    byes = set(had_bye)
    candidates = [p for p in reversed(players) if p not in byes] or list(reversed(players))
    for candidate in candidates:
        rest = [p for p in players if p != candidate]
        pairs = _pair_even(rest, scores, met, allow_rematch=False)
        if pairs is not None:
            return SwissPairing(pairs, candidate, 0)
    rest = [p for p in players if p != candidates[0]]
    pairs = _pair_even(rest, scores, met, allow_rematch=True)
    assert pairs is not None
    return SwissPairing(pairs, candidates[0], _count_rematches(pairs, met))


def _count_rematches(
    pairs: Iterable[tuple[PlayerId, PlayerId]], met: Mapping[PlayerId, frozenset[PlayerId]]
) -> int:
    return sum(1 for a, b in pairs if b in met[a] or a in met[b])


def _score_groups(
    players: Sequence[PlayerId], scores: Mapping[PlayerId, int]
) -> list[list[PlayerId]]:
    """Score groups, best first, each in standings order (``players`` is already ranked)."""
    by_score: dict[int, list[PlayerId]] = {}
    for p in players:
        by_score.setdefault(scores.get(p, 0), []).append(p)
    return [by_score[s] for s in sorted(by_score, reverse=True)]


def pairing_order(
    players: Sequence[PlayerId], scores: Mapping[PlayerId, int]
) -> list[list[PlayerId]]:
    """Score groups, best first, each interleaved top half / bottom half (1, m+1, 2, m+2, …) so
    that a player's Dutch partner stands next to him."""
    out = []
    for group in _score_groups(players, scores):
        half = (len(group) + 1) // 2
        top, bottom = group[:half], group[half:]
        mixed: list[PlayerId] = []
        for i, p in enumerate(top):
            mixed.append(p)
            if i < len(bottom):
                mixed.append(bottom[i])
        out.append(mixed)
    return out


def _segments(groups: Sequence[Sequence[PlayerId]], min_size: int) -> list[list[PlayerId]]:
    """Cut the pairing order into even runs of at least ``min_size`` players, at score-group
    boundaries where possible and inside a large group only where enough of it remains."""
    segments: list[list[PlayerId]] = []
    current: list[PlayerId] = []
    for group in groups:
        for i, p in enumerate(group):
            current.append(p)
            left_in_group = len(group) - i - 1
            if len(current) >= min_size and len(current) % 2 == 0 and left_in_group >= min_size:
                segments.append(current)
                current = []
        if len(current) >= min_size and len(current) % 2 == 0:
            segments.append(current)
            current = []
    if current:
        if segments and len(current) < min_size:
            segments[-1].extend(current)
        else:
            segments.append(current)
    return segments


def _pair_even(
    players: Sequence[PlayerId],
    scores: Mapping[PlayerId, int],
    met: Mapping[PlayerId, frozenset[PlayerId]],
    *,
    allow_rematch: bool,
) -> tuple[tuple[PlayerId, PlayerId], ...] | None:
    """A perfect matching of an even number of players, or None when none is rematch-free
    (and ``allow_rematch`` is false)."""
    groups = _score_groups(players, scores)
    position: dict[PlayerId, tuple[int, int, int]] = {}  # player -> (group, index, group size)
    for g, group in enumerate(groups):
        for i, p in enumerate(group):
            position[p] = (g, i, len(group))
    rank = {p: i for i, p in enumerate(players)}
    order = pairing_order(players, scores)
    if allow_rematch or len(players) <= 2 * _MIN_SEGMENT:
        pending = [[p for group in order for p in group]]
    else:
        pending = _segments(order, _MIN_SEGMENT)
    # Match each segment; one without a rematch-free perfect matching is merged with its
    # neighbour and matched again (a segment of 2d + 2 players always has one, so merging
    # stops there at the latest; merging everything is the whole round in one graph).
    done: list[list[tuple[PlayerId, PlayerId]]] = []
    k = 0
    while k < len(pending):
        matched = _match(pending[k], scores, met, position, allow_rematch)
        if matched is not None:
            done.append(matched)
            k += 1
        elif len(pending) == 1:
            return None
        elif k + 1 < len(pending):
            pending[k : k + 2] = [pending[k] + pending[k + 1]]
        else:
            pending[k - 1 : k + 1] = [pending[k - 1] + pending[k]]
            done.pop()
            k -= 1
    pairs = [pair for matched in done for pair in matched]
    ordered = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in pairs]
    ordered.sort(key=lambda ab: rank[ab[0]])
    return tuple(ordered)


def _match(
    segment: Sequence[PlayerId],
    scores: Mapping[PlayerId, int],
    met: Mapping[PlayerId, frozenset[PlayerId]],
    position: Mapping[PlayerId, tuple[int, int, int]],
    allow_rematch: bool,
) -> list[tuple[PlayerId, PlayerId]] | None:
    n = len(segment)
    parts: list[tuple[PlayerId, PlayerId, bool, int, int]] = []
    for i, a in enumerate(segment):
        for b in segment[i + 1 :]:
            rematch = b in met[a] or a in met[b]
            if rematch and not allow_rematch:
                continue
            diff = scores.get(a, 0) - scores.get(b, 0)
            parts.append((a, b, rematch, diff * diff, _rank_cost(position[a], position[b])))
    if not parts:
        return None
    # Lexicographic weights: all rank costs together < one unit of score cost, all score costs
    # together < one rematch.
    pairs = n // 2
    score_unit = pairs * max(r for *_, r in parts) + 1
    rematch_unit = score_unit * (pairs * max(s for *_, s, _ in parts) + 1) + pairs * score_unit
    costs = [(a, b, rematch_unit * rematch + score_unit * sq + r) for a, b, rematch, sq, r in parts]
    graph: nx.Graph[PlayerId] = nx.Graph()
    graph.add_nodes_from(segment)
    top = max(c for _, _, c in costs) + 1
    graph.add_weighted_edges_from((a, b, top - c) for a, b, c in costs)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        return None
    return [(a, b) for a, b in matching]


def _rank_cost(pa: tuple[int, int, int], pb: tuple[int, int, int]) -> int:
    """The rank part of a pair's cost, from (score group, index in it, group size)."""
    ga, ia, size = pa
    gb, ib, _ = pb
    if ga == gb:
        # Dutch: the top half meets the bottom half.
        return abs(abs(ia - ib) - size // 2)
    # The upper player should come from the bottom of his group, the lower from the top.
    (_, iu, su), (_, il, _) = (pa, pb) if ga < gb else (pb, pa)
    return (su - 1 - iu) + il
