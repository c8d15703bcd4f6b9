"""Tile values, ten-pairs, eyes and the winning hand of the collecting games (RULES.md §2.1).

A hand of H tiles wins when it splits into one *eye* (two identical tiles) and (H-2)/2
*ten-pairs* (two tiles whose values total 10 or 20). Two values total 10 or 20 exactly when their
residues mod 10 are complementary, so for a candidate eye the rest pairs up iff
``r0, r5 even and r1=r9, r2=r8, r3=r7, r4=r6``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from bot.engine.rules import FourTwo, RuleSet, ten_pair_values
from bot.engine.tiles import KINDS, Tile

_FOUR_TWO = Tile(4, 2).index
_TWO_ONE = Tile(2, 1).index

__all__ = [
    "HandGuide",
    "Witness",
    "counts_of",
    "eye_kinds",
    "find_witness",
    "guide_hand",
    "is_ten_pair",
    "is_winning",
    "is_winning_counts",
]


def is_ten_pair(a: Tile, b: Tile, four_two: FourTwo) -> bool:
    """Whether two tiles can total 10 or 20."""
    return ten_pair_values(a, b, four_two) is not None


def counts_of(tiles: Iterable[Tile]) -> tuple[int, ...]:
    """Count vector indexed by kind (length 21)."""
    counts = [0] * len(KINDS)
    for tile in tiles:
        counts[tile.index] += 1
    return tuple(counts)


def eye_kinds(military_eyes: bool) -> tuple[int, ...]:
    """Kind indices that may form the eye."""
    return tuple(t.index for t in KINDS if t.civil or military_eyes)


@dataclass(frozen=True, slots=True)
class Witness:
    """A winning arrangement: the eye and the ten-pairs."""

    eye: tuple[Tile, Tile]
    pairs: tuple[tuple[Tile, Tile], ...]

    def __str__(self) -> str:
        pairs = " | ".join(f"{a} {b}" for a, b in self.pairs)
        return f"eye {self.eye[0]} {self.eye[1]} | {pairs}"

    def tiles(self) -> list[Tile]:
        """Every tile of the arrangement, eye first."""
        out = [self.eye[0], self.eye[1]]
        for a, b in self.pairs:
            out += [a, b]
        return out


def _residues(four_two: FourTwo) -> list[int]:
    # Residue mod 10 of each kind's value. Under wild this holds natural pips (4-2 -> 6,
    # 2-1 -> 3); _residue_counts moves the copies chosen to take the other value.
    three = four_two is FourTwo.THREE
    return [(3 if three and t.index == _FOUR_TWO else t.pips) % 10 for t in KINDS]


_RESIDUES = {ft: _residues(ft) for ft in FourTwo}


def _pairs_up(residue_counts: Sequence[int]) -> bool:
    r = residue_counts
    return (
        r[0] % 2 == 0
        and r[5] % 2 == 0
        and r[1] == r[9]
        and r[2] == r[8]
        and r[3] == r[7]
        and r[4] == r[6]
    )


def _wild_splits(counts: Sequence[int], four_two: FourTwo) -> Iterable[tuple[int, int]]:
    # How many 4-2 and 2-1 copies take the value 6 (the others take 3).
    if four_two is not FourTwo.WILD:
        return ((0, 0),)
    return product(range(counts[_FOUR_TWO] + 1), range(counts[_TWO_ONE] + 1))


def _residue_counts(counts: Sequence[int], four_two: FourTwo, split: tuple[int, int]) -> list[int]:
    table = _RESIDUES[four_two]
    r = [0] * 10
    for kind, c in enumerate(counts):
        if c:
            r[table[kind]] += c
    if four_two is FourTwo.WILD:
        # Under wild the table holds natural pips: 4-2 -> 6, 2-1 -> 3. Move the chosen copies.
        sixes_42, sixes_21 = split
        threes_42 = counts[_FOUR_TWO] - sixes_42
        r[6] -= threes_42
        r[3] += threes_42
        r[3] -= sixes_21
        r[6] += sixes_21
    return r


# 2**15 entries of about 400 bytes: at most ~13 MB (2**18 reached ~100 MB). A game checks a few
# dozen count vectors; the simulator's fast path has its own memo (bot.games.collecting.ai.core).
@lru_cache(maxsize=1 << 15)
def is_winning_counts(
    counts: tuple[int, ...], hand_size: int, four_two: FourTwo, military_eyes: bool
) -> bool:
    """Whether a count vector of ``hand_size`` tiles is an eye plus ten-pairs."""
    if sum(counts) != hand_size:
        return False
    for eye in eye_kinds(military_eyes):
        if counts[eye] < 2:
            continue
        rest = list(counts)
        rest[eye] -= 2
        for split in _wild_splits(rest, four_two):
            if _pairs_up(_residue_counts(rest, four_two, split)):
                return True
    return False


def is_winning(tiles: Sequence[Tile], rules: RuleSet) -> bool:
    """Whether ``tiles`` (exactly H of them) form a winning hand under ``rules``."""
    if len(tiles) != rules.hand_size:
        return False
    return is_winning_counts(
        counts_of(tiles), rules.hand_size, rules.four_two_value, rules.military_eyes
    )


def find_witness(tiles: Sequence[Tile], rules: RuleSet) -> Witness | None:
    """The eye and ten-pairs of a winning hand, or None if it does not win."""
    if len(tiles) != rules.hand_size:
        return None
    counts = counts_of(tiles)
    four_two = rules.four_two_value
    for eye in eye_kinds(rules.military_eyes):
        if counts[eye] < 2:
            continue
        rest = list(counts)
        rest[eye] -= 2
        for split in _wild_splits(rest, four_two):
            if not _pairs_up(_residue_counts(rest, four_two, split)):
                continue
            return Witness(
                eye=(KINDS[eye], KINDS[eye]),
                pairs=_arrange_pairs(rest, four_two, split),
            )
    return None


def _arrange_pairs(
    counts: Sequence[int], four_two: FourTwo, split: tuple[int, int]
) -> tuple[tuple[Tile, Tile], ...]:
    table = _RESIDUES[four_two]
    by_residue: list[list[Tile]] = [[] for _ in range(10)]
    sixes = {_FOUR_TWO: split[0], _TWO_ONE: split[1]}
    for kind, c in enumerate(counts):
        for copy in range(c):
            residue = table[kind]
            if four_two is FourTwo.WILD and kind in sixes:
                residue = 6 if copy < sixes[kind] else 3
            by_residue[residue].append(KINDS[kind])
    pairs: list[tuple[Tile, Tile]] = []
    for same in (0, 5):
        group = by_residue[same]
        pairs += [(group[i], group[i + 1]) for i in range(0, len(group), 2)]
    for low in range(1, 5):
        pairs += list(zip(by_residue[10 - low], by_residue[low], strict=True))
    return tuple(pairs)


@dataclass(frozen=True, slots=True)
class HandGuide:
    """A hand grouped as far as it goes (the hand guide): the eye and the ten-pairs already
    made, the tiles left over and, for a hand one tile short of a win, every kind that would
    complete it."""

    eye: tuple[Tile, Tile] | None
    pairs: tuple[tuple[Tile, Tile], ...]
    loose: tuple[Tile, ...]
    waiting: tuple[Tile, ...]
    """The kinds that make a winning hand with these tiles (only for a hand one tile short)."""
    winning: bool
    """The tiles are a winning hand as they stand (declare)."""


def guide_hand(tiles: Sequence[Tile], rules: RuleSet) -> HandGuide:
    """Group ``tiles`` into the eye and as many ten-pairs as they make (an eye is kept when one
    grouping with it makes as many tiles grouped as one without), and name what completes a
    hand one tile short of ``rules.hand_size``: from the tiles alone, so it says the same
    whatever the others hold."""
    counts = counts_of(tiles)
    four_two = rules.four_two_value
    best: tuple[int, int, tuple[Tile, Tile] | None, tuple[tuple[Tile, Tile], ...], list[Tile]]
    best = (-1, 0, None, (), list(tiles))
    candidates: list[int | None] = [None]
    candidates += [e for e in eye_kinds(rules.military_eyes) if counts[e] >= 2]
    for eye in candidates:
        rest = list(counts)
        if eye is not None:
            rest[eye] -= 2
        for split in _wild_splits(rest, four_two):
            pairs, loose = _group_pairs(rest, four_two, split)
            grouped = 2 * len(pairs) + (2 if eye is not None else 0)
            score = (grouped, 1 if eye is not None else 0)
            if score > best[:2]:
                pair_of = None if eye is None else (KINDS[eye], KINDS[eye])
                best = (score[0], score[1], pair_of, pairs, loose)
    waiting: tuple[Tile, ...] = ()
    if len(tiles) == rules.hand_size - 1:
        waiting = tuple(
            kind
            for kind in KINDS
            if is_winning_counts(
                tuple(c + (i == kind.index) for i, c in enumerate(counts)),
                rules.hand_size,
                four_two,
                rules.military_eyes,
            )
        )
    return HandGuide(
        eye=best[2],
        pairs=best[3],
        loose=tuple(sorted(best[4], key=lambda t: t.index)),
        waiting=waiting,
        winning=is_winning(tiles, rules),
    )


def _group_pairs(
    counts: Sequence[int], four_two: FourTwo, split: tuple[int, int]
) -> tuple[tuple[tuple[Tile, Tile], ...], list[Tile]]:
    """As many ten-pairs as ``counts`` make (each residue matched with its complement, 0 and 5
    with themselves), and the tiles left over."""
    table = _RESIDUES[four_two]
    by_residue: list[list[Tile]] = [[] for _ in range(10)]
    sixes = {_FOUR_TWO: split[0], _TWO_ONE: split[1]}
    for kind, c in enumerate(counts):
        for copy in range(c):
            residue = table[kind]
            if four_two is FourTwo.WILD and kind in sixes:
                residue = 6 if copy < sixes[kind] else 3
            by_residue[residue].append(KINDS[kind])
    pairs: list[tuple[Tile, Tile]] = []
    loose: list[Tile] = []
    for same in (0, 5):
        group = by_residue[same]
        pairs += [(group[i], group[i + 1]) for i in range(0, len(group) - 1, 2)]
        loose += group[len(group) - len(group) % 2 :]
    for low in range(1, 5):
        high, small = by_residue[10 - low], by_residue[low]
        made = min(len(high), len(small))
        pairs += list(zip(high[:made], small[:made], strict=True))
        loose += high[made:] + small[made:]
    return tuple(pairs), loose
