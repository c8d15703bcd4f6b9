"""What the domino families' rule sets share (:class:`bot.engine.rules.RuleSet`): the checks
every game's table makes last, after its own."""

from __future__ import annotations

from bot.engine.errors import RulesError
from bot.engine.rules import RuleSet

__all__ = ["check_house_and_turns"]


def check_house_and_turns(rules: RuleSet) -> None:
    """The house's share and the turn cap, within their bounds."""
    if not 0 <= rules.rake_percent <= 50:
        raise RulesError(f"rake_percent must be between 0 and 50, not {rules.rake_percent}")
    if not 1 <= rules.max_turns <= 100_000:
        raise RulesError(f"max_turns must be between 1 and 100000, not {rules.max_turns}")
