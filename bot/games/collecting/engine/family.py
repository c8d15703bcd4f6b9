"""The engine facet of the collecting games (Kap Shap, Kap Tai Shap): their state machine
(:mod:`.machine`), hands (:mod:`.hands`) and notation (:mod:`.actions`) behind
:class:`bot.engine.family.GameEngine`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction
from bot.engine.family import GameEngine, Standing, Variant
from bot.engine.rules import RULE_SET_NAMES, Game, Offer, RuleSet
from bot.engine.tiles import AmbiguousTile
from bot.games.collecting.engine import hidden, position, records, refusals
from bot.games.collecting.engine import machine as collecting
from bot.games.collecting.engine import rules as rules_of
from bot.games.collecting.engine.actions import Action, Declare, Discard, Take, parse_action
from bot.games.collecting.engine.machine import Event, GameState, View
from bot.games.dominoes.engine.actions import Draw
from bot.games.dominoes.engine.adapter import DominoEngine

__all__ = ["FACET", "CollectingEngine"]


class CollectingEngine(DominoEngine[GameState]):
    """Kap Shap and Kap Tai Shap for the engine layer."""

    @property
    def refusals(self) -> tuple[str, ...]:
        """Every refusal of a play or of notation this engine raises, as templates
        (:data:`bot.games.collecting.engine.refusals.REFUSALS`)."""
        return refusals.REFUSALS

    def make_rules(
        self,
        game: str,
        players: int | None = None,
        rule_set: str | None = None,
        sets: int | None = None,
        **flags: Any,
    ) -> RuleSet:
        """RULES.md's defaults (Culin, Classic for five players or more; the sets follow the
        seats), a named rule set, then flags."""
        return rules_of.make_rules(game, players, rule_set, sets, flags)

    def hand_size(self, rules: RuleSet) -> int:
        """8 in Kap Shap, 10 in Kap Tai Shap."""
        return rules_of.hand_size(rules)

    def dealt_count(self, rules: RuleSet) -> int:
        """H to the first player, H-1 to every other."""
        return rules_of.dealt_count(rules)

    def rule_set_name(self, rules: RuleSet) -> str:
        """``culin``, ``classic``, ``last-draw`` or ``custom``."""
        return rules_of.rule_set_name(rules)

    def rules_line(self, rules: RuleSet) -> str:
        """``kap-shap, 2 players, 1 set, culin rules``."""
        return rules_of.describe(rules)

    def first_turn_extra_draw(self, game: str, offer: Offer, draw_after_take: bool) -> bool:
        """Only Kap Shap under Culin."""
        return rules_of.default_first_turn_extra_draw(Game(game), offer, draw_after_take)

    def validate(self, rules: RuleSet) -> None:
        """Seats, sets and a wall left after the deal; the offer flags agree."""
        rules_of.validate(rules)

    def variants(self, game: str) -> tuple[Variant, ...]:
        """The flags ``/table new variant:`` accepts, in the order offered."""
        return rules_of.VARIANTS

    def rule_sets(self, game: str) -> tuple[str, ...]:
        """``culin``, ``classic``, ``last-draw``."""
        return tuple(RULE_SET_NAMES)

    def settlements(self, game: str) -> tuple[str, ...]:
        """The winner takes the pot (a game without points has no difference to pay)."""
        return ("pot",)

    def new_game(self, rules: RuleSet, seats: Sequence[str], deal: Deal) -> GameState:
        """The dealt game (:func:`bot.games.collecting.engine.machine.new_game`)."""
        return collecting.new_game(rules, seats, deal)

    def legal_actions(self, state: GameState) -> list[Action]:
        """Every action the current seat may take."""
        return collecting.legal_actions(state)

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        """Play one action; another game's action is refused as :func:`bot.engine.apply`
        refuses it."""
        if not isinstance(action, (Take, Draw, Discard, Declare)):
            raise IllegalAction(f"'{action}' is not a {state.rules.game} action")
        return collecting.apply(state, action)

    def view(self, state: GameState, seat: int | None) -> View:
        """What a seat (None: a spectator) may see."""
        return collecting.view(state, seat)

    def parse_action(self, text: str) -> Action:
        """``take [tile]``, ``draw``, ``discard tile``, ``declare``."""
        return parse_action(text)

    def resolve(self, state: GameState, text: str) -> Action:
        """A tile name shared by two kinds (``Nine``: 6-3 and 5-4) means the one of them the
        seat can take or discard now, when only one of them is legal."""
        try:
            return parse_action(text)
        except AmbiguousTile as exc:
            verb = text.split(maxsplit=1)[0].lower()
            legal = collecting.legal_actions(state)
            usable: list[Action] = []
            for tile in exc.options:
                candidate: Action = Take(tile) if verb == "take" else Discard(tile)
                if verb in ("take", "discard") and candidate in legal:
                    usable.append(candidate)
            if len(usable) == 1:
                return usable[0]
            raise

    def logged(self, before: GameState, after: GameState, action: Action) -> str:
        """A bare ``take`` takes the most recent takeable discard: the log names that tile."""
        if after.history and len(after.history) > len(before.history):
            return str(after.history[-1])
        return str(action)

    def describe_event(self, event: Event, viewer: int | None, names: Sequence[str]) -> str:
        """One English line (:func:`bot.games.collecting.engine.machine.describe_event`)."""
        return collecting.describe_event(event, viewer, names)

    def owns_event(self, event: object) -> bool:
        """The collecting games' events (``TurnStarted`` among them)."""
        return isinstance(event, Event)

    # -- records -------------------------------------------------------------------------

    def deal_comment(self, rules: RuleSet, deal: Deal) -> list[str]:
        """Who was dealt which tiles, for a reader of the record."""
        return records.deal_comment(rules, deal)

    def result_line(self, state: GameState) -> str:
        """The ``Result`` tag."""
        return records.result_line(state)

    def position_lines(self, state: GameState, seat: int | None) -> list[str]:
        """What ``kapshap replay`` prints of a state (every seat for None)."""
        return records.position_lines(state, seat)

    def parse_position(
        self, game: str, fields: Mapping[str, Sequence[str]]
    ) -> tuple[GameState, int]:
        """A typed position -> (state, seat to analyse)."""
        return position.parse_position(game, fields)

    def write_position(self, state: GameState) -> str:
        """A state as a typed position."""
        return position.write_position(state)

    # -- hidden information ------------------------------------------------------------------

    def unseen(self, state: GameState, seat: int) -> list[int]:
        """The pieces ``seat`` has not seen, sorted by kind (then piece)."""
        return hidden.unseen(state, seat)

    def rebuild(self, state: GameState, seat: int, order: Sequence[int]) -> GameState:
        """The places ``seat`` cannot see refilled, in order, from ``order``."""
        return hidden.rebuild(state, seat, order)

    def arrangement_count(self, state: GameState, seat: int) -> int:
        """How many arrangements :meth:`arrangements` yields."""
        return hidden.arrangement_count(state, seat)

    def arrangements(self, state: GameState, seat: int) -> Iterator[GameState]:
        """Every arrangement of the unseen pieces, equally likely under a random deal."""
        return hidden.arrangements(state, seat)

    # -- results -------------------------------------------------------------------------------

    def standing(self, state: GameState) -> Standing:
        """The winner first, everyone else tied second; a drawn game is not ranked."""
        result = state.result
        if result is None:
            raise ValueError("the game is not over")
        if result.winner is None:
            return Standing(winner=None, scores=None, ranks=None)
        ranks = tuple(1 if seat == result.winner else 2 for seat in range(state.rules.players))
        return Standing(winner=result.winner, scores=None, ranks=ranks)

    def seat_stats(
        self, final: GameState, events: Iterable[Event]
    ) -> tuple[Mapping[str, str | int | None], ...]:
        """The winner's arrangement and eye (when he declared); nothing for the other seats."""
        arrangement: str | None = None
        eye: str | None = None
        for event in events:
            if isinstance(event, collecting.Declared):
                arrangement = str(event.witness)
                eye = f"{event.witness.eye[0]} {event.witness.eye[1]}"
        winner = None if final.result is None else final.result.winner
        return tuple(
            {"arrangement": arrangement, "eye": eye} if seat == winner else {}
            for seat in range(final.rules.players)
        )

    def points_owed(self, final: GameState) -> int:
        """Nothing: a collecting game has no points, so no difference to pay."""
        return 0

    def forfeit_points(self, state: GameState, winner: int) -> int:
        """Nothing: a collecting game has no points."""
        return 0


FACET: GameEngine[RuleSet, GameState, View, Action, Event] = CollectingEngine()
"""The collecting games' engine facet (``engine_of("kap-shap")``)."""
