"""Pictures of tiles and hands for the Discord layer (Pillow; no discord, no asyncio).

* :mod:`bot.render.tile_art` draws one Chinese domino (colour convention and suit marks are
  documented there) and caches it per ``(kind, scale)``;
* :mod:`bot.render.images` lays tiles out and returns PNG bytes: a hand, a winning arrangement,
  the discard pool and the Tsung Shap row.

All functions are synchronous and thread-safe; call them through ``asyncio.to_thread``.
"""

from bot.render.images import (
    pair_total,
    pool_groups,
    render_hand,
    render_pool,
    render_row,
    render_tiles,
    render_witness,
)
from bot.render.tile_art import render_tile

__all__ = [
    "pair_total",
    "pool_groups",
    "render_hand",
    "render_pool",
    "render_row",
    "render_tile",
    "render_tiles",
    "render_witness",
]
