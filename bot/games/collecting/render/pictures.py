"""The pictures of Kap Shap and Kap Tai Shap: the discards of the table message, a seat's
hand with what just came in and the discards he may take, the winning arrangement, and the
discards of a replay page, each with its alt text."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from bot.engine import Tile
from bot.games.collecting.engine.actions import Take
from bot.games.collecting.engine.hands import HandGuide, guide_hand
from bot.games.collecting.engine.machine import Phase, View
from bot.games.collecting.render.alt_text import (
    discards_description,
    hand_description,
    witness_description,
)
from bot.games.collecting.render.table_art import (
    PoolGroup,
    discard_groups,
    pool_groups,
    render_discards,
    render_hand_view,
    render_pool,
)
from bot.games.collecting.render.witness_art import render_witness
from bot.games.collecting.render.words import DISCARDS_FILE, guide_text
from bot.locale import nt, t
from bot.render.alt_text import fit_description
from bot.render.family import Picture, SeatLabel

__all__ = ["HAND_FILE", "WIN_FILE", "CollectingPictures", "discards_title", "hand_picture"]

HAND_FILE = "hand.png"
WIN_FILE = "winning-hand.png"
STEP_FILE = "step.png"

HandPicture = tuple[tuple[Tile, ...], tuple[Tile, ...], tuple[PoolGroup, ...] | None]


def hand_picture(seat_view: View, legal: Sequence[Any]) -> HandPicture:
    """What a player's hand picture shows: his hand, the tiles just come in (drawn or taken
    this turn), and, on his turn to take or draw, the discards with those he may take (his
    legal takes) marked. Also the key that tells whether the picture must be sent again."""
    new: list[Tile] = []
    if seat_view.my_turn:
        new += [t for t in (seat_view.just_taken, seat_view.drawn) if t is not None]
    discards = None
    if seat_view.my_turn and seat_view.phase is Phase.TAKE_OR_DRAW and seat_view.pool:
        takeable = {a.tile for a in legal if isinstance(a, Take) and a.tile is not None}
        discards = discard_groups(seat_view.pool, takeable)
    return tuple(seat_view.hand), tuple(new), discards


def discards_title(groups: Sequence[PoolGroup], locale: str = "en") -> str:
    """The heading of the discards in a hand picture."""
    if any(g.takeable for g in groups):
        return t(locale, "Discards: you may take one framed in gold")
    return t(locale, "Discards: none may be taken now")


def grouped_tiles(guide: HandGuide) -> tuple[Tile, ...]:
    """A hand in the guide's order: the eye, each ten-pair, then the tiles not grouped."""
    tiles: list[Tile] = [] if guide.eye is None else list(guide.eye)
    for a, b in guide.pairs:
        tiles += [a, b]
    return (*tiles, *guide.loose)


def guide_caption(guide: HandGuide, locale: str) -> str:
    """The hand picture's caption with the guide on: ``Eye 6-6 · 2 ten-pairs · waiting on 3
    tiles`` (or ``a winning hand``)."""
    loc = locale
    parts = [
        t(loc, "Eye {tiles}", tiles=str(guide.eye[0]))
        if guide.eye is not None
        else t(loc, "No eye yet"),
        nt(loc, "{n} ten-pair", "{n} ten-pairs", len(guide.pairs)),
    ]
    if guide.winning:
        parts.append(t(loc, "a winning hand"))
    elif guide.waiting:
        parts.append(nt(loc, "waiting on {n} tile", "waiting on {n} tiles", len(guide.waiting)))
    return " · ".join(parts)


class CollectingPictures:
    """The Pictures of the collecting games (:class:`bot.render.family.Pictures`)."""

    def table(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Picture | None:
        """The face-up discards, the latest marked."""
        loc = locale
        groups = discard_groups(view.pool)
        title = t(loc, "Discards")
        if view.pool:
            last = view.pool[-1]
            title = t(
                loc,
                "Discards · latest {tile} from {name}",
                tile=last.tile,
                name=seats[last.seat].name,
            )
        png = render_discards(groups, title=title, locale=loc)
        return Picture(png, DISCARDS_FILE, discards_description(view.pool, loc))

    def hand(
        self, view: Any, legal: Sequence[Any], locale: str, *, guide: bool = False
    ) -> Picture | None:
        """The hand, the tiles just come in, and the discards the seat may take framed; with
        ``guide``, the eye first, then each ten-pair, then the tiles not grouped, under a
        caption that counts them (and the description says the guide too)."""
        hand, new, discards = hand_picture(view, legal)
        description = hand_description(hand, new, discards, locale)
        order: tuple[Tile, ...] | None = None
        title: str | None = None
        if guide and view.seat is not None and hand:
            grouped = guide_hand(hand, view.rules)
            order = grouped_tiles(grouped)
            title = guide_caption(grouped, locale)
            description = fit_description(f"{description} {guide_text(grouped, locale)}")
        png = render_hand_view(
            hand,
            new=new,
            discards=discards,
            title=title,
            discards_title=None if discards is None else discards_title(discards, locale),
            order=order,
            locale=locale,
        )
        return Picture(png, HAND_FILE, description)

    def hand_key(self, view: Any, legal: Sequence[Any]) -> Hashable:
        """What the hand picture shows (:func:`hand_picture`)."""
        return hand_picture(view, legal)

    def end(
        self, result: Any, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> Picture | None:
        """The winner's arrangement (None after a draw)."""
        if result.witness is None or result.winner is None:
            return None
        winner = seats[result.winner].name
        png = render_witness(
            result.witness, title=t(locale, "{name} wins", name=winner), locale=locale
        )
        alt = witness_description(winner, result.witness, rules.four_two_value, locale)
        return Picture(png, WIN_FILE, alt)

    def replay(self, table: Any, step: int, locale: str) -> Picture | None:
        """The discards after ``step``."""
        alt = t(locale, "The discards after step {step}", step=step)
        return Picture(render_pool(pool_groups(table.pool)), STEP_FILE, alt)

    def position(self, view: Any, legal: Sequence[Any], locale: str) -> Picture | None:
        """The seat's hand picture as it was."""
        return self.hand(view, legal, locale)
