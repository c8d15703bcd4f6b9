"""The words of Kap Shap and Kap Tai Shap: events public and private, turns, results, the
moves a seat may make, and the game's part of the table, hand and replay messages."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.engine import Tile, sort_tiles
from bot.engine.events import TurnStarted
from bot.engine.rules import FourTwo, ten_pair_values
from bot.games.collecting.engine.actions import Declare, Discard, Take
from bot.games.collecting.engine.hands import HandGuide, Witness, guide_hand
from bot.games.collecting.engine.machine import (
    Declared,
    Discarded,
    Drew,
    EndReason,
    GameDrawn,
    GameState,
    Phase,
    Result,
    Took,
    View,
    WinBy,
)
from bot.games.collecting.render import rules_text as rules_words
from bot.games.collecting.render.shapes import Arrangement, FaceUp
from bot.games.dominoes.engine.actions import Draw
from bot.games.dominoes.render.words import (
    closed_prompt,
    hands_fields,
    seat_lines,
    turn_line,
    turn_started,
)
from bot.locale import N_, nt, t
from bot.render.family import Field, SeatLabel, Sheet
from bot.render.text import count_text, short_tile, tile_name

__all__ = [
    "DISCARDS_FILE",
    "CollectingWords",
    "discards_line",
    "hand_text",
    "pool_text",
    "witness_text",
]

DISCARDS_FILE = "discards.png"
"""The table message's picture: the face-up discards."""

_OWN = (
    GameState,
    View,
    Result,
    Take,
    Draw,
    Discard,
    Declare,
    Took,
    Drew,
    Discarded,
    Declared,
    GameDrawn,
    TurnStarted,
)
"""The values this family words (Draw and TurnStarted are Tsung Shap's too: same words)."""

_STEPS: dict[str, str] = {
    Phase.TAKE_OR_DRAW: N_("take a discard or draw"),
    Phase.DISCARD: N_("discard a tile or declare"),
    Phase.DRAW: N_("draw from the wall"),
}

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


def discards_line(public: View, seats: Sequence[SeatLabel], locale: str = "en") -> str:
    """The table message's few words on the discards (the picture shows them all)."""
    if not public.pool:
        return t(locale, "*(no discards yet)*")
    last = public.pool[-1]
    dead = sum(1 for p in public.pool if p.dead)
    text = t(
        locale,
        "Latest: `{tile}` {name} from {player}",
        tile=last.tile,
        name=short_tile(last.tile, locale),
        player=seats[last.seat].name,
    )
    return text + (t(locale, " · {n} dead", n=dead) if dead else "")


class CollectingWords:
    """The Words of the collecting games (:class:`bot.render.family.Words`)."""

    def claims(self, value: Any) -> bool:
        """Its states, views, results, actions and events."""
        return isinstance(value, _OWN)

    def rules_summary(self, rules: Any, locale: str) -> str:
        """``Culin rules · 2 players · 1 set · hand of 8``."""
        return rules_words.rules_summary(rules, locale)

    def rules_text(
        self,
        rules: Any,
        locale: str,
        *,
        ante: int | None = None,
        turn_seconds: int | None = None,
    ) -> str:
        """The rules in force as bullet points."""
        return rules_words.rules_text(rules, ante=ante, turn_seconds=turn_seconds, locale=locale)

    def public_event(self, event: Any, names: Sequence[str], locale: str) -> str | None:
        """A public event (the table's "Recent" lines): a drawn tile is never named."""
        loc = locale
        match event:
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
                return t(
                    loc, "{name} discarded {tile}.", name=names[seat], tile=tile_name(tile, loc)
                )
            case Declared(seat, witness, win_by):
                return t(loc, _WIN_BY[win_by], name=names[seat], witness=_witness(witness, loc))
            case GameDrawn(reason):
                if reason is EndReason.WALL:
                    return t(loc, "The game is drawn: the wall is exhausted.")
                return t(loc, "The game is drawn: the turn limit.")
        return turn_started(event, names, loc)

    def private_event(self, event: Any, seat: int, names: Sequence[str], locale: str) -> str | None:
        """One of ``seat``'s own moves told to him (``You drew 6-5 Axe 斧頭.``)."""
        loc = locale
        match event:
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

    def their_move(
        self, event: Any, reader: int | None, names: Sequence[str], locale: str
    ) -> str | None:
        """``took 6-5 from bob``, ``drew a tile``, ``discarded 3-1``."""
        loc = locale
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
        return None

    def replay_event(self, event: Any, names: Sequence[str], rules: Any, locale: str) -> str | None:
        """The game is over: a drawn tile is named, a winning hand told tile by tile. ``rules``
        may be the 4-2 rule alone (what the totals of the pairs depend on)."""
        four_two: FourTwo = rules if isinstance(rules, FourTwo) else rules.four_two_value
        match event:
            case Drew(seat, tile, wall_left):
                return t(
                    locale,
                    "{name} drew {tile} ({left} left in the wall).",
                    name=names[seat],
                    tile=tile_name(tile, locale),
                    left=wall_left,
                )
            case Declared(seat, witness, win_by):
                return t(
                    locale,
                    _WIN_BY[win_by],
                    name=names[seat],
                    witness=witness_text(witness, four_two, locale),
                )
        return self.public_event(event, names, locale)

    def action_label(self, action: Any, locale: str) -> str:
        """``Take 6-5``, ``Draw``, ``Discard 3-1``, ``Declare``."""
        match action:
            case Take(tile):
                return t(locale, "Take") if tile is None else t(locale, "Take {tile}", tile=tile)
            case Draw():
                return t(locale, "Draw")
            case Discard(tile):
                return t(locale, "Discard {tile}", tile=tile)
            case Declare():
                return t(locale, "Declare")
        raise AssertionError(f"unknown action {action!r}")

    def turn(
        self, view: Any, seats: Sequence[SeatLabel], deadline: float | None, locale: str
    ) -> str:
        """Whose turn it is, what he is to do and when his time runs out (or the result)."""
        if view.result is not None:
            return self.result(view.result, seats, locale)
        step = _STEPS.get(str(view.phase), N_("play"))
        return turn_line(view, seats, step, deadline, locale)

    def result(self, result: Any, seats: Sequence[SeatLabel], locale: str) -> str:
        """How the game ended, in one line."""
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

    def end_lines(
        self, result: Any, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> list[str]:
        """The winning hand, pair by pair (nothing after a draw)."""
        if result.witness is None or result.winner is None:
            return []
        hand = witness_text(result.witness, rules.four_two_value, locale)
        return [t(locale, "Winning hand: {hand}", hand=hand)]

    def prompt(self, view: Any, legal: Sequence[Any], locale: str) -> str:
        """The one line of a hand message saying what to do: the picture shows the hand, the
        new tile and the discards that may be taken, and the buttons carry the moves, so
        nothing is listed."""
        closed = closed_prompt(view, locale)
        if closed is not None:
            return closed
        takes = any(isinstance(a, Take) for a in legal)
        if Declare() in legal:
            return t(locale, "**It is your turn: you can win!** Declare, or discard a tile.")
        if any(isinstance(a, Discard) for a in legal):
            return t(locale, "**It is your turn:** discard a tile.")
        if takes and Draw() in legal:
            return t(
                locale,
                "**It is your turn:** take a discard framed in gold, or draw from the wall.",
            )
        if takes:
            return t(
                locale, "**It is your turn:** the wall is empty: take a discard framed in gold."
            )
        return t(locale, "**It is your turn:** draw from the wall.")

    def moves(
        self,
        view: Any,
        legal: Sequence[Any],
        locale: str,
        *,
        opener: bool = True,
        turned: bool = True,
    ) -> str:
        """Declare, take, draw or discard, with the tiles each may use."""
        closed = closed_prompt(view, locale)
        if closed is not None:
            return closed
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
                t(
                    locale,
                    "**discard** one of {tiles}",
                    tiles=", ".join(f"`{x}`" for x in discards),
                )
            )
        joined = t(locale, ", or ").join(options)
        if not opener:
            return t(locale, "You may {options}.", options=joined)
        return t(locale, "**It is your turn.** You may {options}.", options=joined)

    def seats(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> str:
        """Seats in play order with hand sizes; the first player said."""

        def detail(i: int) -> str:
            size = view.hand_sizes[i] if i < len(view.hand_sizes) else 0
            first = t(locale, " (first)") if i == view.first_seat else ""
            return f"{count_text(locale, size, 'tile')}{first}"

        return seat_lines(view, seats, detail)

    def table_sheet(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Sheet:
        """Seats, wall and discards; the picture shows the discards."""
        loc = locale
        return Sheet(
            fields=(
                Field(t(loc, "Seats"), self.seats(view, seats, loc), inline=True),
                Field(t(loc, "Wall"), count_text(loc, view.wall_size, "tile"), inline=True),
                Field(t(loc, "Discards ({n})", n=len(view.pool)), discards_line(view, seats, loc)),
            ),
            footer=t(
                loc, "Play with /take /draw /discard /declare here, or the buttons in your DM."
            ),
            image=DISCARDS_FILE,
        )

    def hand_fields(self, view: Any, table_link: str, locale: str) -> list[Field]:
        """``#channel · turn 4 · wall 20 · 3 discards``."""
        loc = locale
        value = t(
            loc,
            "{channel} · turn {turn} · wall {wall} · {discards} discard"
            if len(view.pool) == 1
            else "{channel} · turn {turn} · wall {wall} · {discards} discards",
            channel=table_link,
            turn=view.turn,
            wall=view.wall_size,
            discards=len(view.pool),
        )
        return [Field(t(loc, "Table"), value)]

    def hand_guide(self, view: Any, locale: str) -> str | None:
        """The eye and the ten-pairs the hand has made, the tiles not grouped, and what would
        complete a hand one tile short (``Waiting on 5-5 or 6-4``): from the seat's own tiles
        only (:func:`bot.games.collecting.engine.hands.guide_hand`)."""
        if view.seat is None or not view.hand:
            return None
        return guide_text(guide_hand(view.hand, view.rules), locale)

    def replay_sheet(
        self, table: Any, seats_views: Sequence[Any], names: Sequence[str], locale: str
    ) -> Sheet:
        """Every hand, the discards and the wall."""
        fields = hands_fields(
            table,
            seats_views,
            names,
            lambda seen: hand_text(seen.hand, locale),
            lambda seen: " ".join(f"`{tile}`" for tile in seen.hand) or t(locale, "*(no tiles)*"),
            locale,
        )
        fields.append(Field(t(locale, "Discards"), pool_text(table.pool, locale)[:1024]))
        footer = nt(
            locale, "{n} tile left in the wall", "{n} tiles left in the wall", table.wall_size
        )
        return Sheet(fields=tuple(fields), footer=footer)


def pool_text(pool: Sequence[FaceUp], locale: str = "en") -> str:
    """The face-up discards grouped by kind; dead ones (never takeable) listed apart."""
    if not pool:
        return t(locale, "*(no discards yet)*")
    live = [p.tile for p in pool if not p.dead]
    dead = [p.tile for p in pool if p.dead]

    def group(tiles: list[Tile]) -> str:
        return " · ".join(
            f"`{tile}` {short_tile(tile, locale)}" + (f" ×{count}" if count > 1 else "")
            for tile, count in _tile_counts(tiles)
        )

    lines = []
    if live:
        lines.append(group(live))
    if dead:
        lines.append(t(locale, "dead: {tiles}", tiles=group(dead)))
    return "\n".join(lines)


def _pair_total(a: Tile, b: Tile, four_two: FourTwo) -> int:
    values = ten_pair_values(a, b, four_two)
    return sum(values) if values is not None else a.pips + b.pips


def witness_text(
    witness: Arrangement, four_two: FourTwo = FourTwo.THREE, locale: str = "en"
) -> str:
    """The winning arrangement in one line: the eye, then each ten-pair with its total."""
    parts = [t(locale, "eye {tiles}", tiles=f"`{witness.eye[0]}` `{witness.eye[1]}`")]
    parts += [f"`{a}`+`{b}` = {_pair_total(a, b, four_two)}" for a, b in witness.pairs]
    return " · ".join(parts)


def _tile_counts(tiles: Iterable[Tile]) -> list[tuple[Tile, int]]:
    """Each kind among ``tiles`` with its count, in rank order."""
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
        for tile, count in _tile_counts(hand)
    )


def guide_text(guide: HandGuide, locale: str) -> str:
    """A hand guide in words: ``Eye 6-6 6-6 · ten-pairs 5-5 5-5, 6-4 3-1 · not grouped 2-1``,
    then the hand's state (a winning hand, or the tiles it waits on)."""
    loc = locale
    parts = []
    if guide.eye is not None:
        parts.append(t(loc, "Eye {tiles}", tiles=f"{guide.eye[0]} {guide.eye[1]}"))
    else:
        parts.append(t(loc, "No eye yet"))
    if guide.pairs:
        pairs = ", ".join(f"{a} {b}" for a, b in guide.pairs)
        parts.append(t(loc, "ten-pairs {pairs}", pairs=pairs))
    if guide.loose:
        parts.append(t(loc, "not grouped {tiles}", tiles=" ".join(str(x) for x in guide.loose)))
    line = " · ".join(parts)
    if guide.winning:
        return line + "\n" + t(loc, "A winning hand: declare it.")
    if guide.waiting:
        names = [str(x) for x in guide.waiting]
        tiles = (
            names[0]
            if len(names) == 1
            else t(loc, "{tiles} or {tile}", tiles=", ".join(names[:-1]), tile=names[-1])
        )
        return line + "\n" + t(loc, "Waiting on {tiles}.", tiles=tiles)
    return line
