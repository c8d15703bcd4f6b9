"""Round robin by the circle method: everyone meets everyone once.

With an odd number of players a phantom joins; whoever is drawn against it rests that round (a
rest scores nothing: every player rests exactly once, so it is fair)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournament.model import PlayerId, TournamentError

__all__ = ["round_robin_rounds", "round_robin_schedule"]


def round_robin_rounds(players: int) -> int:
    """The number of rounds for ``players`` players."""
    return players - 1 if players % 2 == 0 else players


def round_robin_schedule(
    players: Sequence[PlayerId],
) -> list[tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]]:
    """Every round as (pairs, resting player). Seed order in: player 0 stays fixed, the others
    turn around the circle; sides alternate so nobody is always listed first."""
    if len(players) < 2:
        raise TournamentError("A round robin needs at least two players.")
    circle: list[PlayerId | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds: list[tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]] = []
    for r in range(n - 1):
        pairs: list[tuple[PlayerId, PlayerId]] = []
        rest: PlayerId | None = None
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None or b is None:
                rest = b if a is None else a
                continue
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append((pairs, rest))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds
