"""The deal: who throws, the four dice (or the lots), the first player and the shuffled tiles.

A :class:`Deal` stores the whole permutation of pieces, not a seed, so that a game replays the
same on any Python version (RULES.md §4).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.engine.errors import RulesError
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET, Tile

__all__ = [
    "Deal",
    "DealRules",
    "FirstPlayer",
    "deal_from_tiles",
    "first_seat_from_dice",
    "make_deal",
]


class FirstPlayer(enum.StrEnum):
    """How the first player is chosen."""

    FOUR_DICE = "four-dice"
    LOTS = "lots"


class DealRules(Protocol):
    """What dealing the tiles reads of a rule set (:class:`bot.engine.rules.RuleSet`)."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        ...

    @property
    def sets(self) -> int:
        """Sets of tiles in play."""
        ...

    @property
    def tile_count(self) -> int:
        """Physical tiles in play."""
        ...

    @property
    def hand_size(self) -> int:
        """The first player's dealt hand."""
        ...

    @property
    def first_player(self) -> FirstPlayer:
        """How the first player is chosen."""
        ...


@dataclass(frozen=True, slots=True)
class Deal:
    """A complete deal.

    ``order`` is a permutation of the pieces ``0 .. 32*sets-1``: the first player receives the
    first H, each following seat (in play order) the next H-1, and the rest is the wall in
    drawing order.
    """

    order: tuple[int, ...]
    first_seat: int
    thrower: int = 0
    dice: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly form for storage."""
        return {
            "order": list(self.order),
            "first_seat": self.first_seat,
            "thrower": self.thrower,
            "dice": list(self.dice),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deal:
        """Inverse of :meth:`to_json`."""
        return cls(
            order=tuple(int(p) for p in data["order"]),
            first_seat=int(data["first_seat"]),
            thrower=int(data.get("thrower", 0)),
            dice=tuple(int(d) for d in data.get("dice", ())),
        )


def first_seat_from_dice(thrower: int, dice: Sequence[int], players: int) -> int:
    """Count around from the thrower's right (the next seat in play order) up to the total."""
    return (thrower + sum(dice)) % players


def make_deal(rules: DealRules, rng: random.Random, thrower: int = 0) -> Deal:
    """Shuffle the tiles and choose the first player with ``rng`` (four dice or lots)."""
    if not 0 <= thrower < rules.players:
        raise RulesError(f"thrower seat {thrower} is not at this table")
    if rules.first_player is FirstPlayer.FOUR_DICE:
        dice = tuple(rng.randint(1, 6) for _ in range(4))
        first = first_seat_from_dice(thrower, dice, rules.players)
    else:
        dice = ()
        first = rng.randrange(rules.players)
    order = list(range(rules.tile_count))
    rng.shuffle(order)
    return Deal(order=tuple(order), first_seat=first, thrower=thrower, dice=dice)


def deal_from_tiles(
    rules: DealRules,
    hands: Sequence[Sequence[Tile]],
    wall: Sequence[Tile] = (),
    first_seat: int = 0,
) -> Deal:
    """An exact deal written in tiles, for tests and puzzles.

    ``hands[s]`` is seat ``s``'s hand (H tiles for ``first_seat``, H-1 for the others);
    ``wall`` gives the first tiles to be drawn, in order; the remaining tiles follow in the
    wall in a fixed order.
    """
    if len(hands) != rules.players:
        raise RulesError(f"{len(hands)} hands given for {rules.players} players")
    free: dict[int, list[int]] = {}
    for piece in range(rules.tile_count):
        free.setdefault(PIECE_KINDS[piece % PIECES_PER_SET], []).append(piece)

    def take(tile: Tile) -> int:
        pool = free.get(tile.index)
        if not pool:
            raise RulesError(f"the deal uses more {tile} tiles than {rules.sets} set(s) hold")
        return pool.pop(0)

    order: list[int] = []
    for offset in range(rules.players):
        seat = (first_seat + offset) % rules.players
        want = rules.hand_size if offset == 0 else rules.hand_size - 1
        if len(hands[seat]) != want:
            raise RulesError(f"seat {seat} must be dealt {want} tiles, not {len(hands[seat])}")
        order += [take(t) for t in hands[seat]]
    order += [take(t) for t in wall]
    order += sorted(p for pieces in free.values() for p in pieces)
    return Deal(order=tuple(order), first_seat=first_seat)
