"""What the simulator keeps of one game."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GameRecord"]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The outcome of one simulated game.

    ``turns`` is the number of the last turn played (1-based, counting every player turn,
    including the first player's opening turn): for a win it is the winning turn T.
    """

    first_seat: int
    winner: int | None
    reason: str  # "declared" | "wall" | "cap"
    win_by: str | None  # "dealt" | "take" | "draw" (None for a draw)
    turns: int
    takes: int
    take_pool_total: int  # sum over takes of the takeable discards at the moment of the take
