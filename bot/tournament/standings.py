"""Standings and tie-breaks.

Two-player formats (Swiss, round robin, and the Swiss part before a cut): match points (a win 1,
a drawn match ½, a loss 0; a Swiss bye counts as a win, a round-robin rest as nothing), then

1. **Median-Buchholz**: the opponents' scores added up, without the best and the worst of them
   (when there are at least three),
2. **Buchholz**: the opponents' scores added up,
3. **head-to-head**: among the players still level, the points they took from each other,
4. **games won** over all matches,
5. **seed**.

**Late entrants** (``late_until``, issue 23): each round a player missed because he joined after
it was paired scores 0 for him (lichess Swiss's rule: an absent round scores nothing; it is not
a loss, and he has had no bye), and counts as a draw (½) in his opponents' Buchholz and
Median-Buchholz (FIDE's rule for an opponent's unplayed rounds), so that meeting a strong late
joiner is not worth less than meeting an equally strong player who was there from round 1.

Table rounds (Kap Tai Shap): points (each game won at a table of s players is worth s − 1, one
per opponent beaten), then game wins, then the opponents' average points (every table-mate of
every round, counted once per table), then seed.

Scores are kept in half-points (integers) so they are exact; :func:`format_score` shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.tournament.model import How, Match, PlayerId

__all__ = [
    "PairStanding",
    "TableStanding",
    "format_score",
    "pair_standings",
    "table_points",
    "table_standings",
]


def format_score(half_points: int) -> str:
    """Half-points as a score: 5 -> ``2½``, 4 -> ``2``, 1 -> ``½``."""
    whole, half = divmod(half_points, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


@dataclass(frozen=True)
class PairStanding:
    """One line of a two-player standings table. Scores in half-points."""

    rank: int
    player: PlayerId
    seed: int
    score: int
    wins: int
    draws: int
    losses: int
    byes: int
    median_buchholz: int
    buchholz: int
    head_to_head: int
    games_won: int
    opponents: tuple[PlayerId, ...]
    missed: int = 0  # rounds missed by joining late (scored 0)


def pair_standings(
    seeds: Sequence[PlayerId],
    matches: Iterable[Match],
    *,
    bye_scores: bool = True,
    missed: Mapping[PlayerId, int] | None = None,
) -> list[PairStanding]:
    """Standings of ``seeds`` (every player, seed order) from the finished two-player
    ``matches`` (unfinished ones are ignored). ``bye_scores``: a bye counts as a win (Swiss)
    or scores nothing (a round-robin rest). ``missed``: rounds each late entrant missed
    (0 points for him; ½ each in his opponents' Buchholz, see the module docstring)."""
    missed = missed or {}
    score = dict.fromkeys(seeds, 0)
    wins = dict.fromkeys(seeds, 0)
    draws = dict.fromkeys(seeds, 0)
    losses = dict.fromkeys(seeds, 0)
    byes = dict.fromkeys(seeds, 0)
    games = dict.fromkeys(seeds, 0)
    opponents: dict[PlayerId, list[PlayerId]] = {p: [] for p in seeds}
    taken: dict[tuple[PlayerId, PlayerId], int] = {}  # (p, q) -> half-points p took from q
    for m in matches:
        r = m.result
        if r is None:
            continue
        if m.is_bye or r.how is How.BYE:
            (p,) = m.players
            byes[p] += 1
            if bye_scores:
                score[p] += 2
                wins[p] += 1
            continue
        a, b = m.players
        opponents[a].append(b)
        opponents[b].append(a)
        games[a] += r.games_won.get(a, 0)
        games[b] += r.games_won.get(b, 0)
        if r.winner is None and r.how is How.FORFEIT:
            # Both forfeited (both no-shows, both withdrawn): a double loss.
            got = {a: 0, b: 0}
            losses[a] += 1
            losses[b] += 1
        elif r.winner is None:
            got = {a: 1, b: 1}
            draws[a] += 1
            draws[b] += 1
        else:
            loser = b if r.winner == a else a
            got = {r.winner: 2, loser: 0}
            wins[r.winner] += 1
            losses[loser] += 1
        for p, q in ((a, b), (b, a)):
            score[p] += got[p]
            taken[p, q] = taken.get((p, q), 0) + got[p]
    # An opponent's rounds missed by joining late count as draws in the tie-breaks.
    adjusted = {p: score[p] + missed.get(p, 0) for p in seeds}
    buchholz = {p: sum(adjusted[q] for q in opponents[p]) for p in seeds}
    median = {}
    for p in seeds:
        opp = sorted(adjusted[q] for q in opponents[p])
        median[p] = sum(opp[1:-1]) if len(opp) >= 3 else sum(opp)
    seed_of = {p: i + 1 for i, p in enumerate(seeds)}
    order = sorted(seeds, key=lambda p: (-score[p], -median[p], -buchholz[p]))
    # Head-to-head: a mini-league among each group still level on the keys above.
    h2h = dict.fromkeys(seeds, 0)
    i = 0
    while i < len(order):
        j = i
        key = (score[order[i]], median[order[i]], buchholz[order[i]])
        while j < len(order) and (score[order[j]], median[order[j]], buchholz[order[j]]) == key:
            j += 1
        group = order[i:j]
        if len(group) > 1:
            members = set(group)
            for p in group:
                h2h[p] = sum(taken[p, q] for q in set(opponents[p]) if q in members)
        i = j
    order.sort(key=lambda p: (-score[p], -median[p], -buchholz[p], -h2h[p], -games[p], seed_of[p]))
    return [
        PairStanding(
            rank,
            p,
            seed_of[p],
            score[p],
            wins[p],
            draws[p],
            losses[p],
            byes[p],
            median[p],
            buchholz[p],
            h2h[p],
            games[p],
            tuple(opponents[p]),
            missed.get(p, 0),
        )
        for rank, p in enumerate(order, start=1)
    ]


@dataclass(frozen=True)
class TableStanding:
    """One line of a table-rounds standings table."""

    rank: int
    player: PlayerId
    seed: int
    points: int
    wins: int
    tables: int
    opponents_average: Fraction


def table_points(match: Match, player: PlayerId) -> int:
    """Points ``player`` scored at a finished table: (table size − 1) per game won."""
    if match.result is None:
        return 0
    return match.result.games_won.get(player, 0) * (len(match.players) - 1)


def table_standings(seeds: Sequence[PlayerId], tables: Iterable[Match]) -> list[TableStanding]:
    """Standings of ``seeds`` (every player, seed order) from the finished ``tables``."""
    done = [t for t in tables if t.result is not None]
    points = dict.fromkeys(seeds, 0)
    wins = dict.fromkeys(seeds, 0)
    count = dict.fromkeys(seeds, 0)
    for t in done:
        for p in t.players:
            points[p] += table_points(t, p)
            wins[p] += t.result.games_won.get(p, 0) if t.result else 0
            count[p] += 1
    mates: dict[PlayerId, list[PlayerId]] = {p: [] for p in seeds}
    for t in done:
        for p in t.players:
            mates[p].extend(q for q in t.players if q != p)
    average = {
        p: Fraction(sum(points[q] for q in mates[p]), len(mates[p])) if mates[p] else Fraction(0)
        for p in seeds
    }
    seed_of = {p: i + 1 for i, p in enumerate(seeds)}
    order = sorted(seeds, key=lambda p: (-points[p], -wins[p], -average[p], seed_of[p]))
    return [
        TableStanding(rank, p, seed_of[p], points[p], wins[p], count[p], average[p])
        for rank, p in enumerate(order, start=1)
    ]


def met_counts(tables: Iterable[Match]) -> dict[PlayerId, dict[PlayerId, int]]:
    """How many tables each pair of players has shared."""
    out: dict[PlayerId, dict[PlayerId, int]] = {}
    for t in tables:
        for p in t.players:
            row = out.setdefault(p, {})
            for q in t.players:
                if q != p:
                    row[q] = row.get(q, 0) + 1
    return out


def opponents_met(matches: Iterable[Match]) -> dict[PlayerId, set[PlayerId]]:
    """Every two-player opponent each player has been paired with (byes excluded)."""
    out: dict[PlayerId, set[PlayerId]] = {}
    for m in matches:
        if len(m.players) == 2:
            a, b = m.players
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def mapping_of(rows: Iterable[PairStanding]) -> Mapping[PlayerId, PairStanding]:
    """Standings rows by player."""
    return {r.player: r for r in rows}
