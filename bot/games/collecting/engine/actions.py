"""The collecting games' actions with notation both ways: ``take 6-5``, ``draw``,
``discard 3-1``, ``declare`` (:data:`Action`, read by :func:`parse_action`). :class:`Draw` is
the kit's (Tsung Shap draws too).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.errors import NotationError
from bot.engine.tiles import Tile, parse_tile
from bot.games.dominoes.engine.actions import Draw
from bot.limits import quote_input

__all__ = ["Action", "Declare", "Discard", "Draw", "Take", "parse_action"]


@dataclass(frozen=True, slots=True)
class Take:
    """Take a face-up discard. ``tile=None`` means "the most recent discard"."""

    tile: Tile | None = None

    def __str__(self) -> str:
        return "take" if self.tile is None else f"take {self.tile}"


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
