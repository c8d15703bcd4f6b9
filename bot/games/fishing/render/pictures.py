"""The pictures of Tsung Shap: the row with the tile just turned over (the table message, a
review's position) and the row of a replay page, each with its alt text. Nobody has a hand,
and the end shows nothing the table message does not."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from bot.games.fishing.render.alt_text import row_description
from bot.games.fishing.render.row_art import render_fishing_row, render_row
from bot.games.fishing.render.words import ROW_FILE
from bot.locale import t
from bot.render.family import Picture, SeatLabel

__all__ = ["FishingPictures"]

STEP_FILE = "step.png"
POSITION_FILE = "position.png"


class FishingPictures:
    """The Pictures of Tsung Shap (:class:`bot.render.family.Pictures`)."""

    def table(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Picture | None:
        """The row, and the tile just turned over beside it."""
        loc = locale
        turned = view.turned if view.result is None else None
        name = seats[view.current].name
        title = None if turned is None else t(loc, "{name} turned {tile}", name=name, tile=turned)
        png = render_fishing_row(view.row, turned, title=title, locale=loc)
        return Picture(png, ROW_FILE, row_description(view.row, turned, name, loc))

    def hand(
        self, view: Any, legal: Sequence[Any], locale: str, *, guide: bool = False
    ) -> Picture | None:
        """None: nobody has a hand (and so no guide)."""
        return None

    def hand_key(self, view: Any, legal: Sequence[Any]) -> Hashable:
        """Nothing: there is no hand picture."""
        return None

    def end(
        self, result: Any, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> Picture | None:
        """None: the table message shows the final row and scores."""
        return None

    def replay(self, table: Any, step: int, locale: str) -> Picture | None:
        """The row after ``step``."""
        alt = t(locale, "The row after step {step}", step=step)
        return Picture(render_row(table.row), STEP_FILE, alt)

    def position(self, view: Any, legal: Sequence[Any], locale: str) -> Picture | None:
        """The row and the seat's tile turned over, described for screen readers."""
        png = render_fishing_row(view.row, view.turned, locale=locale)
        name = t(locale, "You") if view.current == view.seat else view.seat_names[view.current]
        return Picture(png, POSITION_FILE, row_description(view.row, view.turned, name, locale))
