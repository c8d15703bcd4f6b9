"""What the picture of Tsung Shap's row shows, in words (its alt text, see
:mod:`bot.render.alt_text`)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Tile
from bot.locale import t
from bot.render.alt_text import fit_description, sentences
from bot.render.text import short_tile

__all__ = ["row_description"]


def row_description(
    row: Sequence[Tile], turned: Tile | None = None, name: str = "", locale: str = "en"
) -> str:
    """Tsung Shap's row picture: the row from left to right, and the tile just turned over."""
    if row:
        text = t(
            locale,
            "The row, left to right: {tiles}.",
            tiles=t(locale, ", ").join(f"{x} {short_tile(x, locale)}" for x in row),
        )
    else:
        text = t(locale, "The row is empty.")
    if turned is not None:
        text = sentences(
            [
                text,
                t(
                    locale,
                    "{name} turned over {tile}.",
                    name=name,
                    tile=f"{turned} {short_tile(turned, locale)}",
                ),
            ],
            locale,
        )
    return fit_description(text)
