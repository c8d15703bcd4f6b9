"""What the pictures of Kap Shap and Kap Tai Shap show, in words (their alt text, see
:mod:`bot.render.alt_text`): a seat's hand with the discards he may take, the table's discards,
the winning hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine import Tile, sort_tiles
from bot.engine.rules import FourTwo
from bot.games.collecting.render.shapes import Arrangement, FaceUp
from bot.games.collecting.render.table_art import PoolGroup
from bot.games.collecting.render.words import pool_text, witness_text
from bot.locale import t
from bot.render.alt_text import fit_description, sentences
from bot.render.text import count_text, short_tile

__all__ = ["discards_description", "hand_description", "witness_description"]


def _tiles(tiles: Iterable[Tile], locale: str) -> str:
    """``6-6 Heaven ×2, 3-1 Harmony`` in rank order (the pictures' order)."""
    counts: dict[Tile, int] = {}
    for tile in sort_tiles(tiles):
        counts[tile] = counts.get(tile, 0) + 1
    return t(locale, ", ").join(
        f"{tile} {short_tile(tile, locale)}" + (f" ×{n}" if n > 1 else "")
        for tile, n in counts.items()
    )


def _groups(groups: Iterable[PoolGroup], locale: str) -> str:
    return t(locale, ", ").join(
        f"{g.tile} {short_tile(g.tile, locale)}" + (f" ×{g.count}" if g.count > 1 else "")
        for g in groups
    )


def hand_description(
    hand: Sequence[Tile],
    new: Sequence[Tile] = (),
    discards: Sequence[PoolGroup] | None = None,
    locale: str = "en",
) -> str:
    """The hand picture of :func:`~bot.games.collecting.render.table_art.render_hand_view`:
    the hand, the tiles just come in, and (on a turn to take or draw) the discards, those he
    may take first."""
    parts = [
        t(
            locale,
            "Your hand, {count}: {tiles}.",
            count=count_text(locale, len(hand), "tile"),
            tiles=_tiles(hand, locale) or t(locale, "no tiles"),
        )
    ]
    if new:
        parts.append(t(locale, "New: {tiles}.", tiles=_tiles(new, locale)))
    if discards:
        takeable = [g for g in discards if g.takeable]
        others = [g for g in discards if not g.takeable]
        if takeable:
            parts.append(
                t(locale, "Discards you may take: {tiles}.", tiles=_groups(takeable, locale))
            )
            if others:
                parts.append(t(locale, "Other discards: {tiles}.", tiles=_groups(others, locale)))
        else:
            parts.append(
                t(
                    locale,
                    "Discards, none of which you may take now: {tiles}.",
                    tiles=_groups(discards, locale),
                )
            )
    return fit_description(sentences(parts, locale))


def discards_description(pool: Sequence[FaceUp], locale: str = "en") -> str:
    """The table message's discards picture: the face-up discards by kind, dead ones apart."""
    return fit_description(
        t(locale, "Discards: {tiles}", tiles=pool_text(pool, locale).replace("`", ""))
    )


def witness_description(
    name: str, witness: Arrangement, four_two: FourTwo = FourTwo.THREE, locale: str = "en"
) -> str:
    """The winning hand's picture: the eye and each ten-pair with its total."""
    arrangement = witness_text(witness, four_two, locale).replace("`", "")
    return fit_description(
        t(locale, "The winning hand of {name}: {arrangement}.", name=name, arrangement=arrangement)
    )
