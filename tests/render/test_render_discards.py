"""The discards picture of the Kap table message: grouped by kind, dead discards dimmed (no
colour left), the most recent marked, the ones the viewer may take framed."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine.tiles import Tile, parse_tiles
from bot.games.collecting.engine.machine import PoolTile
from bot.games.collecting.render.table_art import PoolGroup, discard_groups, render_discards


def pool(*items: tuple[str, bool]) -> list[PoolTile]:
    """Face-up discards in the order thrown: (tile, dead)."""
    return [PoolTile(Tile.parse(t), 0, i, dead=dead) for i, (t, dead) in enumerate(items)]


def test_discards_are_grouped_by_kind_live_before_dead_and_the_latest_marked() -> None:
    discards = pool(("4-4", True), ("5-2", False), ("4-4", False), ("4-4", True), ("5-2", False))
    groups = discard_groups(discards, {Tile(4, 4)})
    shown = [(str(g.tile), g.count, g.dead, g.takeable, g.latest) for g in groups]
    # Rank order of the kinds (4-4 ranks before 5-2); a kind's live copies, then its dead ones.
    four_four, five_two = parse_tiles("4-4 5-2")
    assert four_four.index < five_two.index
    assert shown == [
        ("4-4", 1, False, True, False),  # live, and the viewer may take it: framed
        ("4-4", 2, True, False, False),  # dead copies are never takeable
        ("5-2", 2, False, False, True),  # the last discard thrown
    ]
    assert discard_groups([]) == ()


def _reddish(png: bytes) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    return sum(n for n, (r, g, b) in colours if r > 150 and g < 90 and b < 90)


def test_a_dead_discard_is_dimmed_and_the_latest_is_marked() -> None:
    # 4-4 has red pips: drawn live they show red; dead, the tile keeps no colour.
    live = render_discards([PoolGroup(Tile(4, 4))], legend=False)
    dead = render_discards([PoolGroup(Tile(4, 4), dead=True)], legend=False)
    assert _reddish(live) > 50
    assert _reddish(dead) == 0
    latest = render_discards([PoolGroup(Tile(4, 4), latest=True)], legend=False)
    framed = render_discards([PoolGroup(Tile(4, 4), takeable=True)], legend=False)
    assert len({live, latest, framed}) == 3
