"""The words and layout every game's simulator report shares: percentages and numbers as the
report prints them, a table whose columns line up in a terminal (Chinese characters take two
columns), the game's and the computer levels' names in the report's language."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bot.games import find
from bot.locale import t
from bot.locale.levels import level_name

__all__ = ["game_name", "levels_text", "ljust", "num", "pct", "table", "width"]


def pct(value: float | None, digits: int = 2) -> str:
    """A share as a percentage (``-`` for none)."""
    return "-" if value is None else f"{100 * value:.{digits}f} %"


def num(value: float | None, digits: int = 2) -> str:
    """A figure with ``digits`` decimals (``-`` for none)."""
    return "-" if value is None else f"{value:.{digits}f}"


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def ljust(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns."""
    return text + " " * max(0, columns - width(text))


def table(headers: Sequence[str], rows: Sequence[tuple[str, list[str]]]) -> list[str]:
    """The lines of a table: a header line, then one line per (label, values) row, the values
    right-aligned under their headers."""
    label_width = max(width(label) for label, _ in rows)
    widths = [
        max(width(headers[i]), *(len(values[i]) for _, values in rows)) for i in range(len(headers))
    ]
    # Headers may be Chinese (rule set names): padded by the columns they take.
    lines = [
        " " * label_width
        + "  "
        + "  ".join(" " * max(0, w - width(h)) + h for h, w in zip(headers, widths, strict=True))
    ]
    for label, values in rows:
        cells = "  ".join(v.rjust(w) for v, w in zip(values, widths, strict=True))
        lines.append(f"{ljust(label, label_width)}  {cells}")
    return lines


def game_name(game: str, locale: str) -> str:
    """The game in a report: its name as ``--game`` takes it in English, its short title in
    Chinese."""
    return str(game) if locale == "en" else t(locale, find(str(game)).short)


def levels_text(chosen: Sequence[str], locale: str) -> str:
    """The computer levels by seat: the codes ``--ai`` takes in English, the levels' names in
    Chinese (高手, not expert)."""
    names = [code if locale == "en" else level_name(locale, code) for code in chosen]
    if len(set(chosen)) == 1:
        return t(locale, "{level} (every seat)", level=names[0])
    return " / ".join(names)
