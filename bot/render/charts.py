"""A member's rating history as a PNG line chart (Pillow only: matplotlib is an optional extra
of the simulator, not a dependency of the bot).

Pure and synchronous like :mod:`bot.render.images`: the Discord layer calls it through
``asyncio.to_thread``. Text uses Pillow's built-in font and plain ASCII.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw, ImageFont

__all__ = ["rating_chart"]

RGB = tuple[int, int, int]

_BACKGROUND: RGB = (28, 88, 60)  # the table felt of every other picture
_GRID: RGB = (58, 118, 90)
_TEXT: RGB = (240, 238, 228)
_COLOURS: tuple[RGB, ...] = ((244, 192, 64), (120, 200, 250), (240, 120, 120))
_MARGIN_LEFT, _MARGIN_RIGHT, _MARGIN_TOP, _MARGIN_BOTTOM = 52, 16, 30, 28


def _nice_step(span: float, lines: int = 4) -> int:
    """A round grid step (1, 2, 5 × 10^k) giving about ``lines`` grid lines over ``span``."""
    raw = max(span / lines, 1.0)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def rating_chart(
    series: Mapping[str, Sequence[int]],
    *,
    title: str = "Rating",
    width: int = 640,
    height: int = 280,
) -> bytes:
    """A PNG of one line per game (its rating after each rated game, oldest first), with a
    labelled grid and a legend. Games with no rated game are left out; with none at all the
    picture says so."""
    image = Image.new("RGB", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13)
    draw.text((_MARGIN_LEFT, 8), title, font=font, fill=_TEXT)
    lines = {name: list(values) for name, values in series.items() if values}
    if not lines:
        draw.text((_MARGIN_LEFT, height // 2), "No rated games yet.", font=font, fill=_TEXT)
        return _png(image)
    low = min(min(v) for v in lines.values())
    high = max(max(v) for v in lines.values())
    if high - low < 100:  # a flat or short history: show it in a band of 100 points
        middle = (high + low) // 2
        low, high = middle - 50, middle + 50
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    left, right = _MARGIN_LEFT, width - _MARGIN_RIGHT
    top, bottom = _MARGIN_TOP, height - _MARGIN_BOTTOM
    longest = max(len(v) for v in lines.values())

    def x_of(index: int) -> float:
        return left if longest == 1 else left + (right - left) * index / (longest - 1)

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    for value in range(low, high + 1, step):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=_GRID, width=1)
        label = f"{value:,}"
        draw.text((4, y - 7), label, font=font, fill=_TEXT)
    draw.text((left, bottom + 8), "1", font=font, fill=_TEXT)
    end = f"{longest} rated game" + ("" if longest == 1 else "s")
    end_width = draw.textlength(end, font=font)
    draw.text((right - end_width, bottom + 8), end, font=font, fill=_TEXT)
    legend_x = float(right)
    for index, (name, values) in enumerate(lines.items()):
        colour = _COLOURS[index % len(_COLOURS)]
        points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        x, y = points[-1]
        draw.ellipse([(x - 3, y - 3), (x + 3, y + 3)], fill=colour)
        label = f"{name} {values[-1]:,}"
        legend_x -= draw.textlength(label, font=font) + 24
        draw.rectangle([(legend_x, 12), (legend_x + 10, 20)], fill=colour)
        draw.text((legend_x + 14, 8), label, font=font, fill=_TEXT)
    return _png(image)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
