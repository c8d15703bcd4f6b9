"""Pictures of single Chinese dominoes, drawn with Pillow.

A tile is drawn upright, long and narrow (60 × 132 px at scale 1, the face about 1 : 2.1 plus a
6 px "thickness" strip along the bottom edge), with an ivory face and no dividing bar: the two
ends are told apart by distance, as on real Chinese dominoes. The **high** number is the upper
end, the **low** number the lower end.

Colour convention (documented, one traditional convention chosen)
-----------------------------------------------------------------
* Face ivory, pips black ("black on ivory", as on bone and ivory sets; the old tiles Culin and
  later writers describe are either ebony with white and red pips or ivory with black and red).
* **The one and the four are red**, following Chinese dice (Culin 1893; pagat.com).
* **Heaven, 6-6:** half of its pips are red. Culin: "the alternate threes which comprise the sixes
  are usually painted red". Each six is two columns of three; in the upper end the **left** column
  is red, in the lower end the **right** column. The tile is therefore the same when turned end
  for end, and reading the four columns of three from left to right along the tile they alternate
  red / black. Other sixes (6-5, 6-4, ...) are all black, as on modern sets.
* Pips sit like dice faces (no blanks). Twos are side by side at the outer end of their half and
  threes run diagonally, as described by Culin and by Joe Celko's pages; every layout of the lower
  end is the upper one turned through 180°, so the whole tile is point-symmetric.

Civil and military
------------------
Real tiles carry no suit mark; players memorise the suits. For newcomers every picture marks the
suit at two opposite corners of the face (upper left and lower right):

* **civil** (文, 11 kinds, two copies per set): a jade-green **quarter disc**;
* **military** (武, 10 kinds, one copy per set): an indigo **triangle**.

Shape *and* colour differ, so the mark is readable without colour vision; neither colour is
close to the red or black of the pips. Composite pictures (:mod:`bot.render.layout`) may add the
notation under each tile.

Caching and threads
-------------------
:func:`tile_image` is memoised per ``(kind, scale)`` with :func:`functools.lru_cache`; the image it
returns is shared and **must be treated as read-only**. :func:`render_tile` returns a private copy
that callers may draw on or save freely (``Image.save`` stores state on the image object, so a
shared image must not be saved from two threads at once). No module-level mutable drawing state
exists: every call creates its own :class:`PIL.ImageDraw.ImageDraw`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from bot.engine.tiles import Tile

__all__ = [
    "CIVIL_MARK",
    "FACE",
    "MILITARY_MARK",
    "PIP_BLACK",
    "PIP_RED",
    "TILE_HEIGHT",
    "TILE_WIDTH",
    "Pip",
    "pip_layout",
    "render_tile",
    "tile_image",
    "tile_size",
]

RGB = tuple[int, int, int]

# ---------------------------------------------------------------------------------------------
# Geometry, in tile units (1 unit = 1 px at scale 1).

TILE_WIDTH = 60
"""Width of a tile at scale 1, in pixels."""
TILE_HEIGHT = 132
"""Height of a tile at scale 1 (face plus thickness strip), in pixels."""
_FACE_HEIGHT = 126  # the face; the remaining 6 units are the tile's side seen from above
_CORNER = 8  # corner radius
_PIP_R = 6.0  # ordinary pip radius
_ONE_R = 9.0  # the single pip of a one is larger, as on Chinese dice
_SUPERSAMPLE = 4  # draw at 4x and reduce, for smooth edges

# ---------------------------------------------------------------------------------------------
# Colours (RGB). Tests classify pixels by these, so keep red clearly red and black clearly dark.

FACE: RGB = (247, 241, 226)
"""Ivory face colour."""
_SIDE: RGB = (212, 197, 166)
_SIDE_SHADOW: RGB = (178, 160, 126)
_OUTLINE: RGB = (104, 86, 62)
PIP_BLACK: RGB = (30, 28, 28)
"""Colour of the black pips."""
PIP_RED: RGB = (204, 30, 38)
"""Colour of the red pips (ones, fours, half of Heaven)."""
CIVIL_MARK: RGB = (0, 140, 105)
"""Jade green: the civil suit's corner mark (quarter disc)."""
MILITARY_MARK: RGB = (58, 78, 176)
"""Indigo: the military suit's corner mark (triangle)."""
_DISC_RADIUS = 13.0  # civil mark: quarter disc centred on the face's corner
_TRIANGLE_LEG = 20.5  # military mark: right triangle in the corner (clear of the pips)

# Pip centres of each number in the *upper* half, in tile units: x across (0..60), y down from the
# tile's top edge (0..63). The lower half is the same layout turned through 180° about the face's
# centre (30, 63).
_COLS = (18.0, 42.0)
_ROWS = (14.0, 31.0, 48.0)
_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((30.0, 31.0),),
    2: ((18.0, 16.0), (42.0, 16.0)),
    3: ((17.0, 14.0), (30.0, 31.0), (43.0, 48.0)),
    4: ((19.0, 20.0), (41.0, 20.0), (19.0, 42.0), (41.0, 42.0)),
    5: ((17.0, 14.0), (43.0, 14.0), (30.0, 31.0), (17.0, 48.0), (43.0, 48.0)),
    6: tuple((x, y) for y in _ROWS for x in _COLS),
}


@dataclass(frozen=True, slots=True)
class Pip:
    """One pip of a tile picture at scale 1: centre, radius, colour and which end it is on."""

    x: float
    y: float
    radius: float
    red: bool
    upper: bool


def _is_red(tile: Tile, number: int, x: float, upper: bool) -> bool:
    """The colour convention (see the module docstring)."""
    if number in (1, 4):
        return True
    if tile.high == 6 and tile.low == 6:
        # Heaven: the left column of the upper six, the right column of the lower six (the
        # layout of the lower end is already turned, so compare against the turned column).
        return x < 30.0 if upper else x > 30.0
    return False


def pip_layout(tile: Tile) -> tuple[Pip, ...]:
    """Every pip of ``tile`` at scale 1: the upper (high) end first, then the lower (low) end."""
    pips: list[Pip] = []
    for number, upper in ((tile.high, True), (tile.low, False)):
        radius = _ONE_R if number == 1 else _PIP_R
        for x, y in _LAYOUTS[number]:
            px, py = (x, y) if upper else (TILE_WIDTH - x, _FACE_HEIGHT - y)
            pips.append(Pip(px, py, radius, _is_red(tile, number, px, upper), upper))
    return tuple(pips)


def tile_size(scale: float = 1.0) -> tuple[int, int]:
    """Pixel size ``(width, height)`` of a tile picture at ``scale``."""
    return max(1, round(TILE_WIDTH * scale)), max(1, round(TILE_HEIGHT * scale))


def _check_scale(scale: float) -> None:
    if not 0.2 <= scale <= 8.0:
        raise ValueError(f"tile scale must be between 0.2 and 8, not {scale}")


def _face_marks(draw: ImageDraw.ImageDraw, civil: bool, u: float) -> None:
    """Draw the suit marks (white on a black mask) at the upper-left and lower-right corners."""
    m, t = _DISC_RADIUS * u, _TRIANGLE_LEG * u
    w, h = TILE_WIDTH * u, _FACE_HEIGHT * u
    if civil:
        draw.pieslice((-m, -m, m, m), 0, 90, fill=255)
        draw.pieslice((w - m, h - m, w + m, h + m), 180, 270, fill=255)
    else:
        draw.polygon([(0, 0), (t, 0), (0, t)], fill=255)
        draw.polygon([(w, h), (w - t, h), (w, h - t)], fill=255)


def _draw_tile(tile: Tile, scale: float) -> Image.Image:
    u = scale * _SUPERSAMPLE
    big_w, big_h = round(TILE_WIDTH * u), round(TILE_HEIGHT * u)
    face_h = _FACE_HEIGHT * u
    line = max(1, round(1.4 * u))
    radius = _CORNER * u

    canvas = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    # The tile's body: its side shows as a strip below the face, darker toward the bottom.
    draw.rounded_rectangle(
        (0, 0, big_w - 1, big_h - 1), radius, fill=_SIDE_SHADOW, outline=_OUTLINE, width=line
    )
    draw.rounded_rectangle(
        (line, line, big_w - 1 - line, big_h - 1 - 2.5 * u), radius, fill=_SIDE, width=0
    )

    # The face, with the suit marks clipped to its rounded outline.
    face_mask = Image.new("L", (big_w, big_h), 0)
    ImageDraw.Draw(face_mask).rounded_rectangle((0, 0, big_w - 1, face_h), radius, fill=255)
    canvas.paste(FACE, (0, 0), face_mask)
    mark_mask = Image.new("L", (big_w, big_h), 0)
    _face_marks(ImageDraw.Draw(mark_mask), tile.civil, u)
    canvas.paste(
        CIVIL_MARK if tile.civil else MILITARY_MARK,
        (0, 0),
        ImageChops.multiply(face_mask, mark_mask),
    )
    draw.rounded_rectangle((0, 0, big_w - 1, face_h), radius, outline=_OUTLINE, width=line)

    for pip in pip_layout(tile):
        cx, cy, r = pip.x * u, pip.y * u, pip.radius * u
        colour = PIP_RED if pip.red else PIP_BLACK
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)

    return canvas.resize(tile_size(scale), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def tile_image(tile: Tile, scale: float, /) -> Image.Image:
    """The shared, cached RGBA picture of ``tile``: **read-only**.

    Use :func:`render_tile` for a copy of one's own. Memoised per ``(kind, scale)`` (both
    positional and required, so every call site shares one cache key); the corners outside the
    rounded outline are transparent.
    """
    _check_scale(scale)
    return _draw_tile(tile, scale)


def render_tile(tile: Tile, *, scale: float = 1.0) -> Image.Image:
    """An RGBA picture of one tile (~60 × 132 px at scale 1), a private copy of the cached one."""
    return tile_image(tile, float(scale)).copy()
