"""What the two domino families' engine facets share, on today's engine code.

Both families play with one :class:`~bot.engine.RuleSet`, deal one permutation of the tiles and
write a deal as the tiles' notation in dealing order; :mod:`bot.engine.hidden`,
:mod:`bot.engine.record` and :mod:`bot.engine.position` already tell the two kinds of state
apart, so the facets may hand them either. Each family's facet adds the rest of
:class:`bot.engine.family.GameEngine` (``bot/games/<family>/engine/family.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast

from bot.engine import hidden, position, record
from bot.engine.collecting import GameState
from bot.engine.deal import Deal, make_deal
from bot.engine.family import TableOptions, Variant
from bot.engine.fishing import FishingState
from bot.engine.rules import RuleSet, make_rules, with_flag
from bot.engine.tiles import kind_of_piece, parse_tile
from bot.engine.variants import chosen_variants

__all__ = ["DominoEngine"]

S = TypeVar("S", GameState, FishingState)


class DominoEngine(Generic[S]):
    """The shared half of a domino family's engine facet, for states of type ``S``."""

    # -- rule book ----------------------------------------------------------------------------

    def make_rules(
        self,
        game: str,
        players: int | None = None,
        rule_set: str | None = None,
        sets: int | None = None,
        **flags: Any,
    ) -> RuleSet:
        """RULES.md's defaults, a named rule set, then flags (:func:`bot.engine.make_rules`)."""
        return make_rules(game, players, rule_set, sets, **flags)

    def rules_from_flags(self, flags: Mapping[str, Any]) -> RuleSet:
        """A stored rule set rebuilt and validated again (:meth:`RuleSet.from_flags`)."""
        return RuleSet.from_flags(flags)

    def with_flag(self, rules: RuleSet, name: str, value: str) -> RuleSet:
        """One flag set from text (:func:`bot.engine.with_flag`)."""
        return with_flag(rules, name, value)

    def variants(self, game: str) -> tuple[Variant, ...]:
        """Not here yet: the variants are ``bot.services.variants``' (moves in step 7)."""
        raise NotImplementedError("moves in step 7 (today bot/services/variants.py)")

    def table_options(self, rules: RuleSet) -> TableOptions:
        """The named rule set, the sets and the variants that differ from that rule set's
        defaults (:func:`bot.engine.variants.chosen_variants`)."""
        return TableOptions(rules.rule_set_name, rules.sets, chosen_variants(rules))

    @property
    def refusals(self) -> tuple[str, ...]:
        """Not here yet: bot/locale/refusals.py lists them for both families (step 7)."""
        raise NotImplementedError("moves in step 7 (today bot/locale/refusals.py)")

    # -- dealing and records ------------------------------------------------------------------

    def deal(self, rules: RuleSet, rng: random.Random, thrower: int = 0) -> Deal:
        """A fresh deal, its first seat by four dice (:func:`bot.engine.make_deal`)."""
        return make_deal(rules, rng, thrower)

    def deal_text(self, rules: RuleSet, deal: Deal) -> str:
        """The tiles in dealing order, as a record's ``Deal:`` line writes them."""
        return " ".join(str(kind_of_piece(piece)) for piece in deal.order)

    def read_deal(
        self, rules: RuleSet, text: str, first: int, thrower: int, dice: tuple[int, ...]
    ) -> Deal:
        """The inverse of :meth:`deal_text` (:func:`bot.engine.record.deal_from_order`)."""
        tiles = [parse_tile(word) for word in text.split()]
        return record.deal_from_order(rules, tiles, first_seat=first, thrower=thrower, dice=dice)

    def deal_comment(self, rules: RuleSet, deal: Deal) -> list[str]:
        """Not here yet: written inside bot/engine/record.py (moves in step 7)."""
        raise NotImplementedError("moves in step 7 (today bot/engine/record.py _deal_comment)")

    def result_line(self, state: S) -> str:
        """The ``Result`` tag (:func:`bot.engine.record.result_line`)."""
        return record.result_line(state)

    def position_lines(self, state: S, seat: int | None) -> list[str]:
        """Not here yet: ``kapshap replay`` prints them (moves in step 7)."""
        raise NotImplementedError("moves in step 7 (today bot/records_cli.py _position)")

    def parse_position(self, game: str, fields: Mapping[str, str]) -> tuple[S, int]:
        """Not here yet: bot/engine/position.py parses every game (moves in step 7)."""
        raise NotImplementedError("moves in step 7 (today bot/engine/position.py)")

    def write_position(self, state: S) -> str:
        """A state as a typed position (:func:`bot.engine.position.write_position`)."""
        return position.write_position(state)

    # -- hidden information -------------------------------------------------------------------

    def unseen(self, state: S, seat: int) -> list[int]:
        """The pieces ``seat`` has not seen (:func:`bot.engine.hidden.unseen_pieces`)."""
        return hidden.unseen_pieces(state, seat)

    def rebuild(self, state: S, seat: int, order: Sequence[int]) -> S:
        """The unseen places refilled from ``order``, as :func:`hidden.determinize` does."""
        return cast(S, hidden._rebuild(state, seat, list(order)))  # the kind it was given

    def arrangement_count(self, state: S, seat: int) -> int:
        """How many arrangements there are (:func:`bot.engine.hidden.arrangement_count`)."""
        return hidden.arrangement_count(state, seat)

    def arrangements(self, state: S, seat: int) -> Iterator[S]:
        """Every arrangement of the unseen pieces (:func:`bot.engine.hidden.arrangements`)."""
        found: Iterator[Any] = hidden.arrangements(state, seat)
        return found
