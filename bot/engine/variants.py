"""Which rule flags of a rule set differ from its game's defaults (its *variants*).

A stored game keeps every flag; this recovers what its host chose, for the lobby, ``/table
rules`` and a rematch, without keeping a second record of the choice.
"""

from __future__ import annotations

import enum

from bot.engine.errors import EngineError
from bot.engine.rules import RuleSet, make_rules

__all__ = ["NOT_VARIANTS", "chosen_variants"]

NOT_VARIANTS = frozenset(
    {"game", "players", "sets", "offer", "draw_after_take", "settlement", "settle_rate"}
)
"""Flags that are not variants: they are chosen as the game, seats, sets, rule set, settlement."""


def chosen_variants(rules: RuleSet) -> dict[str, str]:
    """``{flag: value}`` of every variant flag that differs from the defaults of the same
    game, players, sets and rule set, values written as a host types them."""
    name = rules.rule_set_name
    try:
        base = make_rules(rules.game, rules.players, None if name == "custom" else name, rules.sets)
    except EngineError:
        return {}
    chosen: dict[str, str] = {}
    mine, theirs = rules.flags(), base.flags()
    for flag, value in mine.items():
        if flag in NOT_VARIANTS or theirs.get(flag) == value:
            continue
        if isinstance(value, bool):
            chosen[flag] = "true" if value else "false"
        elif isinstance(value, enum.Enum):
            chosen[flag] = str(value.value)
        else:
            chosen[flag] = str(value)
    return chosen
