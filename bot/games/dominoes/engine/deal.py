"""How the domino games' wall is built, for display."""

from __future__ import annotations

from bot.engine.rules import Game, RuleSet

__all__ = ["culin_wall"]


def culin_wall(rules: RuleSet) -> list[int]:
    """Pile heights of the wall as Culin builds it, for display.

    Piles are 5 high (4 for Kap Shap); the top tile of the 3rd, 5th, 7th ... pile, N-1 tiles in
    all, is moved to the far end, where the moved tiles lie as one extra low pile.
    """
    height = 4 if rules.game is Game.KAP_SHAP else 5
    full, rest = divmod(rules.tile_count, height)
    piles = [height] * full + ([rest] if rest else [])
    moved = 0
    for i in range(2, len(piles), 2):
        if moved == rules.players - 1:
            break
        piles[i] -= 1
        moved += 1
    if moved:
        piles.append(moved)
    return piles
