"""The words of Tsung Shap: events public and private, turns, results, the moves a seat may
make (captures and claims with their scores), and the game's part of the table message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.events import TurnStarted
from bot.engine.tiles import Tile
from bot.games.dominoes.engine.actions import Draw
from bot.games.dominoes.render.words import (
    closed_prompt,
    hands_fields,
    seat_lines,
    turn_line,
    turn_started,
)
from bot.games.fishing.engine import (
    Captured,
    Claimed,
    FishingPhase,
    FishingResult,
    FishingState,
    FishingView,
    GameOver,
    MissedCapture,
    Placed,
    Swept,
    TileTurned,
)
from bot.games.fishing.engine.actions import Capture, Claim, End, Place
from bot.games.fishing.render import rules_text as rules_words
from bot.locale import N_, t
from bot.render.family import Field, SeatLabel, Sheet
from bot.render.text import count_text, tile_name

__all__ = ["NOTATION_WORDS", "ROW_FILE", "FishingWords", "fishing_fields", "scores_text"]

ROW_FILE = "row.png"
"""The table message's picture: the row and the tile just turned over."""

_OWN = (
    FishingState,
    FishingView,
    FishingResult,
    Capture,
    Claim,
    Place,
    Draw,
    TileTurned,
    Placed,
    Captured,
    Swept,
    MissedCapture,
    Claimed,
    GameOver,
    TurnStarted,
)
"""The values this family words (Draw and TurnStarted are the collecting games' too)."""

_STEPS: dict[str, str] = {
    FishingPhase.TURN_OVER: N_("turn over a tile (`/draw`)"),
    FishingPhase.PLAY: N_("capture (`/take`) or place the tile (`/discard side`)"),
}


def _term(locale: str, word: object) -> str:
    return t(locale, str(word), context="term")


def _tiles(items: Sequence[Tile]) -> str:
    return " + ".join(f"`{x}`" for x in items)


def scores_text(view: FishingView, seats: Sequence[SeatLabel], locale: str = "en") -> str:
    """Tsung Shap seats: score, tiles left in the pile, tiles captured; ▶ marks the player to
    act."""

    def detail(i: int) -> str:
        score = view.scores[i] if i < len(view.scores) else 0
        pile = view.pile_sizes[i] if i < len(view.pile_sizes) else 0
        left = count_text(locale, pile, "tile")
        return t(locale, "**{score}** points · {left} left in the pile", score=score, left=left)

    return seat_lines(view, seats, detail)


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


class FishingWords:
    """The Words of Tsung Shap (:class:`bot.render.family.Words`)."""

    def claims(self, value: Any) -> bool:
        """Its states, views, results, actions and events."""
        return isinstance(value, _OWN)

    def rules_summary(self, rules: Any, locale: str) -> str:
        """``Standard rules · 2 players · 1 set · piles of 12`` and the variants."""
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
        """A public event (the table's "Recent" lines)."""
        loc = locale
        match event:
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
                        loc,
                        "{name} laid {tile} out to start a new row.",
                        name=names[seat],
                        tile=tile,
                    )
                return t(
                    loc,
                    "{name} placed {tile} at the {end} end of the row.",
                    name=names[seat],
                    tile=tile,
                    end=_term(loc, end),
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
                    kind=_term(loc, kind),
                    where=t(loc, "both ends")
                    if end is End.ENDS
                    else t(loc, "the {end} end", end=_term(loc, end)),
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
                    "{name} could have captured and did not. {other} may claim one at the start "
                    "of the next turn: {options}.",
                    name=names[seat],
                    other=names[claimant],
                    options=options,
                )
            case Claimed(seat, from_seat, combo):
                return t(
                    loc,
                    "{name} claimed the {kind} {other} missed ({end}), {tiles}: {score} points.",
                    name=names[seat],
                    kind=_term(loc, combo.kind),
                    other=names[from_seat],
                    end=_term(loc, combo.end),
                    tiles=" + ".join(map(str, combo.tiles)),
                    score=combo.score,
                )
            case GameOver(scores, winner, _reason):
                table = ", ".join(f"{names[s]} {p}" for s, p in enumerate(scores))
                if winner is None:
                    return t(
                        loc, "Game over: {scores}. Equal scores: the game is drawn.", scores=table
                    )
                return t(loc, "Game over: {scores}. {name} wins.", scores=table, name=names[winner])
        return turn_started(event, names, loc)

    def private_event(self, event: Any, seat: int, names: Sequence[str], locale: str) -> str | None:
        """One of ``seat``'s own moves told to him; Tsung Shap hides nothing, so a tile turned
        over is named."""
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
                    return t(
                        loc, "You placed {tile} to start a new row.", tile=tile_name(tile, loc)
                    )
                return t(
                    loc,
                    "You placed {tile} at the {end} end.",
                    tile=tile_name(tile, loc),
                    end=_term(loc, end),
                )
            case Captured(s, kind, _end, tiles, score, sweep) if s == seat:
                joined = _tiles(tiles)
                if sweep:
                    return t(
                        loc,
                        "You swept the row: {tiles}, {score} points.",
                        tiles=joined,
                        score=score,
                    )
                return t(
                    loc,
                    "You captured a {kind}: {tiles}, {score} points.",
                    kind=_term(loc, kind),
                    tiles=joined,
                    score=score,
                )
            case Swept(s) if s == seat:
                return t(loc, "A sweep: your next tile starts a new row.")
            case Claimed(s, _from, combo) if s == seat:
                return t(
                    loc,
                    "You claimed the missed {kind}: {tiles}, {score} points.",
                    kind=_term(loc, combo.kind),
                    tiles=_tiles(combo.tiles),
                    score=combo.score,
                )
            case MissedCapture(s, claimant, _missed) if s == seat:
                return t(loc, "You could have captured: {name} may claim it.", name=names[claimant])
        return None

    def their_move(
        self, event: Any, reader: int | None, names: Sequence[str], locale: str
    ) -> str | None:
        """``placed 6-5 at the left end``, ``captured …: 20 points``; the tile turned over is
        told by where it went (placed, or the first of a capture's tiles)."""
        loc = locale
        match event:
            case Placed(_seat, tile, end, _auto):
                if end is None:
                    return t(loc, "started a new row with {tile}", tile=f"`{tile}`")
                return t(
                    loc,
                    "placed {tile} at the {end} end",
                    tile=f"`{tile}`",
                    end=_term(loc, end),
                )
            case Captured(_seat, _kind, _end, taken, score, sweep):
                points = count_text(loc, score, "point")
                if sweep:
                    return t(
                        loc,
                        "swept the row with {tiles}: {points}",
                        tiles=_tiles(taken),
                        points=points,
                    )
                return t(loc, "captured {tiles}: {points}", tiles=_tiles(taken), points=points)
            case Claimed(_seat, _from, combo):
                points = count_text(loc, combo.score, "point")
                return t(loc, "claimed {tiles}: {points}", tiles=_tiles(combo.tiles), points=points)
        return None

    def replay_event(self, event: Any, names: Sequence[str], rules: Any, locale: str) -> str | None:
        """As the table told it: Tsung Shap hides nothing."""
        return self.public_event(event, names, locale)

    def action_label(self, action: Any, locale: str) -> str:
        """``Capture pair left``, ``Claim triplet ends``, ``Place left``, ``Draw``."""
        match action:
            case Capture(kind, end):
                return t(
                    locale,
                    "Capture {kind} {end}",
                    kind=_term(locale, kind),
                    end=_term(locale, end),
                )
            case Claim(kind, end):
                return t(
                    locale, "Claim {kind} {end}", kind=_term(locale, kind), end=_term(locale, end)
                )
            case Place(end):
                return t(locale, "Place {end}", end=_term(locale, end))
            case Draw():
                return t(locale, "Draw")
        raise AssertionError(f"unknown action {action!r}")

    def turn(
        self, view: Any, seats: Sequence[SeatLabel], deadline: float | None, locale: str
    ) -> str:
        """Whose turn it is, what he is to do and when his time runs out (or the result)."""
        if view.result is not None:
            return self.result(view.result, seats, locale)
        if view.phase is FishingPhase.TURN_OVER and view.pending:
            step = N_("claim a missed capture (`/take`) or turn over a tile (`/draw`)")
        else:
            step = _STEPS.get(str(view.phase), N_("play"))
        return turn_line(view, seats, step, deadline, locale)

    def result(self, result: Any, seats: Sequence[SeatLabel], locale: str) -> str:
        """The scores, and who won."""
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

    def end_lines(
        self, result: Any, rules: Any, seats: Sequence[SeatLabel], locale: str
    ) -> list[str]:
        """Nothing more: the table message shows the final row and scores."""
        return []

    def prompt(self, view: Any, legal: Sequence[Any], locale: str) -> str:
        """Every move in words (Tsung Shap has no hand picture to show them)."""
        return self.moves(view, legal, locale)

    def moves(
        self,
        view: Any,
        legal: Sequence[Any],
        locale: str,
        *,
        opener: bool = True,
        turned: bool = True,
    ) -> str:
        """Claims, turning over, captures with their scores, placing."""
        closed = closed_prompt(view, locale)
        if closed is not None:
            return closed
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
            ""
            if tile is None
            else t(locale, " You turned over {tile}.", tile=tile_name(tile, locale))
        )
        return t(
            locale,
            "**It is your turn.**{turned} You may {options}.",
            turned=said,
            options=joined,
        )

    def seats(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> str:
        """Score and pile of each seat."""
        return scores_text(view, seats, locale)

    def table_sheet(self, view: Any, seats: Sequence[SeatLabel], locale: str) -> Sheet:
        """Scores and piles, the row, the tile turned over and any missed capture; the picture
        shows the row."""
        fields = fishing_fields(view, seats, locale)
        return Sheet(
            fields=tuple(Field(name, value) for name, value in fields),
            footer=t(
                locale, "Play with the buttons below, or /draw, /take and /discard side here."
            ),
            image=ROW_FILE,
        )

    def hand_fields(self, view: Any, table_link: str, locale: str) -> list[Field]:
        """None: a Tsung Shap seat's message is a short notice (the table shows everything)."""
        return []

    def hand_guide(self, view: Any, locale: str) -> str | None:
        """None: a Tsung Shap seat holds no hand (his pile is face down, unknown to all), and
        the row, which the table message shows, is the same for everybody."""
        return None

    def replay_sheet(
        self, table: Any, seats_views: Sequence[Any], names: Sequence[str], locale: str
    ) -> Sheet:
        """Every seat's score."""

        def points(seen: Any) -> str:
            return count_text(locale, seen.scores[seen.seat or 0], "point")

        return Sheet(fields=tuple(hands_fields(table, seats_views, names, points, points, locale)))


#: Words Tsung Shap's engine puts inside a notation refusal ("Not {what}: …; {usage}"), told in a
#: member's language through the ``term`` context (Message.localized looks values up there).
NOTATION_WORDS = (
    N_("an end"),
    N_("pair or triplet"),
    N_("left, right or ends"),
    N_("write 'place left' or 'place right'"),
    N_("write 'capture pair left|right' or 'capture triplet left|right|ends'"),
    N_("write 'claim pair left|right' or 'claim triplet left|right|ends'"),
)
