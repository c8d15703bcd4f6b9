"""Tsung Shap's actions with notation both ways (:data:`FishingAction`, read by
:func:`parse_fishing_action`): ``draw`` (turn over your next tile: the kit's :class:`Draw`),
``capture pair left|right``, ``capture triplet left|right|ends``, ``place left|right``,
``claim pair left|right`` and ``claim triplet left|right|ends``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.engine.errors import NotationError
from bot.games.dominoes.engine.actions import Draw
from bot.limits import quote_input

__all__ = [
    "Capture",
    "Claim",
    "ComboKind",
    "Draw",
    "End",
    "FishingAction",
    "Place",
    "parse_fishing_action",
]


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
