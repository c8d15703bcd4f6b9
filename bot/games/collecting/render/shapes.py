"""What the collecting games' words and pictures read of the engine's values, as Protocols: a
face-up discard and a winning arrangement (the engine's ``PoolTile`` and ``Witness``), so that
anything with those fields (a record's position, a test's value) is drawn alike."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol

from bot.engine.tiles import Tile

__all__ = ["Arrangement", "FaceUp"]


class FaceUp(Protocol):
    """One face-up discard: its tile, and whether it is dead (never takeable)."""

    @property
    def tile(self) -> Tile:
        """The discarded tile."""
        ...

    @property
    def dead(self) -> bool:
        """Visible but never takeable."""
        ...


class Arrangement(Hashable, Protocol):
    """A winning hand arranged: the eye and the ten-pairs (a value: pictures of it are kept)."""

    @property
    def eye(self) -> tuple[Tile, Tile]:
        """The two identical tiles."""
        ...

    @property
    def pairs(self) -> tuple[tuple[Tile, Tile], ...]:
        """The ten-pairs, in order."""
        ...
