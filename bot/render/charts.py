"""A member's rating history as a PNG line chart (Pillow only: matplotlib is an optional extra
of the simulator, not a dependency of the bot).

Pure and synchronous like :mod:`bot.render.images`: the Discord layer calls it through
``asyncio.to_thread``. Text is drawn in the pictures' fonts (:mod:`bot.render.typeface`), so a
member's name in any script shows, at a size legible at embed width (about 400 px).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.locale import nt, t
from bot.render.typeface import draw_text, fit_text, text_width

__all__ = ["rating_chart"]

RGB = tuple[int, int, int]

_BACKGROUND: RGB = (28, 88, 60)  # the table felt of every other picture
_GRID: RGB = (58, 118, 90)
_TEXT: RGB = (240, 238, 228)
_COLOURS: tuple[RGB, ...] = ((244, 192, 64), (120, 200, 250), (240, 120, 120))
#: Type size, px: 18 at 640 px wide is about 11 px at the 400 px Discord shows an embed at.
TEXT_SIZE = 18
_MARGIN_LEFT, _MARGIN_RIGHT, _MARGIN_BOTTOM = 64, 16, 32
#: Title on the first row, legend on the second, then the plot.
_ROW = TEXT_SIZE + 10
_MARGIN_TOP = 2 * _ROW + 14


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
    height: int = 320,
    locale: str = "en",
) -> bytes:
    """A PNG of one line per game (its rating after each rated game, oldest first), with a
    labelled grid and a legend. Games with no rated game are left out; with none at all the
    picture says so. ``title`` and the series' names come worded; the chart's own words are
    in ``locale``."""
    image = Image.new("RGB", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    title = fit_text(title, TEXT_SIZE, width - 2 * _MARGIN_RIGHT)
    draw_text(draw, _MARGIN_RIGHT, 10, title, TEXT_SIZE, _TEXT)
    lines = {name: list(values) for name, values in series.items() if values}
    if not lines:
        draw_text(
            draw, _MARGIN_LEFT, height // 2, t(locale, "No rated games yet."), TEXT_SIZE, _TEXT
        )
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
        draw_text(draw, left - 6, y - TEXT_SIZE // 3, label, TEXT_SIZE, _TEXT, align="right")
    draw_text(draw, left, bottom + 10, "1", TEXT_SIZE, _TEXT)
    end = nt(locale, "{n} rated game", "{n} rated games", longest)
    draw_text(draw, right, bottom + 10, end, TEXT_SIZE, _TEXT, align="right")
    legend_x = float(right)
    legend_top = 10 + _ROW
    for index, (name, values) in enumerate(lines.items()):
        colour = _COLOURS[index % len(_COLOURS)]
        points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        x, y = points[-1]
        draw.ellipse([(x - 3, y - 3), (x + 3, y + 3)], fill=colour)
        label = f"{name} {values[-1]:,}"
        legend_x -= text_width(label, TEXT_SIZE) + 30
        box = legend_top + 1
        draw.rectangle([(legend_x, box), (legend_x + 12, box + 12)], fill=colour)
        draw_text(draw, legend_x + 18, legend_top, label, TEXT_SIZE, _TEXT)
    return _png(image)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
