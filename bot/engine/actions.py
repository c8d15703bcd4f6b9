"""Actions with notation both ways.

The collecting games: ``take 6-5``, ``draw``, ``discard 3-1``, ``declare`` (:data:`Action`,
read by :func:`parse_action`).

Tsung Shap (:data:`FishingAction`, read by :func:`parse_fishing_action`): ``draw`` (turn over
your next tile: the same :class:`Draw`), ``capture pair left|right``,
``capture triplet left|right|ends``, ``place left|right``, ``claim pair left|right`` and
``claim triplet left|right|ends``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.engine.errors import NotationError
from bot.engine.tiles import Tile, parse_tile
from bot.limits import quote_input

__all__ = [
    "Action",
    "AnyAction",
    "Capture",
    "Claim",
    "ComboKind",
    "Declare",
    "Discard",
    "Draw",
    "End",
    "FishingAction",
    "Place",
    "Take",
    "parse_action",
    "parse_any_action",
    "parse_fishing_action",
]


@dataclass(frozen=True, slots=True)
class Take:
    """Take a face-up discard. ``tile=None`` means "the most recent discard"."""

    tile: Tile | None = None

    def __str__(self) -> str:
        return "take" if self.tile is None else f"take {self.tile}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next tile from the wall."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay a tile from the hand face up."""

    tile: Tile

    def __str__(self) -> str:
        return f"discard {self.tile}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare a winning hand (the engine verifies it)."""

    def __str__(self) -> str:
        return "declare"


Action = Take | Draw | Discard | Declare

_VERBS = "take [tile], draw, discard <tile>, declare"


def parse_action(text: str) -> Action:
    """Read an action in notation; raises :class:`NotationError` with what was wrong."""
    words = text.strip().split(maxsplit=1)
    if not words:
        raise NotationError(f"Empty action: write one of {_VERBS}")
    verb = words[0].lower()
    arg = words[1].strip() if len(words) > 1 else ""
    if verb == "take":
        return Take(parse_tile(arg) if arg else None)
    if verb == "discard":
        if not arg:
            raise NotationError("Discard needs a tile, e.g. 'discard 3-1'")
        return Discard(parse_tile(arg))
    if verb in ("draw", "declare"):
        if arg:
            raise NotationError(f"{verb.capitalize()} takes no tile: write just '{verb}'")
        return Draw() if verb == "draw" else Declare()
    raise NotationError(f"Unknown action {quote_input(words[0])}: write one of {_VERBS}")


# ---------------------------------------------------------------------------------------------
# Tsung Shap


class ComboKind(enum.StrEnum):
    """What a Tsung Shap capture takes: a pair (identical tile) or a triplet (a multiple of
    ten)."""

    PAIR = "pair"
    TRIPLET = "triplet"


class End(enum.StrEnum):
    """Where on the row: the left end (L1, and L2 for a triplet), the right end (R1, R2) or
    both ends (L1 and R1, triplets only)."""

    LEFT = "left"
    RIGHT = "right"
    ENDS = "ends"


@dataclass(frozen=True, slots=True)
class Capture:
    """Capture with the turned-over tile: ``capture pair left``, ``capture triplet ends``."""

    kind: ComboKind
    end: End

    def __post_init__(self) -> None:
        _check_combo(self.kind, self.end, "capture")

    def __str__(self) -> str:
        return f"capture {self.kind} {self.end}"


@dataclass(frozen=True, slots=True)
class Place:
    """Lay the turned-over tile at one end of the row: ``place left``, ``place right``."""

    end: End

    def __post_init__(self) -> None:
        if self.end is End.ENDS:
            raise NotationError("A tile is placed at the left or the right end, not at 'ends'")

    def __str__(self) -> str:
        return f"place {self.end}"


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim a combination the opponent missed, named as it was when he missed it
    (``claim pair left``); only at the start of a turn, before turning over."""

    kind: ComboKind
    end: End

    def __post_init__(self) -> None:
        _check_combo(self.kind, self.end, "claim")

    def __str__(self) -> str:
        return f"claim {self.kind} {self.end}"


def _check_combo(kind: ComboKind, end: End, verb: str) -> None:
    if kind is ComboKind.PAIR and end is End.ENDS:
        raise NotationError(f"A pair is at the left or the right end: '{verb} pair left|right'")


FishingAction = Draw | Capture | Place | Claim
"""The actions of Tsung Shap."""

AnyAction = Action | FishingAction
"""An action of any game."""

_FISHING_VERBS = (
    "draw, capture pair left|right, capture triplet left|right|ends, place left|right, "
    "claim pair left|right, claim triplet left|right|ends"
)


def _word(options: type[enum.StrEnum], text: str, what: str, usage: str) -> str:
    for member in options:
        if member.value == text:
            return member.value
    raise NotationError(f"Not {what}: {quote_input(text)}; {usage}")


def parse_fishing_action(text: str) -> FishingAction:
    """Read a Tsung Shap action in notation; raises :class:`NotationError` with what was
    wrong."""
    words = text.strip().lower().split()
    if not words:
        raise NotationError(f"Empty action: write one of {_FISHING_VERBS}")
    verb, args = words[0], words[1:]
    if verb == "draw":
        if args:
            raise NotationError("Draw takes nothing after it: write just 'draw'")
        return Draw()
    if verb == "place":
        if len(args) != 1:
            raise NotationError("Write 'place left' or 'place right'")
        end = End(_word(End, args[0], "an end", "write 'place left' or 'place right'"))
        return Place(end)
    if verb in ("capture", "claim"):
        usage = f"write '{verb} pair left|right' or '{verb} triplet left|right|ends'"
        if len(args) != 2:
            raise NotationError(usage[:1].upper() + usage[1:])
        kind = ComboKind(_word(ComboKind, args[0], "pair or triplet", usage))
        end = End(_word(End, args[1], "left, right or ends", usage))
        return Capture(kind, end) if verb == "capture" else Claim(kind, end)
    raise NotationError(f"Unknown action {quote_input(words[0])}: write one of {_FISHING_VERBS}")


def parse_any_action(text: str) -> AnyAction:
    """Read an action of any game (every verb of every game)."""
    words = text.strip().split(maxsplit=1)
    if words and words[0].lower() in ("capture", "place", "claim"):
        return parse_fishing_action(text)
    return parse_action(text)
