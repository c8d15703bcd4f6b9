"""Prize money in whole chips: the split sums exactly to the pool.

The pool is divided by the largest-remainder method (each place gets the floor of its share,
the chips left over go one each to the places with the largest fractions, better places first
on equal fractions). Only eligible players are paid — never a computer filler or a
disqualified player: they are passed over and the prizes go to the best-placed eligible players
in order, so their share stays with the humans. With fewer eligible players than prize places,
the split is renormalised over the places that are filled, so the whole pool is always paid.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.tournament.model import PlayerId, TournamentError

__all__ = ["payouts", "split_pool"]


def split_pool(pool: int, weights: Sequence[int]) -> list[int]:
    """``pool`` chips in proportion to ``weights`` (positive), as integers summing to ``pool``."""
    if pool < 0:
        raise TournamentError("The prize pool cannot be negative.")
    if not weights or any(w <= 0 for w in weights):
        raise TournamentError("Prize shares must be positive.")
    total = sum(weights)
    amounts = [pool * w // total for w in weights]
    remainders = [pool * w % total for w in weights]
    left = pool - sum(amounts)
    for i in sorted(range(len(weights)), key=lambda i: (-remainders[i], i))[:left]:
        amounts[i] += 1
    return amounts


def payouts(
    pool: int,
    split: Sequence[int],
    ranking: Sequence[PlayerId],
    eligible: Callable[[PlayerId], bool],
) -> dict[PlayerId, int]:
    """Chips won by each paid player, from the final ``ranking`` (best first).

    The values sum to ``pool`` whenever someone is eligible; with nobody eligible (or no pool)
    nothing is paid and the caller refunds the buy-ins."""
    if pool == 0:
        return {}
    winners = [p for p in ranking if eligible(p)][: len(split)]
    if not winners:
        return {}
    amounts = split_pool(pool, split[: len(winners)])
    return {p: a for p, a in zip(winners, amounts, strict=True) if a}
