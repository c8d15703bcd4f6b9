"""The engine facet of Tsung Shap: its state machine (:mod:`bot.games.fishing.engine`) and
notation (:mod:`.actions`) behind :class:`bot.engine.family.GameEngine`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction
from bot.engine.family import GameEngine, Standing, Variant
from bot.engine.rules import FISHING_RULE_SET, PILE_SIZE, RuleSet
from bot.games.dominoes.engine.actions import Draw
from bot.games.dominoes.engine.adapter import DominoEngine
from bot.games.fishing import engine as fishing
from bot.games.fishing.engine import (
    FishingEvent,
    FishingState,
    FishingView,
    hidden,
    position,
    records,
    refusals,
)
from bot.games.fishing.engine import rules as rules_of
from bot.games.fishing.engine.actions import (
    Capture,
    Claim,
    FishingAction,
    Place,
    parse_fishing_action,
)

__all__ = ["FACET", "FishingEngine"]


class FishingEngine(DominoEngine[FishingState]):
    """Tsung Shap for the engine layer."""

    @property
    def refusals(self) -> tuple[str, ...]:
        """Every refusal of a play or of notation this engine raises, as templates
        (:data:`bot.games.fishing.engine.refusals.REFUSALS`)."""
        return refusals.REFUSALS

    def make_rules(
        self,
        game: str,
        players: int | None = None,
        rule_set: str | None = None,
        sets: int | None = None,
        **flags: Any,
    ) -> RuleSet:
        """RULES.md §3: two players, one set, 4-2 counts 6; its one rule set, ``standard``;
        then flags."""
        return rules_of.make_rules(game, players, rule_set, sets, flags)

    def hand_size(self, rules: RuleSet) -> int:
        """No hand: the size of a pile (16)."""
        return PILE_SIZE

    def pile_size(self, rules: RuleSet) -> int:
        """16 tiles in each pile."""
        return PILE_SIZE

    def dealt_count(self, rules: RuleSet) -> int:
        """Every tile, a pile to each seat."""
        return PILE_SIZE * rules.players

    def rule_set_name(self, rules: RuleSet) -> str:
        """``standard``: the variants are flags."""
        return FISHING_RULE_SET

    def rules_line(self, rules: RuleSet) -> str:
        """``tsung-shap, 2 players, 1 set``, then the variants chosen."""
        return rules_of.describe(rules)

    def variant_words(self, rules: RuleSet) -> list[str]:
        """The variants chosen, in words."""
        return rules_of.variants(rules)

    def validate(self, rules: RuleSet) -> None:
        """Two players and one set."""
        rules_of.validate(rules)

    def variants(self, game: str) -> tuple[Variant, ...]:
        """The flags ``/table new variant:`` accepts, in the order offered."""
        return rules_of.VARIANTS

    def rule_sets(self, game: str) -> tuple[str, ...]:
        """One rule set, ``standard``: the variants are flags."""
        return (FISHING_RULE_SET,)

    def settlements(self, game: str) -> tuple[str, ...]:
        """The pot, or the loser paying per point of difference."""
        return ("pot", "difference")

    def new_game(self, rules: RuleSet, seats: Sequence[str], deal: Deal) -> FishingState:
        """The dealt game (:func:`bot.games.fishing.engine.new_game`)."""
        return fishing.new_game(rules, seats, deal)

    def legal_actions(self, state: FishingState) -> list[FishingAction]:
        """Every action the current seat may take."""
        return fishing.legal_actions(state)

    def apply(
        self, state: FishingState, action: FishingAction
    ) -> tuple[FishingState, list[FishingEvent]]:
        """Play one action; another game's action is refused as :func:`bot.engine.apply`
        refuses it."""
        if not isinstance(action, (Draw, Capture, Place, Claim)):
            raise IllegalAction(f"'{action}' is not a Tsung Shap action")
        return fishing.apply(state, action)

    def view(self, state: FishingState, seat: int | None) -> FishingView:
        """What a seat (None: a spectator) may see: the same for everybody."""
        return fishing.view(state, seat)

    def parse_action(self, text: str) -> FishingAction:
        """``draw``, ``capture …``, ``place left|right``, ``claim …``."""
        return parse_fishing_action(text)

    def resolve(self, state: FishingState, text: str) -> FishingAction:
        """:meth:`parse_action`: Tsung Shap's notation names no tile."""
        return parse_fishing_action(text)

    def logged(self, before: FishingState, after: FishingState, action: FishingAction) -> str:
        """The action as given (its history holds moves, not notation)."""
        return str(action)

    def describe_event(self, event: FishingEvent, viewer: int | None, names: Sequence[str]) -> str:
        """One English line (:func:`bot.games.fishing.engine.describe_event`)."""
        return fishing.describe_event(event, viewer, names)

    def owns_event(self, event: object) -> bool:
        """Tsung Shap's events (``TurnStarted`` too, which it shares with the collecting
        games; those were registered first, so they describe it)."""
        return isinstance(event, FishingEvent)

    # -- records -------------------------------------------------------------------------

    def deal_comment(self, rules: RuleSet, deal: Deal) -> list[str]:
        """Who was dealt which tiles, for a reader of the record."""
        return records.deal_comment(rules, deal)

    def result_line(self, state: FishingState) -> str:
        """The ``Result`` tag."""
        return records.result_line(state)

    def position_lines(self, state: FishingState, seat: int | None) -> list[str]:
        """What ``kapshap replay`` prints of a state (every seat for None)."""
        return records.position_lines(state, seat)

    def parse_position(
        self, game: str, fields: Mapping[str, Sequence[str]]
    ) -> tuple[FishingState, int]:
        """A typed position -> (state, seat to analyse)."""
        return position.parse_position(game, fields)

    def write_position(self, state: FishingState) -> str:
        """A state as a typed position."""
        return position.write_position(state)

    # -- hidden information ------------------------------------------------------------------

    def unseen(self, state: FishingState, seat: int) -> list[int]:
        """The pieces ``seat`` has not seen, sorted by kind (then piece)."""
        return hidden.unseen(state, seat)

    def rebuild(self, state: FishingState, seat: int, order: Sequence[int]) -> FishingState:
        """The places ``seat`` cannot see refilled, in order, from ``order``."""
        return hidden.rebuild(state, seat, order)

    def arrangement_count(self, state: FishingState, seat: int) -> int:
        """How many arrangements :meth:`arrangements` yields."""
        return hidden.arrangement_count(state, seat)

    def arrangements(self, state: FishingState, seat: int) -> Iterator[FishingState]:
        """Every arrangement of the unseen pieces, equally likely under a random deal."""
        return hidden.arrangements(state, seat)

    # -- results -------------------------------------------------------------------------------

    def standing(self, state: FishingState) -> Standing:
        """Ranked by score, equal scores tied (a drawn game too)."""
        result = state.result
        if result is None:
            raise ValueError("the game is not over")
        scores = result.scores
        ranks = tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)
        return Standing(winner=result.winner, scores=scores, ranks=ranks)

    def seat_stats(
        self, final: FishingState, events: Iterable[FishingEvent]
    ) -> tuple[Mapping[str, str | int | None], ...]:
        """Every seat's captures, sweeps and claims, and its final score (None until the
        game is over)."""
        players = final.rules.players
        captures = [0] * players
        sweeps = [0] * players
        claims = [0] * players
        for event in events:
            if isinstance(event, fishing.Captured):
                captures[event.seat] += 1
                sweeps[event.seat] += int(event.sweep)
            elif isinstance(event, fishing.Claimed):
                claims[event.seat] += 1
        scores = None if final.result is None else final.result.scores
        return tuple(
            {
                "score": None if scores is None else scores[seat],
                "captures": captures[seat],
                "sweeps": sweeps[seat],
                "claims": claims[seat],
            }
            for seat in range(players)
        )

    def points_owed(self, final: FishingState) -> int:
        """``settle_rate`` × the point difference under ``difference`` settlement
        (:func:`bot.games.fishing.engine.difference_payment`)."""
        if final.result is None:
            raise ValueError("the game is not over")
        return fishing.difference_payment(final.rules, final.result)

    def forfeit_points(self, state: FishingState, winner: int) -> int:
        """The points the other seat is behind ``winner`` now (0 if he is not behind)."""
        scores = fishing.view(state, None).scores
        return max(0, scores[winner] - scores[1 - winner])


FACET: GameEngine[RuleSet, FishingState, FishingView, FishingAction, FishingEvent] = FishingEngine()
"""Tsung Shap's engine facet (``engine_of("tsung-shap")``)."""
