"""Table rounds (Kap Tai Shap): table sizes and who sits where.

Tables of one round differ in size by at most one and are never smaller than the event's
minimum (a table may exceed the preferred size when that is the only way to respect the
minimum). The first round is seated by seed in snake order, so every table gets a fair mix;
later rounds seat by standings — the leaders together, the next ones at the next table — and
then a local search swaps players between nearby tables while that lowers

    cost = REPEAT · (pairs of players who have already shared a table, counted per meeting)
         + (how many tables each player sits away from his standings table)

so players meet new opponents without drifting far from their place in the standings.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from bot.tournament.model import PlayerId, TournamentError

__all__ = ["REPEAT_WEIGHT", "repeat_pairs", "seat_by_seed", "seat_by_standings", "table_sizes"]

REPEAT_WEIGHT = 3  # one repeated pair is worth moving players three tables away in all
_NEAR_TABLES = 3  # swaps are tried with tables up to this many away
_MAX_PASSES = 30


def table_sizes(players: int, size: int, minimum: int) -> list[int]:
    """Table sizes for ``players`` (largest first): as few tables as the preferred ``size``
    allows, sizes within one of each other, none below ``minimum``. Fewer players than the
    minimum sit at a single table (at least two)."""
    if players < 2:
        raise TournamentError("A table needs at least two players.")
    tables = math.ceil(players / size)
    if players // tables < minimum:
        tables = max(1, players // minimum)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def seat_by_seed(seeded: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Seat players (seed order) in snake order: table 1 gets seeds 1, 2t, 2t+1, …"""
    if sum(sizes) != len(seeded):
        raise TournamentError("The tables do not hold exactly the players.")
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    forward = True
    while i < len(seeded):
        for t in order if forward else reversed(order):
            if len(tables[t]) < sizes[t] and i < len(seeded):
                tables[t].append(seeded[i])
                i += 1
        forward = not forward
    return tables


def repeat_pairs(
    tables: Sequence[Sequence[PlayerId]], met: Mapping[PlayerId, Mapping[PlayerId, int]]
) -> int:
    """Pairs at the same table who have met before, each counted once per earlier meeting."""
    total = 0
    for table in tables:
        for i, p in enumerate(table):
            seen = met.get(p, {})
            total += sum(seen.get(q, 0) for q in table[i + 1 :])
    return total


def seat_by_standings(
    ranked: Sequence[PlayerId],
    sizes: Sequence[int],
    met: Mapping[PlayerId, Mapping[PlayerId, int]],
) -> list[list[PlayerId]]:
    """Seat players (standings order) by standings, then improve by local search over swaps.

    ``met[p][q]`` is how many tables p and q have shared so far."""
    if sum(sizes) != len(ranked):
        raise TournamentError("The tables do not hold exactly the players.")
    tables: list[list[PlayerId]] = []
    start = 0
    for s in sizes:
        tables.append(list(ranked[start : start + s]))
        start += s
    home = {p: t for t, table in enumerate(tables) for p in table}
    where = dict(home)
    empty: dict[PlayerId, int] = {}

    def counts(p: PlayerId) -> dict[int, int]:
        """How many earlier meetings p has with the players at each table."""
        out: dict[int, int] = {}
        for q, n in met.get(p, empty).items():
            t = where.get(q)
            if t is not None:
                out[t] = out.get(t, 0) + n
        return out

    for _ in range(_MAX_PASSES):
        improved = False
        for p in ranked:
            cp = counts(p)
            a = where[p]
            if not cp.get(a):
                continue  # p has no repeat at his table: nothing to gain from moving him
            seen_p = met.get(p, empty)
            best: tuple[int, PlayerId] | None = None
            for b in range(max(0, a - _NEAR_TABLES), min(len(tables), a + _NEAR_TABLES + 1)):
                if b == a:
                    continue
                for q in tables[b]:
                    cq = counts(q)
                    pq = seen_p.get(q, 0)
                    repeat = (cp.get(b, 0) - pq) - cp[a] + (cq.get(a, 0) - pq) - cq.get(b, 0)
                    moved = (
                        abs(b - home[p]) + abs(a - home[q]) - abs(a - home[p]) - abs(b - home[q])
                    )
                    delta = REPEAT_WEIGHT * repeat + moved
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, q)
            if best is not None:
                q = best[1]
                b = where[q]
                tables[a][tables[a].index(p)] = q
                tables[b][tables[b].index(q)] = p
                where[p], where[q] = b, a
                improved = True
        if not improved:
            break
    return tables
