"""What the two domino families' surfaces share: a tile as a choice, and the one answer to a verb
neither family knows.

The cogs register one fixed set of slash verbs (``take``, ``draw``, ``discard``, ``declare``);
each family says what they mean at its table (:class:`bot.render.family.Surface`).
"""

from __future__ import annotations

from bot.engine import Tile
from bot.render.family import Choice
from bot.render.text import tile_label

__all__ = ["VERBS", "tile_choice", "unknown_verb"]

VERBS = ("take", "draw", "discard", "declare")
"""The slash verbs the cogs register (cogs/play.py)."""


def tile_choice(tile: Tile, count: int = 1, locale: str = "en") -> Choice:
    """A tile as an autocomplete choice: its label (``6-5 Axe 斧頭``, ``×2`` when the member
    holds or sees two), its notation as the value."""
    extra = f" ×{count}" if count > 1 else ""
    return Choice(label=f"{tile_label(tile, locale)}{extra}", value=str(tile))


def unknown_verb(verb: str) -> ValueError:
    """The error for a verb the cogs do not register (a programming error, never a member's)."""
    return ValueError(f"unknown verb '{verb}': the verbs are {', '.join(VERBS)}")
