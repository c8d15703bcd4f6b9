"""Tsung Shap's values: phases, results, combinations, the public record, the events and the
state (RULES.md §3; the rules of play are in :mod:`bot.games.fishing.engine`'s docstring)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from bot.engine.deal import Deal
from bot.engine.events import TurnStarted
from bot.engine.rules import RuleSet
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET, Tile
from bot.games.fishing.engine.actions import Capture, Claim, ComboKind, End

SWEEP_SCORE = 40
"""What a sweep scores (plus the pip total under ``sweep_adds_pips``)."""

_FOUR_TWO = Tile(4, 2).index
_TWO_ONE = Tile(2, 1).index


def _kind(piece: int) -> int:
    return PIECE_KINDS[piece % PIECES_PER_SET]


class FishingPhase(enum.StrEnum):
    """Where the current player is within his turn."""

    TURN_OVER = "turn-over"
    PLAY = "play"
    OVER = "over"


class FishingEndReason(enum.StrEnum):
    """Why a Tsung Shap game ended."""

    PILE_EMPTY = "pile-empty"
    BOTH_PILES_EMPTY = "both-piles-empty"


@dataclass(frozen=True, slots=True)
class FishingResult:
    """The end of a game: the scores and the winner (``None`` for equal scores, a draw)."""

    reason: FishingEndReason
    turn: int
    scores: tuple[int, ...]
    winner: int | None

    @property
    def difference(self) -> int:
        """The winner's margin in points (0 for a draw)."""
        return max(self.scores) - min(self.scores)


@dataclass(frozen=True, slots=True)
class Combination:
    """One capture the turned tile can make (or could have made, for a missed one).

    ``tiles`` is the turned tile first, then the row tiles it takes (left to right).
    """

    kind: ComboKind
    end: End
    tiles: tuple[Tile, ...]
    score: int
    sweep: bool = False

    @property
    def capture(self) -> Capture:
        """The action that makes this capture."""
        return Capture(self.kind, self.end)

    @property
    def claim(self) -> Claim:
        """The action that claims this capture once it has been missed."""
        return Claim(self.kind, self.end)

    def __str__(self) -> str:
        what = "sweep" if self.sweep else str(self.kind)
        return f"{what} {self.end} ({' + '.join(map(str, self.tiles))}: {self.score})"


@dataclass(frozen=True, slots=True)
class FishingMove:
    """A public record of one step: who did what, the tiles it showed or took, what it
    scored. ``verb`` is the action's notation, or ``relay`` for the tile laid after a sweep."""

    turn: int
    seat: int
    verb: str
    tiles: tuple[Tile, ...] = ()
    score: int = 0

    def __str__(self) -> str:
        out = self.verb
        if self.tiles:
            out += " " + " ".join(map(str, self.tiles))
        if self.score:
            out += f" (+{self.score})"
        return out


# ---------------------------------------------------------------------------------------------
# Events (everything in Tsung Shap is public)


@dataclass(frozen=True, slots=True)
class TileTurned:
    """A player turned over the next tile of his pile (``relay``: right after a sweep)."""

    seat: int
    tile: Tile
    pile_left: int
    relay: bool = False


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile was laid at one ``end`` of the row; ``end is None``: it started a new row.
    ``auto``: there was no choice (an empty row, the opening tile, a relay)."""

    seat: int
    tile: Tile
    end: End | None
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Captured:
    """A player captured ``tiles`` (the turned tile first) and scored ``score``."""

    seat: int
    kind: ComboKind
    end: End
    tiles: tuple[Tile, ...]
    score: int
    sweep: bool = False


@dataclass(frozen=True, slots=True)
class Swept:
    """The capture before this event emptied a 2-tile row: the sweeper starts a new row."""

    seat: int


@dataclass(frozen=True, slots=True)
class MissedCapture:
    """``seat`` placed his tile although he could have captured; ``claimant`` may claim one
    of ``missed`` at the start of his turn."""

    seat: int
    claimant: int
    missed: tuple[Combination, ...]


@dataclass(frozen=True, slots=True)
class Claimed:
    """``seat`` claimed a combination ``from_seat`` missed, taking its tiles from the row."""

    seat: int
    from_seat: int
    combination: Combination


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: final scores, and the winner (``None``: a draw)."""

    scores: tuple[int, ...]
    winner: int | None
    reason: FishingEndReason


FishingEvent = (
    TurnStarted | TileTurned | Placed | Captured | Swept | MissedCapture | Claimed | GameOver
)
"""Every event of Tsung Shap (``TurnStarted`` is shared with the collecting games)."""


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class _Pending:
    """A missed capture (internal: carries the physical pieces)."""

    combination: Combination
    pieces: tuple[int, ...]
    row_len: int
    seat: int


@dataclass(frozen=True, slots=True)
class FishingState:
    """A whole Tsung Shap game. Treat as opaque outside the engine; read it through
    :func:`view`.

    ``piles[s]`` is what is left of seat ``s``'s pile, next tile first; ``row`` the tiles on
    the table, left to right; ``captured[s]`` what seat ``s`` has taken (captures and claims);
    ``turned`` the tile the current player has turned over and not played yet; ``pending`` the
    combinations the previous player missed, claimable by the current player.
    """

    rules: RuleSet
    seats: tuple[str, ...]
    deal: Deal
    piles: tuple[tuple[int, ...], ...]
    row: tuple[int, ...]
    captured: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    current: int
    phase: FishingPhase
    turn: int
    turned: int | None = None
    pending: tuple[_Pending, ...] = ()
    claimed: bool = False
    result: FishingResult | None = None
    version: int = 0
    history: tuple[FishingMove, ...] = field(default=())

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.result is not None


def pile_tiles(state: FishingState, seat: int) -> list[Tile]:
    """What is left of one seat's pile, in turning order (engine-internal and for tests:
    players never see it; use :func:`view`)."""
    return [KINDS[_kind(p)] for p in state.piles[seat]]


def row_tiles(state: FishingState) -> list[Tile]:
    """The row, left to right."""
    return [KINDS[_kind(p)] for p in state.row]
