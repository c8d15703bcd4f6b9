"""Text (Discord markdown) for tables, hands and rules: pure functions of engine values.

The Discord layer wraps these strings in embeds; nothing here imports discord, so the wording is
testable on its own and the same for every surface (table message, DM, ephemeral reply).

What a function may show is decided by what it is given: the public functions take a spectator's
:class:`~bot.engine.View` (``view(state, None)``), whose ``hand`` is empty, and only
:func:`hand_text` is ever given a seat's own hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine import (
    AnyAction,
    AnyEvent,
    AnyView,
    Capture,
    Captured,
    Claim,
    Claimed,
    Combination,
    Declare,
    Declared,
    Discard,
    Discarded,
    Draw,
    Drew,
    EndReason,
    FishingPhase,
    FishingResult,
    FishingView,
    Game,
    GameDrawn,
    GameOver,
    MissedCapture,
    Phase,
    Place,
    Placed,
    PoolTile,
    Result,
    RuleSet,
    Settlement,
    Swept,
    Take,
    Tile,
    TileTurned,
    Took,
    TurnStarted,
    View,
    WinBy,
    Witness,
    sort_tiles,
)
from bot.engine.actions import End
from bot.engine.hands import ten_pair_values
from bot.engine.rules import FirstPlayer, FourTwo, Offer
from bot.engine.variants import chosen_variants
from bot.limits import format_duration
from bot.locale import N_, EventLine, Message, nt, t
from bot.locale import tile_name as local_tile_name

__all__ = [
    "GAME_TITLES",
    "SeatLabel",
    "action_label",
    "combination_label",
    "deadline_text",
    "fishing_fields",
    "game_title",
    "hand_text",
    "legal_text",
    "others_moves_text",
    "plural",
    "pool_text",
    "private_event_text",
    "recent_text",
    "result_text",
    "rules_summary",
    "rules_text",
    "scores_text",
    "seats_text",
    "tile_name",
    "turn_text",
    "unbroken",
    "witness_text",
]

GAME_TITLES: dict[Game, str] = {
    Game.KAP_SHAP: N_("Kap Shap 夾十"),
    Game.KAP_TAI_SHAP: N_("Kap Tai Shap 夾大十"),
    Game.TSUNG_SHAP: N_("Tsung Shap 爭十"),
}

_RULE_SET_TITLES = {
    "culin": N_("Culin"),
    "classic": N_("Classic"),
    "last-draw": N_("Last + draw"),
    "custom": N_("Custom"),
}


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """How a seat is written: its name and whether a computer plays it."""

    name: str
    is_ai: bool = False


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


def game_title(game: Game, locale: str = "en") -> str:
    """``Kap Shap 夾十`` (``夾十`` in zh-TW, ``夹十`` in zh-CN)."""
    title = GAME_TITLES.get(game)
    return str(game) if title is None else t(locale, title)


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


def _counted(tiles: Iterable[Tile]) -> list[tuple[Tile, int]]:
    counts: dict[Tile, int] = {}
    for tile in sort_tiles(tiles):
        counts[tile] = counts.get(tile, 0) + 1
    return list(counts.items())


def hand_text(hand: Sequence[Tile], locale: str = "en") -> str:
    """A private hand, one kind per line, in rank order, with counts (6-6 Heaven 天 ×2).

    Only ever shown to the hand's owner (his DM, or an ephemeral reply).
    """
    if not hand:
        return t(locale, "*(no tiles)*")
    return "\n".join(
        tile_name(tile, locale) + (f" ×{count}" if count > 1 else "")
        for tile, count in _counted(hand)
    )


def pool_text(pool: Sequence[PoolTile], locale: str = "en") -> str:
    """The face-up discards grouped by kind; dead ones (never takeable) listed apart."""
    if not pool:
        return t(locale, "*(no discards yet)*")
    live = [p.tile for p in pool if not p.dead]
    dead = [p.tile for p in pool if p.dead]

    def group(tiles: list[Tile]) -> str:
        return " · ".join(
            f"`{tile}` {short_tile(tile, locale)}" + (f" ×{count}" if count > 1 else "")
            for tile, count in _counted(tiles)
        )

    lines = []
    if live:
        lines.append(group(live))
    if dead:
        lines.append(t(locale, "dead: {tiles}", tiles=group(dead)))
    return "\n".join(lines)


def seats_text(view: AnyView, seats: Sequence[SeatLabel], locale: str = "en") -> str:
    """Seats in play order with hand sizes (Tsung Shap: score and pile); the player to act is
    marked ▶."""
    if isinstance(view, FishingView):
        return scores_text(view, seats, locale)
    lines = []
    for i, seat in enumerate(seats):
        marker = "▶" if view.result is None and i == view.current else "•"
        who = f"**{seat.name}**" if marker == "▶" else seat.name
        robot = " 🤖" if seat.is_ai else ""
        size = view.hand_sizes[i] if i < len(view.hand_sizes) else 0
        first = t(locale, " (first)") if i == view.first_seat else ""
        lines.append(f"{marker} {who}{robot} — {count_text(locale, size, 'tile')}{first}")
    return "\n".join(lines)


def turn_text(
    view: AnyView, seats: Sequence[SeatLabel], deadline: float | None, locale: str = "en"
) -> str:
    """Whose turn it is, what he is expected to do, and when his time runs out."""
    if view.result is not None:
        return result_text(view.result, seats, locale)
    seat = seats[view.current]
    steps: dict[str, str] = {
        Phase.TAKE_OR_DRAW: N_("take a discard or draw"),
        Phase.DISCARD: N_("discard a tile or declare"),
        Phase.DRAW: N_("draw from the wall"),
        FishingPhase.TURN_OVER: N_("turn over a tile (`/draw`)"),
        FishingPhase.PLAY: N_("capture (`/take`) or place the tile (`/discard side`)"),
    }
    if isinstance(view, FishingView) and view.phase is FishingPhase.TURN_OVER and view.pending:
        step = N_("claim a missed capture (`/take`) or turn over a tile (`/draw`)")
    else:
        step = steps.get(str(view.phase), N_("play"))
    text = t(
        locale,
        "Turn {turn}: **{name}** to {step}.",
        turn=view.turn,
        name=seat.name,
        step=t(locale, step),
    )
    if deadline is not None and not seat.is_ai:
        text += t(locale, " Time runs out {when}.", when=deadline_text(deadline))
    return text


def plural(count: int, noun: str) -> str:
    """``1 tile``, ``2 tiles``, ``1,000 chips``: a count with its noun, singular for one."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def recent_text(lines: Sequence[str], limit: int = 8, locale: str = "en") -> str:
    """The last few public events, oldest first."""
    shown = [line for line in lines if line][-limit:]
    return "\n".join(shown) if shown else t(locale, "*(nothing yet)*")


def result_text(
    result: Result | FishingResult, seats: Sequence[SeatLabel], locale: str = "en"
) -> str:
    """How the game ended, in one line."""
    if isinstance(result, FishingResult):
        scores = ", ".join(f"{seats[i].name} {p}" for i, p in enumerate(result.scores))
        if result.winner is None:
            return t(locale, "The game is drawn: equal scores ({scores}).", scores=scores)
        return t(
            locale,
            "🏆 **{name}** won on turn {turn}: {scores}.",
            name=seats[result.winner].name,
            turn=result.turn,
            scores=scores,
        )
    if result.winner is None:
        if result.reason.value == "wall":
            return t(locale, "The game is drawn: the wall is exhausted.")
        return t(locale, "The game is drawn: the turn limit.")
    how = {
        "dealt": N_("🏆 **{name}** won on turn {turn} with his dealt tiles."),
        "take": N_("🏆 **{name}** won on turn {turn} by taking a discard."),
        "draw": N_("🏆 **{name}** won on turn {turn} by drawing."),
    }
    msgid = how.get(
        result.win_by.value if result.win_by is not None else "",
        N_("🏆 **{name}** won on turn {turn}."),
    )
    return t(locale, msgid, name=seats[result.winner].name, turn=result.turn)


def _pair_total(a: Tile, b: Tile, four_two: FourTwo) -> int:
    values = ten_pair_values(a, b, four_two)
    return sum(values) if values is not None else a.pips + b.pips


def witness_text(witness: Witness, four_two: FourTwo = FourTwo.THREE, locale: str = "en") -> str:
    """The winning arrangement in one line: the eye, then each ten-pair with its total."""
    parts = [t(locale, "eye {tiles}", tiles=f"`{witness.eye[0]}` `{witness.eye[1]}`")]
    parts += [f"`{a}`+`{b}` = {_pair_total(a, b, four_two)}" for a, b in witness.pairs]
    return " · ".join(parts)


def private_event_text(
    event: AnyEvent, seat: int, names: Sequence[str], locale: str = "en"
) -> str | None:
    """One of ``seat``'s own moves told to him ("You drew 6-5 Axe 斧頭."); None for events
    that are not his moves. Private: a drawn tile is named (Tsung Shap hides nothing)."""
    loc = locale
    match event:
        case TileTurned(s, tile, pile_left, _relay) if s == seat:
            return t(
                loc,
                "You turned over {tile} ({left} left in your pile).",
                tile=tile_name(tile, loc),
                left=pile_left,
            )
        case Placed(s, tile, end, _auto) if s == seat:
            if end is None:
                return t(loc, "You placed {tile} to start a new row.", tile=tile_name(tile, loc))
            return t(
                loc,
                "You placed {tile} at the {end} end.",
                tile=tile_name(tile, loc),
                end=t(loc, str(end), context="term"),
            )
        case Captured(s, kind, _end, tiles, score, sweep) if s == seat:
            joined = " + ".join(f"`{x}`" for x in tiles)
            if sweep:
                return t(
                    loc, "You swept the row: {tiles}, {score} points.", tiles=joined, score=score
                )
            return t(
                loc,
                "You captured a {kind}: {tiles}, {score} points.",
                kind=t(loc, str(kind), context="term"),
                tiles=joined,
                score=score,
            )
        case Swept(s) if s == seat:
            return t(loc, "A sweep: your next tile starts a new row.")
        case Claimed(s, _from, combo) if s == seat:
            joined = " + ".join(f"`{x}`" for x in combo.tiles)
            return t(
                loc,
                "You claimed the missed {kind}: {tiles}, {score} points.",
                kind=t(loc, str(combo.kind), context="term"),
                tiles=joined,
                score=combo.score,
            )
        case MissedCapture(s, claimant, _missed) if s == seat:
            return t(loc, "You could have captured: {name} may claim it.", name=names[claimant])
        case Took(s, tile, from_seat) if s == seat:
            if from_seat == seat:  # his own discard, taken back (Culin)
                return t(loc, "You took back {tile}.", tile=tile_name(tile, loc))
            return t(
                loc,
                "You took {tile} discarded by {name}.",
                tile=tile_name(tile, loc),
                name=names[from_seat],
            )
        case Drew(s, tile, wall_left) if s == seat:
            return t(
                loc,
                "You drew {tile} ({left} left in the wall).",
                tile=tile_name(tile, loc),
                left=wall_left,
            )
        case Discarded(s, tile) if s == seat:
            return t(loc, "You discarded {tile}.", tile=tile_name(tile, loc))
        case Declared(s, _, _) if s == seat:
            return t(loc, "🏆 You declared a winning hand!")
        case GameDrawn():
            return t(loc, "The game is drawn.")
    return None


def _their_move(
    event: AnyEvent, reader: int | None, names: Sequence[str], locale: str
) -> str | None:
    """Another seat's move in a few words (``took 6-5``, ``drew a tile``), as everyone saw it:
    a tile drawn from the wall is never named. None for what is not a move (in Tsung Shap the
    tile turned over is told by where it went: placed, or the first of a capture's tiles)."""
    loc = locale

    def tiles(items: Sequence[Tile]) -> str:
        return " + ".join(f"`{x}`" for x in items)

    match event:
        case Took(seat, tile, from_seat):
            if from_seat == seat:
                return t(loc, "took back {tile}", tile=f"`{tile}`")
            if from_seat == reader:
                return t(loc, "took your {tile}", tile=f"`{tile}`")
            return t(loc, "took {tile} from {name}", tile=f"`{tile}`", name=names[from_seat])
        case Drew():
            return t(loc, "drew a tile")
        case Discarded(_seat, tile):
            return t(loc, "discarded {tile}", tile=f"`{tile}`")
        case Placed(_seat, tile, end, _auto):
            if end is None:
                return t(loc, "started a new row with {tile}", tile=f"`{tile}`")
            return t(
                loc,
                "placed {tile} at the {end} end",
                tile=f"`{tile}`",
                end=t(loc, str(end), context="term"),
            )
        case Captured(_seat, _kind, _end, taken, score, sweep):
            points = count_text(loc, score, "point")
            if sweep:
                return t(
                    loc, "swept the row with {tiles}: {points}", tiles=tiles(taken), points=points
                )
            return t(loc, "captured {tiles}: {points}", tiles=tiles(taken), points=points)
        case Claimed(_seat, _from, combo):
            points = count_text(loc, combo.score, "point")
            return t(loc, "claimed {tiles}: {points}", tiles=tiles(combo.tiles), points=points)
    return None


def others_moves_text(
    moves: Sequence[tuple[int, AnyEvent]],
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


_WIN_BY = {
    WinBy.DEALT: N_("{name} declared a winning hand as dealt: {witness}."),
    WinBy.TAKE: N_("{name} declared a winning hand by taking a discard: {witness}."),
    WinBy.DRAW: N_("{name} declared a winning hand with a tile drawn from the wall: {witness}."),
}


def _witness(witness: Witness, locale: str) -> str:
    """The engine's notation of a winning arrangement (``eye 6-6 6-6 | 6-3 6-5 …``) with the
    word "eye" in ``locale``."""
    if locale == "en":
        return str(witness)
    pairs = " | ".join(f"{a} {b}" for a, b in witness.pairs)
    eye = t(locale, "eye {tiles}", tiles=f"{witness.eye[0]} {witness.eye[1]}")
    return f"{eye} | {pairs}"


def public_event_text(event: object, names: Sequence[str], locale: str = "en") -> str | None:
    """A public event (what every player may see) in ``locale``: the table's "Recent" lines.
    None for an event this function does not know (the caller keeps the English)."""
    loc = locale

    def term(word: object) -> str:
        return t(loc, str(word), context="term")

    match event:
        case TurnStarted(seat, turn):
            return t(loc, "Turn {turn}: {name} to play.", turn=turn, name=names[seat])
        case Took(seat, tile, from_seat):
            if from_seat == seat:
                return t(
                    loc, "{name} took back {tile}.", name=names[seat], tile=tile_name(tile, loc)
                )
            return t(
                loc,
                "{name} took {tile} discarded by {other}.",
                name=names[seat],
                tile=tile_name(tile, loc),
                other=names[from_seat],
            )
        case Drew(seat, _tile, wall_left):
            return t(
                loc,
                "{name} drew a tile ({left} left in the wall).",
                name=names[seat],
                left=wall_left,
            )
        case Discarded(seat, tile):
            return t(loc, "{name} discarded {tile}.", name=names[seat], tile=tile_name(tile, loc))
        case Declared(seat, witness, win_by):
            return t(loc, _WIN_BY[win_by], name=names[seat], witness=_witness(witness, loc))
        case GameDrawn(reason):
            if reason is EndReason.WALL:
                return t(loc, "The game is drawn: the wall is exhausted.")
            return t(loc, "The game is drawn: the turn limit.")
        case TileTurned(seat, tile, pile_left, relay):
            msgid = (
                N_("{name} at once turned over {tile} ({left} left in the pile).")
                if relay
                else N_("{name} turned over {tile} ({left} left in the pile).")
            )
            return t(loc, msgid, name=names[seat], tile=tile_name(tile, loc), left=pile_left)
        case Placed(seat, tile, end, _auto):
            if end is None:
                return t(
                    loc, "{name} laid {tile} out to start a new row.", name=names[seat], tile=tile
                )
            return t(
                loc,
                "{name} placed {tile} at the {end} end of the row.",
                name=names[seat],
                tile=tile,
                end=term(end),
            )
        case Captured(seat, kind, end, tiles, score, sweep):
            joined = " + ".join(map(str, tiles))
            if sweep:
                return t(
                    loc,
                    "{name} swept the row with {tiles}: {score} points.",
                    name=names[seat],
                    tiles=joined,
                    score=score,
                )
            return t(
                loc,
                "{name} captured a {kind} at {where}, {tiles}: {score} points.",
                name=names[seat],
                kind=term(kind),
                where=t(loc, "both ends")
                if end is End.ENDS
                else t(loc, "the {end} end", end=term(end)),
                tiles=joined,
                score=score,
            )
        case Swept(seat):
            return t(loc, "{name} swept the table and starts a new row.", name=names[seat])
        case MissedCapture(seat, claimant, missed):
            options = "; ".join(
                f"'{c.claim}' ({' + '.join(map(str, c.tiles))}: {c.score})" for c in missed
            )
            return t(
                loc,
                "{name} could have captured and did not. {other} may claim one at the start of "
                "the next turn: {options}.",
                name=names[seat],
                other=names[claimant],
                options=options,
            )
        case Claimed(seat, from_seat, combo):
            return t(
                loc,
                "{name} claimed the {kind} {other} missed ({end}), {tiles}: {score} points.",
                name=names[seat],
                kind=term(combo.kind),
                other=names[from_seat],
                end=term(combo.end),
                tiles=" + ".join(map(str, combo.tiles)),
                score=combo.score,
            )
        case GameOver(scores, winner, _reason):
            table = ", ".join(f"{names[s]} {p}" for s, p in enumerate(scores))
            if winner is None:
                return t(loc, "Game over: {scores}. Equal scores: the game is drawn.", scores=table)
            return t(loc, "Game over: {scores}. {name} wins.", scores=table, name=names[winner])
    return None


def action_label(action: AnyAction, locale: str = "en") -> str:
    """A short button label for an action."""

    def term(word: object) -> str:
        return t(locale, str(word), context="term")

    match action:
        case Capture(kind, end):
            return t(locale, "Capture {kind} {end}", kind=term(kind), end=term(end))
        case Claim(kind, end):
            return t(locale, "Claim {kind} {end}", kind=term(kind), end=term(end))
        case Place(end):
            return t(locale, "Place {end}", end=term(end))
        case Take(tile):
            return t(locale, "Take") if tile is None else t(locale, "Take {tile}", tile=tile)
        case Draw():
            return t(locale, "Draw")
        case Discard(tile):
            return t(locale, "Discard {tile}", tile=tile)
        case Declare():
            return t(locale, "Declare")
    raise AssertionError(f"unknown action {action!r}")


def combination_label(action: Capture | Claim, combo: Combination, locale: str = "en") -> str:
    """A capture or claim button's label with what it takes and scores, so the player sees
    both before he chooses: ``Capture triplet left: 6-3 + 5-1 + 6-2 · 20 points``."""
    points = count_text(locale, combo.score, "point")
    if combo.sweep:
        points = t(locale, "sweep, {points}", points=points)
    return t(
        locale,
        "{action}: {tiles} · {points}",
        action=action_label(action, locale),
        tiles=" + ".join(map(str, combo.tiles)),
        points=points,
    )


def legal_text(
    view: AnyView,
    legal: Sequence[AnyAction],
    locale: str = "en",
    *,
    opener: bool = True,
    turned: bool = True,
) -> str:
    """What the seat may do now, in words (for his DM). Without ``opener`` it does not say
    "It is your turn" (a line above already does), and without ``turned`` (Tsung Shap) it does
    not name the tile just turned over (the player's own move, told just above)."""
    if view.result is not None:
        return t(locale, "The game is over.")
    if not view.my_turn:
        return t(locale, "It is not your turn: you will be told here when it is.")
    if isinstance(view, FishingView):
        return _fishing_legal_text(view, legal, locale, opener=opener, turned=turned)
    takes = [a.tile for a in legal if isinstance(a, Take) and a.tile is not None]
    discards = [a.tile for a in legal if isinstance(a, Discard)]
    options = []
    if Declare() in legal:
        options.append(t(locale, "**declare** your winning hand"))
    if takes:
        options.append(t(locale, "**take** {tiles}", tiles=", ".join(f"`{x}`" for x in takes)))
    if Draw() in legal:
        options.append(t(locale, "**draw** from the wall"))
    if discards:
        options.append(
            t(locale, "**discard** one of {tiles}", tiles=", ".join(f"`{x}`" for x in discards))
        )
    joined = t(locale, ", or ").join(options)
    if not opener:
        return t(locale, "You may {options}.", options=joined)
    return t(locale, "**It is your turn.** You may {options}.", options=joined)


def hand_prompt(view: View, legal: Sequence[AnyAction], locale: str = "en") -> str:
    """The one line of a hand DM saying what to do: the picture shows the hand, the new tile
    and the discards that may be taken, and the buttons carry the moves, so nothing is listed."""
    if view.result is not None:
        return t(locale, "The game is over.")
    if not view.my_turn:
        return t(locale, "It is not your turn: you will be told here when it is.")
    takes = any(isinstance(a, Take) for a in legal)
    if Declare() in legal:
        return t(locale, "**It is your turn: you can win!** Declare, or discard a tile.")
    if any(isinstance(a, Discard) for a in legal):
        return t(locale, "**It is your turn:** discard a tile.")
    if takes and Draw() in legal:
        return t(
            locale, "**It is your turn:** take a discard framed in gold, or draw from the wall."
        )
    if takes:
        return t(locale, "**It is your turn:** the wall is empty: take a discard framed in gold.")
    return t(locale, "**It is your turn:** draw from the wall.")


def _fishing_legal_text(
    view: FishingView,
    legal: Sequence[AnyAction],
    locale: str = "en",
    *,
    opener: bool = True,
    turned: bool = True,
) -> str:
    options = []
    claims = {str(c.claim): c for c in view.pending}
    for action in legal:
        if isinstance(action, Claim):
            combo = claims.get(str(action))
            if combo is not None:
                options.append(
                    t(
                        locale,
                        "`{action}` ({score} points) with `/take`",
                        action=action,
                        score=combo.score,
                    )
                )
            else:
                options.append(t(locale, "`{action}` with `/take`", action=action))
    if Draw() in legal:
        options.append(t(locale, "**turn over** your next tile with `/draw`"))
    captures = [c for c in view.options if c.capture in legal]
    for combo in captures:
        options.append(
            t(
                locale,
                "`{action}` ({score} points) with `/take`",
                action=combo.capture,
                score=combo.score,
            )
        )
    if Place(End.LEFT) in legal:
        options.append(t(locale, "**place** it at the left or right end with `/discard side`"))
    joined = t(locale, ", or ").join(options)
    tile = view.turned if turned else None
    if not opener:
        if tile is None:
            return t(locale, "You may {options}.", options=joined)
        return t(
            locale,
            "You turned over {tile}. You may {options}.",
            tile=tile_name(tile, locale),
            options=joined,
        )
    said = (
        "" if tile is None else t(locale, " You turned over {tile}.", tile=tile_name(tile, locale))
    )
    return t(locale, "**It is your turn.**{turned} You may {options}.", turned=said, options=joined)


def fishing_fields(
    view: FishingView, seats: Sequence[SeatLabel], locale: str = "en"
) -> list[tuple[str, str]]:
    """The Tsung Shap table message's fields (name, value): scores and piles, the row, the
    tile in play and any missed capture that may be claimed."""
    row = " ".join(f"`{x}`" for x in view.row) if view.row else t(locale, "*(empty)*")
    fields = [
        (t(locale, "Scores and piles"), scores_text(view, seats, locale)),
        (t(locale, "Row (left → right)"), row),
    ]
    if view.turned is not None and view.result is None:
        fields.append((t(locale, "Turned over"), tile_name(view.turned, locale)))
    if view.pending and view.result is None:
        missed = "\n".join(
            f"`{c.claim}`: {' + '.join(f'`{x}`' for x in c.tiles)} = {c.score}"
            for c in view.pending
        )
        fields.append((t(locale, "Missed capture (may be claimed)"), missed))
    return fields


def scores_text(view: FishingView, seats: Sequence[SeatLabel], locale: str = "en") -> str:
    """Tsung Shap seats: score, tiles left in the pile, tiles captured; ▶ marks the player to
    act."""
    lines = []
    for i, seat in enumerate(seats):
        marker = "▶" if view.result is None and i == view.current else "•"
        who = f"**{seat.name}**" if marker == "▶" else seat.name
        robot = " 🤖" if seat.is_ai else ""
        score = view.scores[i] if i < len(view.scores) else 0
        pile = view.pile_sizes[i] if i < len(view.pile_sizes) else 0
        left = count_text(locale, pile, "tile")
        lines.append(
            f"{marker} {who}{robot} — "
            + t(locale, "**{score}** points · {left} left in the pile", score=score, left=left)
        )
    return "\n".join(lines)


def fishing_variants(rules: RuleSet, locale: str = "en") -> list[str]:
    """The Tsung Shap variants chosen, in words of ``locale`` (the engine's
    :meth:`~bot.engine.rules.RuleSet.variants` says them in English)."""
    if rules.game is not Game.TSUNG_SHAP:
        return []
    out = [
        t(locale, words)
        for flag, words in (
            (rules.auto_capture, N_("auto capture")),
            (rules.triplet_both_ends_only, N_("triplets at both ends only")),
            (rules.sweep_adds_pips, N_("sweep 40 + pips")),
            (rules.second_may_capture_opening, N_("second may capture the opening")),
            (rules.play_until_both_piles_empty, N_("play until both piles are empty")),
        )
        if flag
    ]
    if rules.four_two_value is FourTwo.THREE:
        out.append(t(locale, "4-2 counts 3"))
    elif rules.four_two_value is FourTwo.WILD:
        out.append(t(locale, "Gee Joon wild"))
    if rules.settlement is Settlement.DIFFERENCE:
        out.append(t(locale, "settle {rate} per point", rate=rules.settle_rate))
    return out


def rules_summary(rules: RuleSet, locale: str = "en") -> str:
    """One line: ``Culin rules · 2 players · 1 set · hand of 8``."""
    if rules.game is Game.TSUNG_SHAP:
        variants = fishing_variants(rules, locale)
        tail = (" · " + ", ".join(variants)) if variants else ""
        return (
            t(
                locale,
                "Standard rules · 2 players · 1 set · piles of {size}",
                size=rules.pile_size,
            )
            + tail
        )
    sets = nt(locale, "{n} set", "{n} sets", rules.sets)
    name = _RULE_SET_TITLES.get(rules.rule_set_name, rules.rule_set_name)
    chosen = chosen_variants(rules)
    # The host's variants, as he typed them (/table new variant:…).
    tail = (" · " + ", ".join(f"{k}={v}" for k, v in chosen.items())) if chosen else ""
    return (
        t(
            locale,
            "{name} rules · {players} players · {sets} · hand of {size}",
            name=t(locale, name),
            players=rules.players,
            sets=sets,
            size=rules.hand_size,
        )
        + tail
    )


def rules_text(
    rules: RuleSet,
    *,
    ante: int | None = None,
    turn_seconds: int | None = None,
    locale: str = "en",
) -> str:
    """An explanation of the rules in force, as bullet points."""
    loc = locale
    if rules.game is Game.TSUNG_SHAP:
        return _fishing_rules_text(rules, ante=ante, turn_seconds=turn_seconds, locale=loc)
    h = rules.hand_size
    four_two = {
        FourTwo.THREE: N_("4-2 counts 3"),
        FourTwo.SIX: N_("4-2 counts 6"),
        FourTwo.WILD: N_("4-2 and 2-1 count 3 or 6 (Gee Joon wild)"),
    }[rules.four_two_value]
    lines = [
        f"**{game_title(rules.game, loc)}** — {rules_summary(rules, loc)}",
        t(
            loc,
            "• **Goal:** a hand of {size} tiles made of one *eye* (two identical tiles) and "
            "{pairs} *ten-pairs* (two tiles whose values total 10 or 20); {four_two}.",
            size=h,
            pairs=rules.pairs,
            four_two=t(loc, four_two),
        ),
    ]
    if rules.military_eyes:
        lines.append(t(loc, "• With several sets, two identical military tiles may form the eye."))
    else:
        lines.append(
            t(loc, "• Only civil tiles (the pairs: Heaven, Earth, Man …) can form the eye.")
        )
    if rules.offer is Offer.ANY:
        take = t(loc, "optionally **take any** face-up discard")
        if rules.exclude_own_discards:
            take += t(loc, " (not your own)")
    else:
        take = t(loc, "optionally **take the most recent** discard")
    if rules.draw_after_take:
        turn = t(
            loc,
            "{take} and, unless that wins, discard one; then **draw** from the wall and, "
            "unless that wins, discard one.",
            take=take,
        )
    else:
        turn = t(
            loc,
            "**either** take the most recent discard **or** draw from the wall; unless that "
            "wins, discard one. A discard the next player does not take is dead.",
        )
    lines.append(t(loc, "• **Your turn:** {turn}", turn=turn))
    if rules.first_turn_extra_draw:
        first = t(
            loc,
            "• **First turn:** the first player starts with {size} tiles and discards one, "
            "then draws and discards again.",
            size=h,
        )
    else:
        first = t(
            loc,
            "• **First turn:** the first player starts with {size} tiles and discards one.",
            size=h,
        )
    lines.append(first)
    how_first = (
        N_("the thrower's four dice, counted around from his right")
        if rules.first_player is FirstPlayer.FOUR_DICE
        else N_("drawing lots")
    )
    lines.append(t(loc, "• **Who starts:** {how}.", how=t(loc, how_first)))
    lines.append(
        t(
            loc,
            "• **Declare** on your turn whenever your hand wins; a false declaration is refused.",
        )
    )
    end = N_("the game is drawn and every ante is refunded")
    if rules.pot_carries_over:
        end = N_("the game is drawn and the pot stays on the table for the next game")
    lines.append(
        t(
            loc,
            "• **Wall empty:** a player may still win by taking a discard; otherwise {end}. "
            "The game also ends after {turns} turns.",
            end=t(loc, end),
            turns=rules.max_turns,
        )
    )
    if rules.stall_guard and not rules.draw_after_take:
        # With a draw after every take (Culin, Last + draw) no turn passes without a draw.
        lines.append(
            t(
                loc,
                "• After {players} turns in a row of taking without drawing, the next player "
                "must draw unless taking wins.",
                players=rules.players,
            )
        )
    lines += _variants_lines(rules, loc)
    if ante is not None:
        rake = (
            t(loc, ", minus a {percent}% house cut", percent=rules.rake_percent)
            if rules.rake_percent
            else ""
        )
        lines.append(
            t(
                loc,
                "• **Stakes:** everyone pays {chips}; the winner takes the pot{rake}.",
                chips=count_text(loc, ante, "chip"),
                rake=rake,
            )
        )
    if turn_seconds is not None:
        lines.append(
            t(
                loc,
                "• **Turn timer:** {duration}; then the computer plays that turn for you.",
                duration=duration_text(turn_seconds, loc),
            )
        )
    return "\n".join(lines)


def _variants_lines(rules: RuleSet, locale: str = "en") -> list[str]:
    """The variants the host chose (``/table new variant:…``), as he typed them."""
    chosen = chosen_variants(rules)
    if not chosen:
        return []
    listed = " · ".join(f"`{k}={v}`" for k, v in chosen.items())
    return [t(locale, "• **Variants:** {variants}", variants=listed)]


def _fishing_rules_text(
    rules: RuleSet, *, ante: int | None, turn_seconds: int | None, locale: str = "en"
) -> str:
    """Tsung Shap's rules in force (RULES.md §3), as bullet points."""
    loc = locale
    four_two = {
        FourTwo.THREE: N_("4-2 counts 3"),
        FourTwo.SIX: N_("4-2 counts 6"),
        FourTwo.WILD: N_("4-2 and 2-1 count 3 or 6 (Gee Joon wild)"),
    }[rules.four_two_value]
    triplet = (
        N_("the turned tile with both end tiles")
        if rules.triplet_both_ends_only
        else N_("the turned tile with the two tiles at either end, or with both end tiles")
    )
    sweep = N_("40 + the pips") if rules.sweep_adds_pips else N_("a flat 40")
    lines = [
        f"**{game_title(rules.game, loc)}** — {rules_summary(rules, loc)}",
        t(
            loc,
            "• **Setup:** each player has a face-down pile of {size} tiles; nobody has a hand.",
            size=rules.pile_size,
        ),
        t(
            loc,
            "• **Your turn:** turn over your next tile (`/draw`); then capture with it (`/take`) "
            "or place it at the left or right end of the row (`/discard side`).",
        ),
        t(loc, "• **Pair:** the same kind as an end tile; scores 10 × the pips of both."),
        t(
            loc,
            "• **Triplet:** {triplet}, totalling 10, 20 or 30; scores the total ({four_two}).",
            triplet=t(loc, triplet),
            four_two=t(loc, four_two),
        ),
        t(
            loc,
            "• **Sweep:** a triplet that empties a 2-tile row scores {sweep}; the sweeper's next "
            "tile starts a new row.",
            sweep=t(loc, sweep),
        ),
    ]
    if rules.auto_capture:
        lines.append(
            t(loc, "• **Auto capture:** the best capture must be taken; nothing can be missed.")
        )
    else:
        lines.append(
            t(
                loc,
                "• **Missed captures:** placing a tile that could have captured lets the "
                "opponent claim one of those captures at the start of his next turn (`/take`).",
            )
        )
    end = (
        N_("both piles are laid out")
        if rules.play_until_both_piles_empty
        else N_("a player has laid out his whole pile")
    )
    lines.append(
        t(
            loc,
            "• **End:** when {end}; the higher score wins, equal scores draw.",
            end=t(loc, end),
        )
    )
    lines += _variants_lines(rules, loc)
    if ante is not None and rules.settlement is Settlement.DIFFERENCE:
        lines.append(
            t(
                loc,
                "• **Stakes:** no ante; the loser pays the winner {chips} per point of "
                "difference (at most what he has); a draw pays nothing.",
                chips=count_text(loc, rules.settle_rate, "chip"),
            )
        )
    elif ante is not None:
        rake = (
            t(loc, ", minus a {percent}% house cut", percent=rules.rake_percent)
            if rules.rake_percent
            else ""
        )
        lines.append(
            t(
                loc,
                "• **Stakes:** everyone pays {chips}; the winner takes the pot{rake}; a draw "
                "refunds every ante.",
                chips=count_text(loc, ante, "chip"),
                rake=rake,
            )
        )
    if turn_seconds is not None:
        lines.append(
            t(
                loc,
                "• **Turn timer:** {duration}; then the computer plays that turn for you.",
                duration=duration_text(turn_seconds, loc),
            )
        )
    return "\n".join(lines)
