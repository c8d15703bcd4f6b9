"""What every picture the bot sends shows, in words: its description (alt text).

Discord shows an attachment's description to a member whose screen reader reads the message,
or who turned images off; without one such a member cannot read his own hand. Each function
here says in words exactly what the matching renderer draws, in the reader's language, and
no more (the hand's description is only ever given to its owner, like the picture).

Descriptions are plain text (no markdown: a screen reader would read the backticks) with
tiles as notation and a short name (``6-5 Axe``), and fit Discord's limit of
:data:`DESCRIPTION_LIMIT` characters. The descriptions of a game's own pictures are its
family's, next to them (``bot/games/<family>/render/``); here are the shared helpers and the
descriptions of the pictures every game shares (ratings, tournaments).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.locale import is_chinese, t
from bot.tournament.describe import display_name, standings_text
from bot.tournament.event import Event
from bot.tournament.model import PlayerId
from bot.tournament.text import Say

__all__ = [
    "DESCRIPTION_LIMIT",
    "bracket_description",
    "fit_description",
    "rating_description",
    "sentences",
    "standings_description",
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


def sentences(parts: Sequence[str], locale: str) -> str:
    """Sentences one after the other: a space between them, none in Chinese (after 。)."""
    return ("" if is_chinese(locale) else " ").join(parts)


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
        label = {
            "GF": t(locale, "Grand final"),
            "GF2": t(locale, "Reset"),
            "3P": t(locale, "Third place"),
        }.get(node.id, node.id)
        line = t(locale, "{match}: {a} v {b}", match=label, a=a, b=b)
        if r.winner is not None:
            line += t(locale, ", won by {name}", name=name(r.winner, True))
        lines.append(line)
    return fit_description(
        t(locale, "Bracket of {name}: {lines}.", name=title, lines=t(locale, "; ").join(lines))
    )
