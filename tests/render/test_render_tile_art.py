"""Single tile pictures: pips counted from the pixels, the red convention, suit marks, caching.

Pips are found the way a person would find them: pixels are classified as red or black by colour
and grouped into connected blobs, each blob assigned to the upper or lower end by its centre. The
expected counts and colours are written out here from RULES.md §1 and the documented convention
(1 and 4 red; on 6-6 the left column of the upper six and the right column of the lower six red),
independently of the drawing code, so a wrong layout or colour fails.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import pytest
from PIL import Image

from bot.engine.tiles import KINDS, Tile
from bot.render.tile_art import (
    CIVIL_MARK,
    MILITARY_MARK,
    TILE_HEIGHT,
    TILE_WIDTH,
    render_tile,
    tile_image,
    tile_size,
)

FACE_FRACTION = 126 / 132  # the face; below it is the tile's side strip


@dataclass(frozen=True)
class Blob:
    red: bool
    size: int
    cx: float
    cy: float


def is_red(rgb: tuple[int, ...]) -> bool:
    r, g, b = rgb[:3]
    return r >= 120 and r - g >= 60 and r - b >= 60


def is_black(rgb: tuple[int, ...]) -> bool:
    return max(rgb[:3]) < 100


def blobs(image: Image.Image) -> list[Blob]:
    """Connected (8-neighbour) blobs of red and of black pixels inside the tile face."""
    rgb = image.convert("RGB")
    w, h = rgb.size
    inset = max(3, round(w / 20))
    face_bottom = int(h * FACE_FRACTION) - inset
    px = rgb.load()
    assert px is not None
    kinds: dict[tuple[int, int], bool] = {}
    for y in range(inset, face_bottom):
        for x in range(inset, w - inset):
            value = px[x, y]
            assert isinstance(value, tuple)
            if is_red(value):
                kinds[(x, y)] = True
            elif is_black(value):
                kinds[(x, y)] = False
    seen: set[tuple[int, int]] = set()
    found: list[Blob] = []
    for start, red in kinds.items():
        if start in seen:
            continue
        seen.add(start)
        queue = deque([start])
        points = []
        while queue:
            x, y = queue.popleft()
            points.append((x, y))
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    n = (x + dx, y + dy)
                    if n not in seen and kinds.get(n) is red:
                        seen.add(n)
                        queue.append(n)
        if len(points) >= 4:  # ignore stray anti-aliasing specks
            cx = sum(p[0] for p in points) / len(points)
            cy = sum(p[1] for p in points) / len(points)
            found.append(Blob(red, len(points), cx, cy))
    return found


def expected_red(tile: Tile, number: int) -> int:
    if number in (1, 4):
        return number
    if tile == Tile(6, 6):
        return 3
    return 0


@pytest.mark.parametrize("scale", [1.0, 2.0])
@pytest.mark.parametrize("tile", KINDS, ids=str)
def test_pips_counted_per_end_and_colour(tile: Tile, scale: float) -> None:
    image = render_tile(tile, scale=scale)
    assert image.size == tile_size(scale)
    found = blobs(image)
    middle = image.height * FACE_FRACTION / 2
    for number, upper in ((tile.high, True), (tile.low, False)):
        end = [b for b in found if (b.cy < middle) == upper]
        red = sum(b.red for b in end)
        black = len(end) - red
        where = "upper" if upper else "lower"
        assert len(end) == number, f"{tile} {where} end: {len(end)} pips, expected {number}"
        want_red = expected_red(tile, number)
        assert red == want_red, f"{tile} {where} end: {red} red pips, expected {want_red}"
        assert black == number - want_red
    assert len(found) == tile.pips


def test_heaven_red_columns_alternate() -> None:
    image = render_tile(Tile(6, 6), scale=2.0)
    middle_y = image.height * FACE_FRACTION / 2
    middle_x = image.width / 2
    for blob in blobs(image):
        upper = blob.cy < middle_y
        left = blob.cx < middle_x
        # Upper six: left column red; lower six: right column red (point-symmetric tile).
        assert blob.red == (left if upper else not left), blob


def test_one_pip_is_larger_than_ordinary_pips() -> None:
    sizes = {b.red: b.size for b in blobs(render_tile(Tile(6, 1), scale=2.0))}
    assert sizes[True] > 1.8 * sizes[False]


def test_tile_is_long_and_transparent_outside_its_outline() -> None:
    image = render_tile(Tile(6, 5))
    assert image.mode == "RGBA"
    assert (image.width, image.height) == (TILE_WIDTH, TILE_HEIGHT)
    assert 2.0 <= image.height / image.width <= 2.4
    assert image.getpixel((0, 0)) == (0, 0, 0, 0)  # rounded corner
    alpha = image.getpixel((TILE_WIDTH // 2, TILE_HEIGHT // 2))
    assert isinstance(alpha, tuple) and alpha[3] == 255


def _corner(tile: Tile) -> Image.Image:
    """The upper-left corner of the face, with the square where pips may lie blanked out."""
    corner = render_tile(tile).convert("RGB").crop((0, 0, 22, 22))
    corner.paste((255, 255, 255), (7, 4, 22, 22))  # (with a resampling margin)
    return corner


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    data = image.tobytes()
    bands = len(image.getbands())
    return [tuple(data[i : i + bands]) for i in range(0, len(data), bands)]


def _count_near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 12) -> int:
    count = 0
    for value in pixels(image):
        if all(abs(a - b) <= tolerance for a, b in zip(value, colour, strict=False)):
            count += 1
    return count


@pytest.mark.parametrize("tile", KINDS, ids=str)
def test_suit_mark_colour(tile: Tile) -> None:
    corner = _corner(tile)
    own, other = (CIVIL_MARK, MILITARY_MARK) if tile.civil else (MILITARY_MARK, CIVIL_MARK)
    assert _count_near(corner, own) >= 40
    assert _count_near(corner, other) == 0
    # The opposite (lower right) corner carries the same mark.
    image = render_tile(tile).convert("RGB")
    face_bottom = round(TILE_HEIGHT * FACE_FRACTION)
    lower = image.crop((TILE_WIDTH - 22, face_bottom - 22, TILE_WIDTH, face_bottom))
    assert _count_near(lower, own) >= 40


def test_civil_and_military_marks_differ_in_shape_too() -> None:
    civil = {_corner(t).tobytes() for t in KINDS if t.civil}
    military = {_corner(t).tobytes() for t in KINDS if t.military}
    assert len(civil) == 1 and len(military) == 1  # one mark per suit
    # Compare as masks, ignoring colour: the quarter disc and the triangle cover different pixels.
    disc = pixels(_corner(Tile(6, 6)).convert("L").point(lambda v: 255 if v < 200 else 0))
    tri = pixels(_corner(Tile(6, 3)).convert("L").point(lambda v: 255 if v < 200 else 0))
    differing = sum(1 for a, b in zip(disc, tri, strict=True) if a != b)
    assert differing >= 20


def test_cache_returns_shared_image_and_render_tile_copies() -> None:
    tile_image.cache_clear()
    first = tile_image(Tile(5, 5), 1.0)
    assert tile_image(Tile(5, 5), 1.0) is first
    info = tile_image.cache_info()
    assert (info.hits, info.misses) == (1, 1)
    mine = render_tile(Tile(5, 5))
    assert mine is not first and mine.tobytes() == first.tobytes()
    assert tile_image.cache_info().hits == 2
    render_tile(Tile(5, 5), scale=2)  # a new scale is a new entry
    assert tile_image.cache_info().misses == 2


def test_scale_changes_size() -> None:
    assert render_tile(Tile(2, 1), scale=0.5).size == (30, 66)
    assert render_tile(Tile(2, 1), scale=1.5).size == (90, 198)


@pytest.mark.parametrize("scale", [0.0, -1.0, 100.0])
def test_bad_scale_is_refused(scale: float) -> None:
    with pytest.raises(ValueError, match="scale"):
        render_tile(Tile(2, 1), scale=scale)
