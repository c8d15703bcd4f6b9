"""What the domino games share about unseen tiles: they are listed by kind, then piece, so that
two true states that look the same to a seat list the same tiles (bot.engine.hidden)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.tiles import PIECE_KINDS, PIECES_PER_SET

__all__ = ["by_kind", "kind"]


def kind(piece: int) -> int:
    """The kind (index into ``KINDS``) of a physical piece."""
    return PIECE_KINDS[piece % PIECES_PER_SET]


def by_kind(pieces: Iterable[int]) -> list[int]:
    """The pieces sorted by kind, then piece."""
    return sorted(pieces, key=lambda p: (kind(p), p))
