"""Text (Discord markdown) for tables, hands and rules: pure functions of engine values.

The Discord layer wraps these strings in embeds; nothing here imports discord, so the wording is
testable on its own and the same for every surface (table message, DM, ephemeral reply).

What is the same for every game lives here: durations, counts, tiles, seats' labels, the recent
lines, titles (from the registry). What a game says of its own events, turns, results, moves and
rules is its family's (:class:`bot.render.family.Words`, in ``bot/games/<family>/render/``):
the functions below of those names (:func:`public_event_text`, :func:`turn_text`,
:func:`rules_text` …) ask the game's family, found from the rules a value carries or, for a bare
event, action or result, by :func:`bot.render.family.render_for`.

What a function may show is decided by what it is given: the public functions take a spectator's
view (``view(state, None)``), whose ``hand`` is empty; a seat's own hand is only ever worded by
its family's words (the collecting games' ``hand_text``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine import Tile
from bot.games import UnknownGame, find, games
from bot.limits import format_duration
from bot.locale import N_, EventLine, Message, nt, t
from bot.locale import tile_name as local_tile_name
from bot.render.family import GameRender, SeatLabel, render_for, render_of

__all__ = [
    "GAME_TITLES",
    "SeatLabel",
    "action_label",
    "deadline_text",
    "game_title",
    "legal_text",
    "others_moves_text",
    "plural",
    "private_event_text",
    "recent_text",
    "result_text",
    "rules_summary",
    "rules_text",
    "seats_text",
    "tile_name",
    "turn_text",
    "unbroken",
]

GAME_TITLES: Mapping[str, str] = {game.name: game.title for game in games()}
"""The built-in games' titles (message ids) by name; :func:`game_title` reads the registry."""


WORD_JOINER = "\u2060"
"""Joins a tile's hyphen to its pips in displayed text (:func:`unbroken`)."""

# A tile's notation standing on its own (not inside a number, a date or a range like 2-20).
_NOTATION = re.compile(r"(?<![0-9A-Za-z_-])([1-6])-([1-6])(?![0-9A-Za-z_-])")


def unbroken(text: str) -> str:
    """``text`` for display, with every tile's notation kept on one line.

    Browsers and phones may wrap a line after a hyphen, so ``4-4`` near the end of a line
    showed as ``4-`` and ``4`` on the next (seen at a 400 px phone width; a headless Chromium
    splits ASCII ``4-4`` at most widths). The hyphen is joined to both pips with U+2060 WORD
    JOINER, which forbids a break on either side (UAX #14) and is invisible: a default-ignorable
    character, drawn by no font and skipped by screen readers, so the glyph stays the message
    font's own ASCII hyphen. A non-breaking hyphen (U+2011) also holds the line together but is
    another character: Discord's own font may lack it (a fallback glyph of another width, or a
    box), and some screen readers say "non-breaking hyphen". Backticks alone do not help: inline
    code wraps at a hyphen too.

    Only what members read goes through here (message text, embeds). What is parsed or stored
    stays ASCII: the engine's notation, records, custom ids, autocomplete values, button labels,
    picture captions and descriptions; and :func:`bot.engine.plain_notation` reads a tile copied
    back from a message."""
    return _NOTATION.sub(rf"\1{WORD_JOINER}-{WORD_JOINER}\2", text)


def game_title(game: str, locale: str = "en") -> str:
    """``Kap Shap 夾十`` (``夾十`` in zh-TW, ``夹十`` in zh-CN): the registry's title."""
    try:
        title = find(game).title
    except UnknownGame:
        return str(game)
    return t(locale, title)


def tile_name(tile: Tile, locale: str = "en") -> str:
    """The tile's notation in code style, then its English and Chinese names (6-5 Axe 斧頭);
    in Chinese, the notation and the Chinese name in the locale's script (6-5 斧头)."""
    if locale != "en":
        return f"`{tile}` {local_tile_name(locale, tile.english, tile.chinese)}"
    return f"`{tile}` {tile.english} {tile.chinese}"


def tile_label(tile: Tile, locale: str = "en") -> str:
    """A tile in plain text (a select option): ``6-5 Axe 斧頭`` / ``6-5 斧头``."""
    return tile_name(tile, locale).replace("`", "")


def short_tile(tile: Tile, locale: str = "en") -> str:
    """A tile's English name, or its Chinese name in the locale's script (no notation)."""
    if locale != "en":
        return local_tile_name(locale, tile.english, tile.chinese)
    return tile.english


def duration_text(seconds: int, locale: str = "en") -> str:
    """:func:`bot.limits.format_duration` in any language: ``2 min`` / ``2 分鐘``."""
    if locale == "en":
        return format_duration(seconds)
    seconds = max(int(seconds), 0)
    if seconds == 0:
        return t(locale, "{n} s", n=0)
    parts = []
    for size, one, many in (
        (86_400, N_("{n} day"), N_("{n} days")),
        (3_600, N_("{n} h"), N_("{n} h")),
        (60, N_("{n} min"), N_("{n} min")),
        (1, N_("{n} s"), N_("{n} s")),
    ):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(t(locale, one if count == 1 else many, n=f"{count:,}"))
    return " ".join(parts)


def count_text(locale: str, count: int, noun: str) -> str:
    """``plural`` in any language: ``3 tiles`` / ``3 張牌``. ``noun``: tile, chip, point."""
    n = f"{count:,}"
    if noun == "tile":
        return nt(locale, "{n} tile", "{n} tiles", count, n=n)
    if noun == "chip":
        return nt(locale, "{n} chip", "{n} chips", count, n=n)
    if noun == "point":
        return nt(locale, "{n} point", "{n} points", count, n=n)
    return plural(count, noun)


def deadline_text(deadline: float) -> str:
    """A Discord timestamp that each client shows as relative time ("in 2 minutes")."""
    return f"<t:{int(deadline)}:R>"


def seats_text(view: Any, seats: Sequence[SeatLabel], locale: str = "en") -> str:
    """Seats in play order with what each holds (hand sizes; Tsung Shap: score and pile); the
    player to act is marked ▶ (the game's :meth:`~bot.render.family.Words.seats`)."""
    return render_of(view.rules.game).seats(view, seats, locale)


def turn_text(
    view: Any, seats: Sequence[SeatLabel], deadline: float | None, locale: str = "en"
) -> str:
    """Whose turn it is, what he is expected to do, and when his time runs out."""
    return render_of(view.rules.game).turn(view, seats, deadline, locale)


def plural(count: int, noun: str) -> str:
    """``1 tile``, ``2 tiles``, ``1,000 chips``: a count with its noun, singular for one."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def recent_text(lines: Sequence[str], limit: int = 8, locale: str = "en") -> str:
    """The last few public events, oldest first."""
    shown = [line for line in lines if line][-limit:]
    return "\n".join(shown) if shown else t(locale, "*(nothing yet)*")


def result_text(result: Any, seats: Sequence[SeatLabel], locale: str = "en") -> str:
    """How the game ended, in one line."""
    return render_for(result).result(result, seats, locale)


def private_event_text(
    event: object, seat: int, names: Sequence[str], locale: str = "en"
) -> str | None:
    """One of ``seat``'s own moves told to him ("You drew 6-5 Axe 斧頭."); None for events
    that are not his moves."""
    words = _words_of(event)
    return None if words is None else words.private_event(event, seat, names, locale)


def _words_of(value: object) -> GameRender | None:
    """The render facet that words a bare event, None when no family claims it."""
    try:
        return render_for(value)
    except LookupError:
        return None


def _their_move(event: object, reader: int | None, names: Sequence[str], locale: str) -> str | None:
    """Another seat's move in a few words, as everyone saw it (the game's
    :meth:`~bot.render.family.Words.their_move`)."""
    words = _words_of(event)
    return None if words is None else words.their_move(event, reader, names, locale)


def others_moves_text(
    moves: Sequence[tuple[int, object]],
    names: Sequence[str],
    reader: int | None,
    locale: str = "en",
    *,
    limit: int = 6,
) -> str | None:
    """What the other seats did since ``reader``'s last turn, in one or two lines: each seat's
    moves together, in play order (``bob: took 6-5, discarded 3-1; carol: drew a tile,
    discarded 4-4``); the last ``limit`` seats' turns when there were more. Only public
    events are worded, so it never tells a tile drawn from the wall (a tile is named only
    when it was face up). None when there is nothing to tell."""
    groups: list[tuple[int, list[str]]] = []
    for seat, event in moves:
        if seat == reader:
            continue
        words = _their_move(event, reader, names, locale)
        if words is None:
            continue
        if groups and groups[-1][0] == seat:
            groups[-1][1].append(words)
        else:
            groups.append((seat, [words]))
    if not groups:
        return None
    shown = [
        t(locale, "{name}: {moves}", name=f"**{names[seat]}**", moves=t(locale, ", ").join(words))
        for seat, words in groups[-limit:]
    ]
    return ("… " if len(groups) > limit else "") + t(locale, "; ").join(shown)


def localize(line: str, locale: str) -> str:
    """A line the services produced, in ``locale``: a :class:`~bot.locale.Message` says itself,
    an :class:`~bot.locale.EventLine` is worded here; any other text is shown as it is."""
    if locale == "en":
        return str(line)
    if isinstance(line, Message):
        return line.localized(locale)
    if isinstance(line, EventLine):
        return public_event_text(line.event, line.names, locale) or str(line)
    return str(line)


def public_event_text(event: object, names: Sequence[str], locale: str = "en") -> str | None:
    """A public event (what every player may see) in ``locale``: the table's "Recent" lines.
    None for an event no game words (the caller keeps the English)."""
    words = _words_of(event)
    return None if words is None else words.public_event(event, names, locale)


def action_label(action: object, locale: str = "en") -> str:
    """A short button label for an action."""
    words = _words_of(action)
    if words is None:
        raise AssertionError(f"unknown action {action!r}")
    return words.action_label(action, locale)


def legal_text(
    view: Any,
    legal: Sequence[Any],
    locale: str = "en",
    *,
    opener: bool = True,
    turned: bool = True,
) -> str:
    """What the seat may do now, in words (for his DM). Without ``opener`` it does not say
    "It is your turn" (a line above already does), and without ``turned`` (Tsung Shap) it does
    not name the tile just turned over (the player's own move, told just above)."""
    return render_of(view.rules.game).moves(view, legal, locale, opener=opener, turned=turned)


def hand_prompt(view: Any, legal: Sequence[Any], locale: str = "en") -> str:
    """The one line of a hand DM saying what to do (the game's
    :meth:`~bot.render.family.Words.prompt`)."""
    return render_of(view.rules.game).prompt(view, legal, locale)


def rules_summary(rules: Any, locale: str = "en") -> str:
    """One line: ``Culin rules · 2 players · 1 set · hand of 8``."""
    return render_of(rules.game).rules_summary(rules, locale)


def rules_text(
    rules: Any,
    *,
    ante: int | None = None,
    turn_seconds: int | None = None,
    locale: str = "en",
) -> str:
    """An explanation of the rules in force, as bullet points."""
    return render_of(rules.game).rules_text(rules, locale, ante=ante, turn_seconds=turn_seconds)
