"""What the domino families' rule sets share (:class:`bot.engine.rules.RuleSet`): the checks
every game's table makes last, after its own."""

from __future__ import annotations

from bot.engine.errors import RulesError
from bot.engine.family import Variant
from bot.engine.rules import RuleSet
from bot.games import N_

__all__ = [
    "BOOL",
    "FIRST_PLAYER",
    "FOUR_TWO_VALUE",
    "RAKE_PERCENT",
    "check_house_and_turns",
]

BOOL = ("true", "false")
"""The values of a yes-or-no flag, as a host types them."""

FOUR_TWO_VALUE = Variant("four_two_value", ("3", "6", "wild"), N_("what 4-2 counts (wild: 3 or 6)"))
FIRST_PLAYER = Variant("first_player", ("four-dice", "lots"), N_("how the first player is chosen"))
RAKE_PERCENT = Variant("rake_percent", ("0", "5", "10"), N_("house cut of the pot, 0 to 50 %"))


def check_house_and_turns(rules: RuleSet) -> None:
    """The house's share and the turn cap, within their bounds."""
    if not 0 <= rules.rake_percent <= 50:
        raise RulesError(f"rake_percent must be between 0 and 50, not {rules.rake_percent}")
    if not 1 <= rules.max_turns <= 100_000:
        raise RulesError(f"max_turns must be between 1 and 100000, not {rules.max_turns}")
