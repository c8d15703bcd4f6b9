"""What every picture the bot sends shows, in words: its description (alt text).

Discord shows an attachment's description to a member whose screen reader reads the message,
or who turned images off; without one such a member cannot read his own hand. Each function
here says in words exactly what the matching renderer draws, in the reader's language, and
no more (the hand's description is only ever given to its owner, like the picture).

Descriptions are plain text (no markdown: a screen reader would read the backticks) with
tiles as notation and a short name (``6-5 Axe``), and fit Discord's limit of
:data:`DESCRIPTION_LIMIT` characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.engine import Tile, sort_tiles
from bot.engine.rules import FourTwo
from bot.locale import is_chinese, t
from bot.render.shapes import Arrangement, FaceUp
from bot.render.table_art import PoolGroup
from bot.render.text import count_text, pool_text, short_tile, witness_text
from bot.tournament.describe import display_name, standings_text
from bot.tournament.event import Event
from bot.tournament.model import PlayerId
from bot.tournament.text import Say

__all__ = [
    "DESCRIPTION_LIMIT",
    "bracket_description",
    "discards_description",
    "fit_description",
    "hand_description",
    "rating_description",
    "row_description",
    "standings_description",
    "witness_description",
]

DESCRIPTION_LIMIT = 1024
"""The longest description Discord accepts for an attachment."""


def fit_description(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """``text`` cut to Discord's limit, at a separator when it can be."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    for mark in ("; ", ", ", " "):
        if mark in cut:
            cut = cut[: cut.rindex(mark)]
            break
    return cut + "…"


def _tiles(tiles: Iterable[Tile], locale: str) -> str:
    """``6-6 Heaven ×2, 3-1 Harmony`` in rank order (the pictures' order)."""
    counts: dict[Tile, int] = {}
    for tile in sort_tiles(tiles):
        counts[tile] = counts.get(tile, 0) + 1
    return t(locale, ", ").join(
        f"{tile} {short_tile(tile, locale)}" + (f" ×{n}" if n > 1 else "")
        for tile, n in counts.items()
    )


def _groups(groups: Iterable[PoolGroup], locale: str) -> str:
    return t(locale, ", ").join(
        f"{g.tile} {short_tile(g.tile, locale)}" + (f" ×{g.count}" if g.count > 1 else "")
        for g in groups
    )


def hand_description(
    hand: Sequence[Tile],
    new: Sequence[Tile] = (),
    discards: Sequence[PoolGroup] | None = None,
    locale: str = "en",
) -> str:
    """The hand picture of :func:`~bot.render.table_art.render_hand_view`: the hand, the tiles
    just come in, and (on a turn to take or draw) the discards, those he may take first."""
    parts = [
        t(
            locale,
            "Your hand, {count}: {tiles}.",
            count=count_text(locale, len(hand), "tile"),
            tiles=_tiles(hand, locale) or t(locale, "no tiles"),
        )
    ]
    if new:
        parts.append(t(locale, "New: {tiles}.", tiles=_tiles(new, locale)))
    if discards:
        takeable = [g for g in discards if g.takeable]
        others = [g for g in discards if not g.takeable]
        if takeable:
            parts.append(
                t(locale, "Discards you may take: {tiles}.", tiles=_groups(takeable, locale))
            )
            if others:
                parts.append(t(locale, "Other discards: {tiles}.", tiles=_groups(others, locale)))
        else:
            parts.append(
                t(
                    locale,
                    "Discards, none of which you may take now: {tiles}.",
                    tiles=_groups(discards, locale),
                )
            )
    return fit_description(_sentences(parts, locale))


def _sentences(parts: Sequence[str], locale: str) -> str:
    """Sentences one after the other: a space between them, none in Chinese (after 。)."""
    return ("" if is_chinese(locale) else " ").join(parts)


def discards_description(pool: Sequence[FaceUp], locale: str = "en") -> str:
    """The table message's discards picture: the face-up discards by kind, dead ones apart."""
    return fit_description(
        t(locale, "Discards: {tiles}", tiles=pool_text(pool, locale).replace("`", ""))
    )


def row_description(
    row: Sequence[Tile], turned: Tile | None = None, name: str = "", locale: str = "en"
) -> str:
    """Tsung Shap's row picture: the row from left to right, and the tile just turned over."""
    if row:
        text = t(
            locale,
            "The row, left to right: {tiles}.",
            tiles=t(locale, ", ").join(f"{x} {short_tile(x, locale)}" for x in row),
        )
    else:
        text = t(locale, "The row is empty.")
    if turned is not None:
        text = _sentences(
            [
                text,
                t(
                    locale,
                    "{name} turned over {tile}.",
                    name=name,
                    tile=f"{turned} {short_tile(turned, locale)}",
                ),
            ],
            locale,
        )
    return fit_description(text)


def witness_description(
    name: str, witness: Arrangement, four_two: FourTwo = FourTwo.THREE, locale: str = "en"
) -> str:
    """The winning hand's picture: the eye and each ten-pair with its total."""
    arrangement = witness_text(witness, four_two, locale).replace("`", "")
    return fit_description(
        t(locale, "The winning hand of {name}: {arrangement}.", name=name, arrangement=arrangement)
    )


def rating_description(name: str, series: Mapping[str, Sequence[int]], locale: str = "en") -> str:
    """The rating chart: for each game, the rating before the first rated game drawn and after
    the last one, and how many games the line covers."""
    lines = [
        t(locale, "{game}: {last} after one game", game=game, last=f"{values[-1]:,}")
        if len(values) == 1
        else t(
            locale,
            "{game}: from {first} to {last} over {n} games",
            game=game,
            first=f"{values[0]:,}",
            last=f"{values[-1]:,}",
            n=len(values),
        )
        for game, values in series.items()
        if values
    ]
    if not lines:
        return fit_description(t(locale, "Rating of {name}: no rated games yet.", name=name))
    return fit_description(
        t(
            locale,
            "Rating of {name} after each rated game. {lines}.",
            name=name,
            lines=t(locale, "; ").join(lines),
        )
    )


def _say(locale: str) -> Say:
    """The tournament texts' :data:`~bot.tournament.text.Say` in ``locale``."""

    def say(msgid: str, /, **values: Any) -> str:
        return t(locale, msgid, **values)

    return say


def standings_description(event: Event, title: str, locale: str = "en") -> str:
    """The standings picture: every line of the standings, as the post's text words them."""
    lines = standings_text(event, limit=40, say=_say(locale)).splitlines()
    return fit_description(
        t(locale, "Standings of {name}: {lines}", name=title, lines=t(locale, "; ").join(lines))
    )


def bracket_description(event: Event, title: str, locale: str = "en") -> str | None:
    """The bracket picture of :func:`~bot.render.tournament_art.render_event_bracket`: each
    match it draws, with its players and, once played, its winner (None without a bracket)."""
    found = event.bracket()
    state = event.bracket_state()
    if found is None or state is None:
        return None
    say = _say(locale)

    def name(pid: PlayerId | None, settled: bool) -> str:
        if pid is None:
            return t(locale, "bye") if settled else "?"
        return display_name(event, pid, say)

    lines = []
    for node in found[0].nodes:
        r = state[node.id]
        if r.skipped or (r.decided and r.loser is None and None in r.players):
            continue  # a reset final not needed, or a bye: the picture leaves them out
        a, b = (name(p, s) for p, s in zip(r.players, r.settled, strict=True))
        label = {"GF": t(locale, "Grand final"), "GF2": t(locale, "Reset")}.get(node.id, node.id)
        line = t(locale, "{match}: {a} v {b}", match=label, a=a, b=b)
        if r.winner is not None:
            line += t(locale, ", won by {name}", name=name(r.winner, True))
        lines.append(line)
    return fit_description(
        t(locale, "Bracket of {name}: {lines}.", name=title, lines=t(locale, "; ").join(lines))
    )
