"""The PNG picture of a hand: its tiles in rank order.

Every function here is pure and synchronous: it takes engine values and returns PNG bytes. The
Discord layer calls them through ``asyncio.to_thread``; they are thread-safe and memoised like
everything drawn with :mod:`bot.render.layout`, whose colours, sizes and helpers they share (and
which explains how every picture stays readable at embed width). A game's own pictures
(the discards, a winning arrangement, the Tsung Shap row) are its family's
(``bot/games/<family>/render/``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.tiles import Tile, sort_tiles
from bot.render.layout import render_tiles

__all__ = ["render_hand"]


def render_hand(hand: Iterable[Tile], *, title: str | None = None, locale: str = "en") -> bytes:
    """PNG of a player's hand in display order (traditional rank, Heaven first)."""
    return render_tiles(sort_tiles(hand), caption=title, locale=locale)
