"""Cheap, reproducible per-game dealing for the simulator (the same stream in Python and kernel).

Game ``index`` of a run with seed ``seed`` is dealt from a splitmix64 stream started at
:func:`deal_key`: four dice (or the lots) choose the first seat as :func:`bot.engine.make_deal`
does, then a Fisher-Yates shuffle orders the pieces. Bounded draws take the high 32 bits of a
64-bit output and scale them (``(r * bound) >> 32``), so the compiled kernel
(:mod:`bot.games.collecting.sim.kernel`) reproduces every deal exactly with machine integers. A key
costs two
64-bit mixes, where seeding ``random.Random`` from a string costs a SHA-512 (4 µs).
"""

from __future__ import annotations

from bot.engine import Deal, FirstPlayer, RuleSet
from bot.engine.deal import first_seat_from_dice

__all__ = ["SplitMix64", "deal_from_key", "deal_key"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def deal_key(seed: int, index: int) -> int:
    """The 64-bit key of game ``index``'s deal in a run with ``seed`` (any int)."""
    return _mix((_mix(seed & _MASK) ^ ((index * _GOLDEN) & _MASK)) & _MASK)


class SplitMix64:
    """The splitmix64 generator (Steele, Lea and Flood), 64-bit state."""

    def __init__(self, key: int) -> None:
        self.state = key & _MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def below(self, bound: int) -> int:
        """An integer in ``0 .. bound-1`` (bound below 2**32)."""
        return ((self.next() >> 32) * bound) >> 32


def deal_from_key(rules: RuleSet, key: int) -> Deal:
    """The deal of a key: the first seat (dice from thrower 0, or lots), then the shuffle."""
    rng = SplitMix64(key)
    players = rules.players
    if rules.first_player is FirstPlayer.FOUR_DICE:
        dice = tuple(1 + rng.below(6) for _ in range(4))
        first = first_seat_from_dice(0, dice, players)
    else:
        dice = ()
        first = rng.below(players)
    order = list(range(rules.tile_count))
    for i in range(len(order) - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return Deal(order=tuple(order), first_seat=first, thrower=0, dice=dice)
