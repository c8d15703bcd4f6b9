"""The domino games' deal in a record: every tile in dealing order (docs/record-format.md).

The pieces of one kind are interchangeable, so a record keeps kinds: a deal read back gives each
kind's copies its pieces in piece order (:func:`deal_from_order`). The game it plays is the same
tile for tile; only the internal piece numbers may differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.deal import Deal
from bot.engine.errors import RulesError
from bot.engine.rules import RuleSet
from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET, Tile, kind_of_piece, parse_tile

__all__ = ["check_deal_text", "deal_from_order", "deal_text", "dealt_tiles", "read_deal"]


def dealt_tiles(deal: Deal) -> list[str]:
    """The deal's tiles in dealing order, as the notation writes them."""
    return [str(kind_of_piece(piece)) for piece in deal.order]


def deal_text(deal: Deal) -> str:
    """A record's ``Deal:`` value: the tiles in dealing order."""
    return " ".join(dealt_tiles(deal))


def deal_from_order(
    rules: RuleSet,
    tiles: Sequence[Tile],
    *,
    first_seat: int = 0,
    thrower: int = 0,
    dice: tuple[int, ...] = (),
) -> Deal:
    """A deal from every tile in dealing order; each kind's copies get its pieces in order."""
    if len(tiles) != rules.tile_count:
        raise RulesError(
            f"the deal must list all {rules.tile_count} tiles of {rules.sets} set(s), "
            f"not {len(tiles)}"
        )
    free: dict[int, list[int]] = {}
    for piece in range(rules.tile_count - 1, -1, -1):
        free.setdefault(PIECE_KINDS[piece % PIECES_PER_SET], []).append(piece)
    order: list[int] = []
    for tile in tiles:
        pieces = free.get(tile.index)
        if not pieces:
            raise RulesError(f"the deal holds more {tile} tiles than {rules.sets} set(s) have")
        order.append(pieces.pop())
    return Deal(order=tuple(order), first_seat=first_seat, thrower=thrower, dice=dice)


def check_deal_text(text: str) -> None:
    """NotationError for the first word that is not a tile."""
    for word in text.split():
        parse_tile(word)


def read_deal(rules: RuleSet, text: str, first: int, thrower: int, dice: tuple[int, ...]) -> Deal:
    """The inverse of :func:`deal_text`: NotationError for a word that is not a tile,
    RulesError for tiles the sets do not hold."""
    tiles = [parse_tile(word) for word in text.split()]
    return deal_from_order(rules, tiles, first_seat=first, thrower=thrower, dice=dice)
