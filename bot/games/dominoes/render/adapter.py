"""What the two domino families' render facets share, on today's render code.

Each family words and draws its own games (``bot/games/<family>/render/words.py`` and
``pictures.py``); what the cogs still build from the game's own types (buttons, verbs) raises
NotImplementedError naming the step that moves it behind the facet; nothing calls those methods
before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.render.family import ButtonSpec, Choice, SelectSpec

__all__ = ["DominoRender"]


class DominoRender:
    """The shared part of a domino family's render facet."""

    # -- surface ------------------------------------------------------------------------------

    def buttons(
        self, view: Any, legal: Sequence[Any], locale: str
    ) -> list[ButtonSpec | SelectSpec]:
        """Not here yet: cogs/ui.py builds the views (moves in step 9b)."""
        raise NotImplementedError("moves in step 9b (today cogs/ui.py hand_view)")

    def verb(
        self, verb: str, options: Mapping[str, str | None], view: Any, legal: Sequence[Any]
    ) -> str:
        """Not here yet: cogs/play.py reads the verbs (moves in step 9b)."""
        raise NotImplementedError("moves in step 9b (today cogs/play.py)")

    def choices(
        self, verb: str, option: str, view: Any, legal: Sequence[Any], locale: str
    ) -> list[Choice]:
        """Not here yet: cogs/play.py completes the options (moves in step 9b)."""
        raise NotImplementedError("moves in step 9b (today cogs/play.py)")
