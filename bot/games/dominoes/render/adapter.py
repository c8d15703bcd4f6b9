"""What the two domino families' render facets share, on today's render code.

:mod:`bot.render.text` words the events, turns, results and rules of both families (it tells
them apart itself), so both facets hand their values to it. What the cogs still build from the
game's own types (sheets, pictures, buttons, verbs) raises NotImplementedError naming the step
that moves it behind the facet; nothing calls those methods before.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from bot.render import text
from bot.render.family import ButtonSpec, Choice, Field, Picture, SelectSpec, Sheet
from bot.render.text import SeatLabel

__all__ = ["DominoRender"]


class DominoRender:
    """The shared part of a domino family's render facet."""

    # -- words --------------------------------------------------------------------------------

    def rules_summary(self, rules: Any, locale: str) -> str:
        """One line under the table's title (:func:`bot.render.text.rules_summary`)."""
        return text.rules_summary(rules, locale)

    def rules_text(
        self,
        rules: Any,
        locale: str,
        *,
        ante: int | None = None,
        turn_seconds: int | None = None,
    ) -> str:
        """The rules in force (:func:`bot.render.text.rules_text`)."""
        return text.rules_text(rules, ante=ante, turn_seconds=turn_seconds, locale=locale)

    def public_event(self, event: Any, names: Sequence[str], locale: str) -> str | None:
        """:func:`bot.render.text.public_event_text`."""
        return text.public_event_text(event, names, locale)

    def private_event(self, event: Any, seat: int, names: Sequence[str], locale: str) -> str | None:
        """:func:`bot.render.text.private_event_text`."""
        return text.private_event_text(event, seat, names, locale)

    def replay_event(self, event: Any, names: Sequence[str], rules: Any, locale: str) -> str | None:
        """Not here yet: cogs/replay.py words them (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/replay.py replay_line)")

    def action_label(self, action: Any, locale: str) -> str:
        """:func:`bot.render.text.action_label`."""
        return text.action_label(action, locale)

    def turn(
        self, view: Any, seats: Sequence[SeatLabel], deadline: float | None, locale: str
    ) -> str:
        """:func:`bot.render.text.turn_text`."""
        return text.turn_text(view, seats, deadline, locale)

    def result(self, result: Any, seats: Sequence[SeatLabel], locale: str) -> str:
        """:func:`bot.render.text.result_text`."""
        return text.result_text(result, seats, locale)

    def end_lines(
        self, result: Any, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> list[str]:
        """Not here yet: cogs/presenter.py announces the end (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/presenter.py announce_end)")

    def prompt(self, view: Any, legal: Sequence[Any], locale: str) -> str:
        """Not here yet: two functions of bot/render/text.py by game (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today bot/render/text.py hand_prompt)")

    def table_sheet(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Sheet:
        """Not here yet: cogs/presenter.py builds the embed (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/presenter.py table_embed)")

    def hand_fields(self, view: Any, table_link: str, locale: str) -> list[Field]:
        """Not here yet: cogs/presenter.py builds the hand message (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/presenter.py hand_payload)")

    def replay_sheet(self, table: Any, seats_views: Sequence[Any], step: int, locale: str) -> Sheet:
        """Not here yet: cogs/replay.py builds a page (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/replay.py replay_page)")

    # -- pictures -----------------------------------------------------------------------------

    def table(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Picture | None:
        """Not here yet: cogs/presenter.py draws it (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/presenter.py table_files)")

    def hand(self, view: Any, legal: Sequence[Any], locale: str) -> Picture | None:
        """Not here yet: cogs/presenter.py draws it (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/presenter.py hand_picture)")

    def hand_key(self, view: Any, legal: Sequence[Any]) -> Hashable:
        """Not here yet: cogs/presenter.py signs a hand (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/presenter.py signature)")

    def end(self, result: Any, rules: Any, title: str, locale: str) -> Picture | None:
        """Not here yet: cogs/presenter.py draws the witness (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today bot/render/images.py)")

    def replay(self, table: Any, step: int, locale: str) -> Picture | None:
        """Not here yet: cogs/replay.py draws a page (moves in step 9a)."""
        raise NotImplementedError("moves in step 9a (today cogs/replay.py replay_page)")

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
