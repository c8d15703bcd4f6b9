"""PNG pictures of a tournament: the elimination bracket and the standings table.

Pure and synchronous like :mod:`bot.render.images`: they take the values of
:mod:`bot.tournament` and return PNG bytes; the Discord layer calls them through
``asyncio.to_thread`` (each call builds its own image; fonts are kept per thread).

Every text is drawn by :mod:`bot.render.typeface` (``_text`` / ``_text_right``): Noto Sans for
Latin with its accents, Noto Sans CJK for Chinese, so any member's name is drawn, never boxes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.locale import t
from bot.render.typeface import draw_text, fit_text, text_width
from bot.tournament.arena import ArenaStanding
from bot.tournament.bracket import THIRD_PLACE, Bracket, KnockoutStanding, Node, Resolved
from bot.tournament.describe import display_name, knockout_status
from bot.tournament.event import DISQUALIFIED, Event
from bot.tournament.groups import advancing, group_name
from bot.tournament.model import PlayerId
from bot.tournament.standings import PairStanding, TableStanding
from bot.tournament.text import Say

__all__ = [
    "render_bracket",
    "render_event_bracket",
    "render_event_standings",
    "render_standings",
]

RGB = tuple[int, int, int]

FELT: RGB = (28, 88, 60)
_TEXT: RGB = (240, 238, 228)
_DIM: RGB = (160, 184, 168)
_GOLD: RGB = (244, 192, 64)
_BOX: RGB = (20, 60, 42)
_BOX_EDGE: RGB = (96, 150, 120)
_LINE: RGB = (150, 190, 166)
_ROW_ALT: RGB = (24, 76, 52)

_MARGIN = 16
_TITLE = 20
_NAME = 13
_SMALL = 11
_BOX_W = 168
_BOX_H = 38
_COL_GAP = 34
_PITCH = _BOX_H + 20  # vertical room per first-round match, its label included
_NAME_WIDTH = _BOX_W - 34  # room for a name in a bracket box, its seed number beside it
_STANDINGS_NAME_WIDTH = 200


def _text(draw: ImageDraw.ImageDraw, x: float, top: float, text: str, size: int, fill: RGB) -> None:
    # Every text goes through the project's typeface: Latin with accents in Noto Sans, Chinese
    # in Noto Sans CJK, placed by the top of its capitals.
    draw_text(draw, x, top, text, size, fill)


def _text_right(
    draw: ImageDraw.ImageDraw, right: float, top: float, text: str, size: int, fill: RGB
) -> None:
    draw_text(draw, right, top, text, size, fill, align="right")


def _png(image: Image.Image) -> bytes:
    quantised = image.convert("RGB").quantize(
        colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    # Fast octree and no `optimize`: a large bracket is encoded several times faster, for a
    # file about a third larger.
    quantised.save(out, format="PNG")
    return out.getvalue()


def _short(name: str, width: int = _NAME_WIDTH) -> str:
    # Cut by width, not characters: a Chinese character is about twice as wide as a Latin one.
    return fit_text(name, _NAME, width)


def _score(half_points: int) -> str:
    """Half-points in ASCII (the built-in font has no ½): 5 -> ``2.5``."""
    whole, half = divmod(half_points, 2)
    return f"{whole}.5" if half else str(whole)


# ------------------------------------------------------------------------------ bracket


@dataclass(frozen=True)
class _Box:
    x: int
    cy: float


def _hidden(bracket: Bracket, state: Mapping[str, Resolved]) -> set[str]:
    """Nodes not drawn: byes decided without a game (a walkover or two empty slots) whose own
    side's feeders are hidden too, and a reset final that is not needed. Leaving them out keeps
    a bracket of 130 players in a 256-slot draw from being mostly empty boxes."""
    hidden: set[str] = set()
    by_id = {n.id: n for n in bracket.nodes}
    for node in bracket.nodes:
        r = state[node.id]
        if r.skipped:
            hidden.add(node.id)
            continue
        if not (r.decided and r.loser is None and None in r.players):
            continue
        same_side = [
            str(s.ref)
            for s in node.slots
            if s.kind != "seed" and by_id[str(s.ref)].side == node.side
        ]
        if all(f in hidden for f in same_side):
            hidden.add(node.id)
    return hidden


def _layout(bracket: Bracket, hidden: set[str]) -> tuple[dict[str, _Box], int, int, int]:
    """Where each shown node's box goes: columns by round; a box is centred between its shown
    feeders, and one without any takes the next free row of its side, in bracket order.
    Returns the boxes, the picture's width and height, and the top of the losers' section."""
    by_id = {n.id: n for n in bracket.nodes}
    boxes: dict[str, _Box] = {}
    top = _MARGIN + _TITLE + 34  # the title, the section label, the first box label

    def column(i: int) -> int:
        return _MARGIN + i * (_BOX_W + _COL_GAP)

    def place(final: str, side: str, origin: float) -> float:
        rows = 0

        def centre(node_id: str) -> float | None:
            nonlocal rows
            node = by_id[node_id]
            own = [
                str(s.ref)
                for s in node.slots
                if s.kind != "seed" and by_id[str(s.ref)].side == side
            ]
            shown = [y for y in (centre(f) for f in own) if y is not None]
            if node_id in hidden:
                return None
            if shown:
                cy = sum(shown) / len(shown)
            else:
                cy = origin + (rows + 0.5) * _PITCH
                rows += 1
            boxes[node_id] = _Box(column(node.round - 1), cy)
            return cy

        centre(final)
        return origin + max(rows, 1) * _PITCH

    w_rounds = max(n.round for n in bracket.nodes if n.side == "W")
    bottom = place(f"W{w_rounds}-1", "W", top)
    columns = w_rounds
    l_top = 0
    l_nodes = [n for n in bracket.nodes if n.side == "L"]
    if l_nodes:
        l_rounds = max(n.round for n in l_nodes)
        l_top = int(bottom + 24)
        bottom = place(f"L{l_rounds}-1", "L", l_top + 20)
        columns = max(columns, l_rounds)
    third = [n for n in bracket.nodes if n.side == THIRD_PLACE and n.id not in hidden]
    for node in third:  # under the final, in its column
        final = boxes.get(f"W{w_rounds}-1")
        x = final.x if final is not None else column(w_rounds - 1)
        boxes[node.id] = _Box(x, bottom + 10 + _PITCH / 2)
        bottom += _PITCH + 10
    gf = [n for n in bracket.nodes if n.side == "GF" and n.id not in hidden]
    for node in gf:
        if node.id == "GF":
            ends = [boxes[str(s.ref)].cy for s in node.slots if str(s.ref) in boxes]
            cy = sum(ends) / len(ends) if ends else top
        else:
            cy = boxes["GF"].cy
        boxes[node.id] = _Box(column(columns + node.round - 1), cy)
    columns += max((n.round for n in gf), default=0)
    width = column(columns) - _COL_GAP + _MARGIN
    height = int(bottom + _MARGIN)
    return boxes, width, height, l_top


def _index(node_id: str) -> int:
    return int(node_id.rsplit("-", 1)[1]) if "-" in node_id else 1


def render_bracket(
    bracket: Bracket,
    state: Mapping[str, Resolved],
    names: Mapping[PlayerId, str],
    seeds: Sequence[PlayerId],
    title: str = "",
    *,
    locale: str = "en",
) -> bytes:
    """The bracket as a PNG: winners' bracket on top, losers' bracket below it, the grand final
    on the right. Each box shows both players with their seed; the winner is in gold, a bye is
    written "bye", a player still to come "?". Matches between two byes are left out."""
    hidden = _hidden(bracket, state)
    boxes, width, height, l_top = _layout(bracket, hidden)
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    _text(draw, _MARGIN, _MARGIN, title or t(locale, "Bracket"), _TITLE, _TEXT)
    seed_of = {p: i + 1 for i, p in enumerate(seeds)}
    if l_top:
        _text(draw, _MARGIN, _MARGIN + _TITLE + 2, t(locale, "Winners' bracket"), _SMALL, _DIM)
        _text(draw, _MARGIN, l_top, t(locale, "Losers' bracket"), _SMALL, _DIM)
    visible = {n.id for n in bracket.nodes if n.id in boxes}
    # Lines first, so boxes cover their ends.
    for node in bracket.nodes:
        if node.id not in visible:
            continue
        box = boxes[node.id]
        for slot in node.slots:
            ref = str(slot.ref)
            if slot.kind == "winner" and ref in visible and ref in boxes:
                src = boxes[ref]
                x0, x1 = src.x + _BOX_W, box.x
                mid = (x0 + x1) / 2 if x1 > x0 else x0 + _COL_GAP / 2
                draw.line(
                    [(x0, src.cy), (mid, src.cy), (mid, box.cy), (x1, box.cy)],
                    fill=_LINE,
                    width=2,
                )
    for node in bracket.nodes:
        if node.id not in visible:
            continue
        _draw_box(draw, node, boxes[node.id], state[node.id], names, seed_of, locale)
    return _png(image)


def _draw_box(
    draw: ImageDraw.ImageDraw,
    node: Node,
    box: _Box,
    r: Resolved,
    names: Mapping[PlayerId, str],
    seed_of: Mapping[PlayerId, int],
    locale: str = "en",
) -> None:
    y0 = box.cy - _BOX_H / 2
    draw.rounded_rectangle(
        (box.x, y0, box.x + _BOX_W, y0 + _BOX_H), 5, fill=_BOX, outline=_BOX_EDGE, width=1
    )
    draw.line((box.x + 4, box.cy, box.x + _BOX_W - 4, box.cy), fill=_BOX_EDGE, width=1)
    for i, (player, settled) in enumerate(zip(r.players, r.settled, strict=True)):
        top = y0 + 4 + i * (_BOX_H / 2)
        if player is None:
            label, colour = (t(locale, "bye") if settled else "?"), _DIM
            _text(draw, box.x + 8, top, label, _NAME, colour)
            continue
        won = r.winner == player and r.loser is not None
        colour = _GOLD if won else _TEXT
        if won:
            draw.rectangle((box.x + 1, top - 2, box.x + 3, top + _BOX_H / 2 - 8), fill=_GOLD)
        _text(draw, box.x + 8, top, _short(names.get(player, str(player))), _NAME, colour)
        _text_right(draw, box.x + _BOX_W - 6, top + 1, str(seed_of.get(player, "")), _SMALL, _DIM)
    if node.id == "GF":
        label = t(locale, "Grand final")
    elif node.id == "GF2":
        label = t(locale, "Reset")
    elif node.id == THIRD_PLACE:
        label = t(locale, "Third place")
    else:
        label = node.id
    _text(draw, box.x + 2, y0 - 13, label, _SMALL, _DIM)


def render_event_bracket(event: Event, title: str = "", *, locale: str = "en") -> bytes | None:
    """The bracket of an elimination event (or the playoff of a Swiss event once it starts), or
    None when the event has no bracket."""
    found = event.bracket()
    state = event.bracket_state()
    if found is None or state is None:
        return None
    bracket, seeds = found
    return render_bracket(bracket, state, _names(event, locale), seeds, title, locale=locale)


# ------------------------------------------------------------------------------ standings

_MAX_ROWS = 40


def _say(locale: str) -> Say:
    def say(msgid: str, /, **values: Any) -> str:
        return t(locale, msgid, **values)

    return say


def _names(event: Event, locale: str = "en") -> dict[PlayerId, str]:
    out = {}
    for p in event.players:
        name = display_name(event, p.id)
        why = event.withdrawn.get(p.id)
        if why == DISQUALIFIED:
            name = t(locale, "{name} (DQ)", name=name)
        elif why:
            name = t(locale, "{name} (dropped)", name=name)
        out[p.id] = name
    return out


def render_standings(
    rows: (
        Sequence[PairStanding]
        | Sequence[TableStanding]
        | Sequence[KnockoutStanding]
        | Sequence[ArenaStanding]
    ),
    names: Mapping[PlayerId, str],
    title: str = "",
    *,
    highlight: int = 0,
    limit: int = _MAX_ROWS,
    locale: str = "en",
) -> bytes:
    """The standings as a PNG table, with every tie-break column. The first ``highlight`` rows
    (e.g. the prize places or the top cut) are marked in gold; at most ``limit`` rows are drawn
    and a last line says how many more there are."""
    header: list[str]
    cells: list[list[str]]
    if rows and isinstance(rows[0], TableStanding):
        words: tuple[str, ...] = ("Player", "Points", "Wins", "Opp. avg", "Tables")
        # The column heads are short words other messages use too: their own context.
        header = ["#", *(t(locale, w, context="standings") for w in words)]
        cells = [
            [
                str(r.rank),
                _short(names.get(r.player, str(r.player)), _STANDINGS_NAME_WIDTH),
                str(r.points),
                str(r.wins),
                f"{float(r.opponents_average):.2f}",
                str(r.tables),
            ]
            for r in rows
            if isinstance(r, TableStanding)
        ]
    elif rows and isinstance(rows[0], ArenaStanding):
        # An arena: points (streaks doubled), games, and the streak that doubles the next game.
        words = ("Player", "Points", "Games", "W-D-L", "Streak")
        header = ["#", *(t(locale, w, context="standings") for w in words)]
        cells = [
            [
                str(r.rank),
                _short(names.get(r.player, str(r.player)), _STANDINGS_NAME_WIDTH),
                str(r.points),
                str(r.games),
                f"{r.wins}-{r.draws}-{r.losses}",
                f"{r.streak} 🔥" if r.on_fire else str(r.streak),
            ]
            for r in rows
            if isinstance(r, ArenaStanding)
        ]
    elif rows and isinstance(rows[0], KnockoutStanding):
        # An elimination event: who is still in, who went out where (no Swiss tie-breaks).
        words = ("Player", "W-L", "Status")
        header = ["#", *(t(locale, w, context="standings") for w in words)]
        say = _say(locale)
        cells = [
            [
                str(r.rank),
                _short(names.get(r.player, str(r.player)), _STANDINGS_NAME_WIDTH),
                f"{r.wins}-{r.losses}",
                knockout_status(r, say),
            ]
            for r in rows
            if isinstance(r, KnockoutStanding)
        ]
    else:
        words = ("Player", "Score", "W-D-L", "M-Buch", "Buch", "H2H", "Games")
        header = ["#", *(t(locale, w, context="standings") for w in words)]
        cells = [
            [
                str(r.rank),
                _short(names.get(r.player, str(r.player)), _STANDINGS_NAME_WIDTH),
                _score(r.score),
                f"{r.wins}-{r.draws}-{r.losses}",
                _score(r.median_buchholz),
                _score(r.buchholz),
                _score(r.head_to_head),
                str(r.games_won),
            ]
            for r in rows
            if isinstance(r, PairStanding)
        ]
    shown = cells[:limit]
    more = len(cells) - len(shown)
    widths = [
        max(text_width(row[c], _NAME) for row in [header, *shown]) + 18 for c in range(len(header))
    ]
    row_h = 22
    title_h = _TITLE + 16
    width = max(sum(widths) + 2 * _MARGIN, 260)
    height = _MARGIN * 2 + title_h + row_h * (len(shown) + 1) + (row_h if more else 0)
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    _text(draw, _MARGIN, _MARGIN, title or t(locale, "Standings"), _TITLE, _TEXT)
    y = _MARGIN + title_h
    for i, row in enumerate([header, *shown]):
        if i and i % 2 == 0:
            draw.rectangle((_MARGIN - 4, y - 3, width - _MARGIN + 4, y + row_h - 4), fill=_ROW_ALT)
        colour = _DIM if i == 0 else (_GOLD if i <= highlight else _TEXT)
        x = _MARGIN
        for c, cell in enumerate(row):
            if c == 1:
                _text(draw, x, y, cell, _NAME, colour)
            else:
                _text_right(draw, x + widths[c] - 10, y, cell, _NAME, colour)
            x += widths[c]
        y += row_h
    if more:
        _text(draw, _MARGIN, y, t(locale, "... and {n} more", n=more), _NAME, _DIM)
    return _png(image)


def render_event_standings(
    event: Event, title: str = "", *, limit: int = _MAX_ROWS, locale: str = "en"
) -> bytes:
    """The standings of an event, the prize places (or the top cut) highlighted; during a group
    stage every group's table, one under the other, its qualifiers highlighted."""
    if event.in_groups:
        return render_group_tables(event, title, locale=locale)
    highlight = event.settings.top_cut or (
        len(event.settings.prize_split) if event.settings.buy_in else 0
    )
    return render_standings(
        event.standings(),
        _names(event, locale),
        title,
        highlight=highlight,
        limit=limit,
        locale=locale,
    )


def render_group_tables(event: Event, title: str = "", *, locale: str = "en") -> bytes:
    """The group stage's tables, one under the other under the event's title, each group's
    qualifying places in gold."""
    names = _names(event, locale)
    tables = [
        Image.open(
            io.BytesIO(
                render_standings(
                    rows,
                    names,
                    t(locale, "Group {name}", name=group_name(i)),
                    highlight=advancing([r.player for r in rows]),
                    locale=locale,
                )
            )
        )
        for i, rows in enumerate(event.group_tables())
    ]
    head = _MARGIN + _TITLE + 8
    width = max(max(im.width for im in tables), 260)
    image = Image.new("RGB", (width, head + sum(im.height for im in tables)), FELT)
    draw = ImageDraw.Draw(image)
    _text(draw, _MARGIN, _MARGIN, title or t(locale, "Standings"), _TITLE, _TEXT)
    y = head
    for im in tables:
        image.paste(im, (0, y))
        y += im.height
    return _png(image)
