"""What the two domino families' engine facets share, on today's engine code.

Both families play with one :class:`~bot.engine.RuleSet`, deal one permutation of the tiles and
write a deal as the tiles' notation in dealing order. Each family's facet adds the rest of
:class:`bot.engine.family.GameEngine` (``bot/games/<family>/engine/family.py``): its hidden
pieces, its records' words, its positions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from bot.engine.deal import Deal, make_deal
from bot.engine.family import State, TableOptions
from bot.engine.rules import Offer, RuleSet, with_flag
from bot.engine.variants import chosen_variants
from bot.games.dominoes.engine import records

__all__ = ["DominoEngine"]

S = TypeVar("S", bound=State)


class DominoEngine(Generic[S]):
    """The shared half of a domino family's engine facet, for states of type ``S``."""

    # -- rule book ----------------------------------------------------------------------------

    def rules_from_flags(self, flags: Mapping[str, Any]) -> RuleSet:
        """A stored rule set rebuilt and validated again (:meth:`RuleSet.from_flags`)."""
        return RuleSet.from_flags(flags)

    def with_flag(self, rules: RuleSet, name: str, value: str) -> RuleSet:
        """One flag set from text (:func:`bot.engine.with_flag`)."""
        return with_flag(rules, name, value)

    def table_options(self, rules: RuleSet) -> TableOptions:
        """The rule set's name (``custom`` when its offer flags match none), its sets and the
        variant flags that differ from the defaults of the same game, seats, sets and rule set
        (:func:`bot.engine.variants.chosen_variants`), as a restored table holds them."""
        return TableOptions(rules.rule_set_name, rules.sets, chosen_variants(rules))

    # -- what a rule set asks its family (bot.engine.rules.DominoRules) ------------------------

    def pile_size(self, rules: RuleSet) -> int:
        """No piles (the collecting games); Tsung Shap's facet says 16."""
        return 0

    def variant_words(self, rules: RuleSet) -> list[str]:
        """No variants in words (the collecting games); Tsung Shap's facet lists its own."""
        return []

    def first_turn_extra_draw(self, game: str, offer: Offer, draw_after_take: bool) -> bool:
        """No extra draw on the first turn (Kap Shap's facet says when there is one)."""
        return False

    # -- dealing and records ------------------------------------------------------------------

    def deal(self, rules: RuleSet, rng: random.Random, thrower: int = 0) -> Deal:
        """A fresh deal, its first seat by four dice (:func:`bot.engine.make_deal`)."""
        return make_deal(rules, rng, thrower)

    def deal_text(self, rules: RuleSet, deal: Deal) -> str:
        """The tiles in dealing order, as a record's ``Deal:`` line writes them."""
        return records.deal_text(deal)

    def check_deal_text(self, text: str) -> None:
        """NotationError for the first word that is not a tile."""
        records.check_deal_text(text)

    def read_deal(
        self, rules: RuleSet, text: str, first: int, thrower: int, dice: tuple[int, ...]
    ) -> Deal:
        """The inverse of :meth:`deal_text` (each kind's copies get its pieces in order)."""
        return records.read_deal(rules, text, first, thrower, dice)
