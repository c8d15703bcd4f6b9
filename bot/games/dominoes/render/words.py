"""Words both domino families share: the frame of a turn line and of a seat line, the
"not now" prompts, the 4-2 rule and the host's variants (render layer: no discord)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.engine.events import TurnStarted
from bot.engine.rules import FourTwo, RuleSet
from bot.engine.variants import chosen_variants
from bot.locale import N_, t
from bot.render.family import Field, SeatLabel
from bot.render.text import deadline_text, duration_text

__all__ = [
    "FOUR_TWO",
    "INLINE_HANDS",
    "closed_prompt",
    "hands_fields",
    "seat_lines",
    "timer_line",
    "turn_line",
    "turn_started",
    "variants_lines",
]

FOUR_TWO = {
    FourTwo.THREE: N_("4-2 counts 3"),
    FourTwo.SIX: N_("4-2 counts 6"),
    FourTwo.WILD: N_("4-2 and 2-1 count 3 or 6 (Gee Joon wild)"),
}
"""What the 4-2 tile counts, as the rules text says it."""


def turn_line(
    view: Any, seats: Sequence[SeatLabel], step: str, deadline: float | None, locale: str
) -> str:
    """``Turn 3: **bob** to draw from the wall.``, and when his time runs out; ``step`` is the
    message id of what he is to do."""
    seat = seats[view.current]
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


def turn_started(event: object, names: Sequence[str], locale: str) -> str | None:
    """The public line of a turn that starts (every game has turns); None for other events."""
    match event:
        case TurnStarted(seat, turn):
            return t(locale, "Turn {turn}: {name} to play.", turn=turn, name=names[seat])
    return None


def seat_lines(view: Any, seats: Sequence[SeatLabel], detail: Callable[[int], str]) -> str:
    """One line per seat in play order (``▶ **bob** 🤖 — 3 tiles``): the player to act is
    marked ▶ and in bold, a computer seat 🤖, and ``detail(seat)`` follows the dash."""
    lines = []
    for i, seat in enumerate(seats):
        marker = "▶" if view.result is None and i == view.current else "•"
        who = f"**{seat.name}**" if marker == "▶" else seat.name
        robot = " 🤖" if seat.is_ai else ""
        lines.append(f"{marker} {who}{robot} — {detail(i)}")
    return "\n".join(lines)


def closed_prompt(view: Any, locale: str) -> str | None:
    """What a seat is told when it may not move (the game is over, or it is not his turn);
    None on his turn."""
    if view.result is not None:
        return t(locale, "The game is over.")
    if not view.my_turn:
        return t(locale, "It is not your turn: you will be told here when it is.")
    return None


def variants_lines(rules: RuleSet, locale: str = "en") -> list[str]:
    """The variants the host chose (``/table new variant:…``), as he typed them."""
    chosen = chosen_variants(rules)
    if not chosen:
        return []
    listed = " · ".join(f"`{k}={v}`" for k, v in chosen.items())
    return [t(locale, "• **Variants:** {variants}", variants=listed)]


def timer_line(turn_seconds: int, locale: str) -> str:
    """The rules text's line on the turn timer."""
    return t(
        locale,
        "• **Turn timer:** {duration}; then the computer plays that turn for you.",
        duration=duration_text(turn_seconds, locale),
    )


INLINE_HANDS = 4
"""Up to this many seats, each hand is its own field in words; beyond, one line per seat in
notation (an embed holds at most 25 fields and 6,000 characters: 28 hands in words do not fit)."""


def hands_fields(
    table: Any,
    views: Sequence[Any],
    names: Sequence[str],
    field: Callable[[Any], str],
    line: Callable[[Any], str],
    locale: str,
) -> list[Field]:
    """A replay page's fields of every seat (the one to act marked ▶): ``field(view)`` of
    each seat inline, or beyond :data:`INLINE_HANDS` seats ``line(view)`` of each, a line a
    seat, in fields headed "Hands"."""
    loc = locale
    out: list[Field] = []
    if len(views) <= INLINE_HANDS:
        for seat, seat_view in enumerate(views):
            marker = "▶ " if table.result is None and table.current == seat else ""
            out.append(Field(f"{marker}{names[seat]}"[:256], field(seat_view)[:1024], inline=True))
        return out
    lines = [
        ("▶ " if table.result is None and table.current == seat else "")
        + t(loc, "**{name}**: {hand}", name=names[seat][:40], hand=line(seat_view))
        for seat, seat_view in enumerate(views)
    ]
    chunk: list[str] = []
    for text in lines:
        if chunk and len("\n".join([*chunk, text])) > 1024:
            out.append(Field(t(loc, "Hands"), "\n".join(chunk)))
            chunk = []
        chunk.append(text)
    out.append(Field(t(loc, "Hands"), "\n".join(chunk)))
    return out
