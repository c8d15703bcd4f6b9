"""A group stage before an elimination bracket: snake-seeded round-robin groups.

``N`` players in groups of at most ``size`` make ``G = ⌈N / size⌉`` groups whose sizes differ by
at most one. Seeds are dealt like a snake: seeds 1…G go to groups A…G, seeds G+1…2G back from
the last group to A, and so on, so every group has one of the strongest players and the groups
are as even as the seeds make them.

Every group plays a round robin (:mod:`bot.tournament.roundrobin`), all groups' rounds side by
side; a group standings table is the round robin's (a rest scores nothing). The top
:data:`~bot.tournament.model.GROUP_ADVANCE` of each group go into the bracket, never a whole
group (a group of two sends only its winner), and a withdrawn player does not go through: the
next in his group takes his place. The bracket is seeded by group place: the group winners
first (group A's first), then the runners-up, ordered (group order turned round or reversed, the
first that does it best) so that a group's two qualifiers could only meet as late as possible:
with two or four groups only in the final.
"""

from __future__ import annotations

import math
import string
from collections.abc import Collection, Iterable, Sequence

from bot.tournament.bracket import seed_order
from bot.tournament.model import GROUP_ADVANCE, Match, PlayerId, TournamentError
from bot.tournament.standings import PairStanding, pair_standings

__all__ = ["advancing", "bracket_seeds", "group_name", "group_standings", "snake_groups"]


def snake_groups(seeds: Sequence[PlayerId], size: int) -> list[list[PlayerId]]:
    """The groups of ``seeds`` (seed order) in groups of at most ``size``, snake-seeded."""
    if len(seeds) < 3:
        raise TournamentError("A group stage needs at least three players.")
    count = math.ceil(len(seeds) / size)
    groups: list[list[PlayerId]] = [[] for _ in range(count)]
    for i, p in enumerate(seeds):
        row, col = divmod(i, count)
        groups[col if row % 2 == 0 else count - 1 - col].append(p)
    return groups


def group_name(index: int) -> str:
    """A group's letter: 0 -> ``A`` (at most 1024 / 3 groups: past Z, ``AA``, ``AB`` …)."""
    letters = string.ascii_uppercase
    if index < len(letters):
        return letters[index]
    return group_name(index // len(letters) - 1) + letters[index % len(letters)]


def advancing(group: Sequence[PlayerId]) -> int:
    """How many of a group go into the bracket: the top GROUP_ADVANCE, never the whole group."""
    return max(1, min(GROUP_ADVANCE, len(group) - 1))


def group_standings(
    groups: Sequence[Sequence[PlayerId]], matches: Iterable[Match]
) -> list[list[PairStanding]]:
    """Every group's standings (round-robin scoring and tie-breaks) from the group matches."""
    played = list(matches)
    out = []
    for group in groups:
        members = set(group)
        own = [m for m in played if set(m.players) <= members]
        out.append(pair_standings(group, own, bye_scores=False))
    return out


def bracket_seeds(
    tables: Sequence[Sequence[PairStanding]], withdrawn: Collection[PlayerId]
) -> list[PlayerId]:
    """The bracket's seeds from the finished groups' standings: every group's winner (group
    order), then the runners-up, in the order (a rotation of the groups, forwards or back)
    that keeps each group's two qualifiers apart in the bracket the longest; withdrawn players
    are passed over."""
    places: list[list[PlayerId]] = []
    for rows in tables:
        staying = [r.player for r in rows if r.player not in withdrawn]
        places.append(staying[: advancing([r.player for r in rows])])
    winners = [p[0] for p in places if p]
    runners = [p[1] for p in places if len(p) > 1]
    if len(winners) + len(runners) < 2 or not runners:
        return winners + runners
    group_of = {p: i for i, group in enumerate(places) for p in group}
    size = 1 << (len(winners) + len(runners) - 1).bit_length()
    slot = {seed: i for i, seed in enumerate(seed_order(size))}  # seed -> first-round slot

    def apart(order: list[PlayerId]) -> list[int]:
        """The round in which each group's two qualifiers could first meet, earliest first."""
        seeds = winners + order
        meets = []
        for i, p in enumerate(seeds):
            for j in range(i + 1, len(seeds)):
                if group_of[seeds[j]] == group_of[p]:
                    meets.append((slot[i + 1] ^ slot[j + 1]).bit_length())
        return sorted(meets)

    candidates = [runners[i:] + runners[:i] for i in range(len(runners))]
    candidates += [c[::-1] for c in candidates]
    best = max(candidates, key=apart)  # max() keeps the first of equals: group order first
    return winners + best
