"""Where and how a member plays Kap Shap and Kap Tai Shap (:class:`bot.render.family.Surface`):
on his hand message, with buttons for each legal move, and with the slash verbs ``/take
[tile]``, ``/draw``, ``/discard tile`` and ``/declare``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.collecting.engine.machine import View
from bot.games.dominoes.engine.actions import Draw
from bot.games.dominoes.render.surface import tile_choice, unknown_verb
from bot.locale import Message, t
from bot.render.family import ButtonSpec, Choice, SelectSpec, VerbRefusal
from bot.render.text import action_label, tile_label

__all__ = ["TAKE_BUTTONS_MAX", "CollectingSurface"]

TAKE_BUTTONS_MAX = 3
"""More kinds of discards to take than this go into a select (a row holds five buttons)."""


class CollectingSurface:
    """The collecting games' surface: a mixin of their render facet."""

    @property
    def where(self) -> Literal["hand", "table"]:
        """A seat plays from his hand message: his tiles are his own."""
        return "hand"

    def buttons(
        self, view: Any, legal: Sequence[Any], locale: str
    ) -> list[ButtonSpec | SelectSpec]:
        """Declare and Draw, a button per discard he may take (a select when there are more
        than :data:`TAKE_BUTTONS_MAX`), then a button per tile he may discard (ten at most);
        nothing off-turn."""
        seat_view: View = view
        if not seat_view.my_turn or not legal:
            return []
        out: list[ButtonSpec | SelectSpec] = []
        if Declare() in legal:
            out.append(ButtonSpec("declare", "", t(locale, "Declare"), "success", 0))
        takes = [a.tile for a in legal if isinstance(a, Take) and a.tile is not None]
        if Draw() in legal:
            out.append(ButtonSpec("draw", "", t(locale, "Draw"), "primary", 0))
        if 0 < len(takes) <= TAKE_BUTTONS_MAX:
            out += [
                ButtonSpec("take", str(tile), action_label(Take(tile), locale), "primary", 0)
                for tile in takes
            ]
        elif takes:
            options = tuple(Choice(tile_label(tile, locale), str(tile)) for tile in takes[:25])
            out.append(SelectSpec("choose-take", options, t(locale, "Take a discard…"), 3))
        discards = [a.tile for a in legal if isinstance(a, Discard)]
        out += [
            ButtonSpec("discard", str(tile), action_label(Discard(tile), locale), row=1 + i // 5)
            for i, tile in enumerate(discards[:10])
        ]
        return out

    def verb(
        self, verb: str, options: Mapping[str, str | None], view: Any, legal: Sequence[Any]
    ) -> str:
        """``/take [tile]`` takes a discard (the most recent one he may take without a tile),
        ``/draw`` draws, ``/discard tile`` discards, ``/declare`` declares; ``side`` is Tsung
        Shap's and refused here."""
        tile = options.get("tile")
        blank = tile is None or not tile.strip()
        if verb == "take":
            return "take" if blank else f"take {tile}"
        if verb == "draw":
            return "draw"
        if verb == "discard":
            if options.get("side") is not None:
                raise VerbRefusal(Message("`side` is for Tsung Shap: name the tile to discard."))
            if blank:
                raise VerbRefusal(Message("Name the tile to discard, e.g. `/discard tile:6-5`."))
            return f"discard {tile}"
        if verb == "declare":
            return "declare"
        raise unknown_verb(verb)

    def choices(
        self, verb: str, option: str, view: Any, legal: Sequence[Any], locale: str
    ) -> list[Choice]:
        """``/discard tile``: the tiles he may discard on his turn, else his hand; ``/take
        tile``: the discards he may take on his turn, else the live discards (each with how
        many there are)."""
        seat_view: View = view
        if (verb, option) == ("discard", "tile"):
            counts = Counter(seat_view.hand)
            if seat_view.my_turn:
                tiles = [a.tile for a in legal if isinstance(a, Discard)]
            else:
                tiles = sorted(counts, key=lambda tile: tile.index)
            return [tile_choice(tile, counts[tile], locale) for tile in tiles]
        if (verb, option) == ("take", "tile"):
            live = Counter(p.tile for p in seat_view.pool if not p.dead)
            if seat_view.my_turn:
                tiles = [a.tile for a in legal if isinstance(a, Take) and a.tile is not None]
            else:
                tiles = sorted(live, key=lambda tile: tile.index)
            return [tile_choice(tile, live[tile], locale) for tile in tiles]
        return []
