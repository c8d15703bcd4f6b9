"""One entry point for every game: the four driving functions dispatch on ``rules.game``.

* Kap Shap and Kap Tai Shap go to :mod:`bot.engine.collecting` (``GameState``, ``View``,
  ``Action``, ``Event``).
* Tsung Shap goes to :mod:`bot.engine.fishing` (``FishingState``, ``FishingView``,
  ``FishingAction``, ``FishingEvent``).

``legal_actions``, ``apply`` and ``view`` are overloaded on the state's type, so a caller holding
a ``GameState`` gets the collecting types back and type-checks as before. ``new_game`` can only
know the game from the value of ``rules.game``, so it is typed ``Any``: it returns a
``GameState`` for the collecting games and a ``FishingState`` for Tsung Shap (callers that want
the precise type may call ``collecting.new_game`` / ``fishing.new_game`` directly).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, overload

from bot.engine import collecting, fishing
from bot.engine.actions import (
    Action,
    AnyAction,
    Capture,
    Claim,
    Declare,
    Discard,
    Draw,
    FishingAction,
    Place,
    Take,
    parse_any_action,
    parse_fishing_action,
)
from bot.engine.actions import parse_action as parse_collecting_action
from bot.engine.collecting import Event, GameState, View
from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction, RulesError
from bot.engine.fishing import FishingEvent, FishingState, FishingView
from bot.engine.rules import Game, RuleSet

__all__ = [
    "AnyEvent",
    "AnyState",
    "AnyView",
    "apply",
    "describe_event",
    "legal_actions",
    "new_game",
    "parse_action",
    "parse_any_action",
    "view",
]

AnyState = GameState | FishingState
"""The state of a game of any kind."""

AnyView = View | FishingView
"""What a seat sees of a game of any kind."""

AnyEvent = Event | FishingEvent
"""An event of any game."""

_FISHING_EVENTS = (
    fishing.TileTurned,
    fishing.Placed,
    fishing.Captured,
    fishing.Swept,
    fishing.MissedCapture,
    fishing.Claimed,
    fishing.GameOver,
)


def new_game(rules: RuleSet, seats: Sequence[str], deal: Deal) -> Any:
    """Start a game of ``rules.game``: a ``GameState`` (collecting games) or a
    ``FishingState`` (Tsung Shap)."""
    if rules.game is Game.TSUNG_SHAP:
        return fishing.new_game(rules, seats, deal)
    return collecting.new_game(rules, seats, deal)


@overload
def legal_actions(state: GameState) -> list[Action]: ...
@overload
def legal_actions(state: FishingState) -> list[FishingAction]: ...
def legal_actions(state: AnyState) -> list[Action] | list[FishingAction]:
    """Every action the current player may take now (empty once the game is over)."""
    if isinstance(state, FishingState):
        return fishing.legal_actions(state)
    return collecting.legal_actions(state)


@overload
def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]: ...
@overload
def apply(
    state: FishingState, action: FishingAction
) -> tuple[FishingState, list[FishingEvent]]: ...
@overload
def apply(
    state: AnyState, action: AnyAction
) -> tuple[GameState, list[Event]] | tuple[FishingState, list[FishingEvent]]: ...
def apply(
    state: AnyState, action: AnyAction
) -> tuple[GameState, list[Event]] | tuple[FishingState, list[FishingEvent]]:
    """Play one action for the current player; returns the new state and what happened.

    Raises :class:`IllegalAction` for anything the rules do not allow, including an action of
    another game.
    """
    if isinstance(state, FishingState):
        if not isinstance(action, (Draw, Capture, Place, Claim)):
            raise IllegalAction(f"'{action}' is not a Tsung Shap action")
        return fishing.apply(state, action)
    if not isinstance(action, (Take, Draw, Discard, Declare)):
        raise IllegalAction(f"'{action}' is not a {state.rules.game} action")
    return collecting.apply(state, action)


@overload
def view(state: GameState, seat: int | None) -> View: ...
@overload
def view(state: FishingState, seat: int | None) -> FishingView: ...
def view(state: AnyState, seat: int | None) -> View | FishingView:
    """What ``seat`` (or a spectator, ``None``) may see of the game."""
    if isinstance(state, FishingState):
        return fishing.view(state, seat)
    return collecting.view(state, seat)


def describe_event(event: AnyEvent, viewer: int | None, names: Sequence[str]) -> str:
    """One line describing an event of any game for ``viewer`` (private tiles stay hidden)."""
    if isinstance(event, _FISHING_EVENTS):
        return fishing.describe_event(event, viewer, names)
    # TurnStarted is shared; the collecting describer words it the same way.
    return collecting.describe_event(event, viewer, names)


@overload
def parse_action(
    text: str, game: Literal[Game.KAP_SHAP, Game.KAP_TAI_SHAP] | None = None
) -> Action: ...
@overload
def parse_action(text: str, game: Literal[Game.TSUNG_SHAP]) -> FishingAction: ...
@overload
def parse_action(text: str, game: Game | str) -> AnyAction: ...
def parse_action(text: str, game: Game | str | None = None) -> AnyAction:
    """Read an action in the notation of ``game``.

    Without ``game`` this reads the collecting games' notation (``take``, ``draw``,
    ``discard``, ``declare``), as it always has; use :func:`parse_any_action` for every verb of
    every game.
    """
    if game is None:
        return parse_collecting_action(text)
    try:
        chosen = Game(game)
    except ValueError:
        names = ", ".join(g.value for g in Game)
        raise RulesError(f"unknown game '{game}': choose one of {names}") from None
    if chosen is Game.TSUNG_SHAP:
        return parse_fishing_action(text)
    return parse_collecting_action(text)
