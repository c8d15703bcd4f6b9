"""What the two domino families' sim facets share: the deal of game ``i`` of a run.

A run's game ``i`` is dealt from the splitmix64 stream keyed by
:func:`bot.games.dominoes.sim.seeding.deal_key` ``(seed, i)`` (the compiled kernel reproduces it
exactly): the
deal depends on the rule set only through the player count, the number of sets and how the
first player is chosen, so the rule sets (or variants) of a comparison play the same deals.
"""

from __future__ import annotations

from bot.engine import Deal, RuleSet
from bot.games.dominoes.sim.seeding import deal_from_key, deal_key

__all__ = ["deal_for"]


def deal_for(rules: RuleSet, seed: int, index: int) -> Deal:
    """The deal of game ``index`` (the same for every rule set with the same players and sets)."""
    return deal_from_key(rules, deal_key(seed, index))
