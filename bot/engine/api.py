"""One entry point for every game: the four driving functions ask the game's family.

Each function finds the family of the game it is given (``rules.game``, ``state.rules.game``)
with :func:`bot.engine.family.engine_of` and lets its engine facet do the work, so this module
knows no game: each plays in its own family's code (``bot/games/<family>/engine/``).

States, views, actions and events are the family's own values: generic code holds them as
the Protocols of :mod:`bot.engine.family` (or ``Any``). ``apply`` returns a state of the type it
was given, so a caller holding a precisely typed state keeps its type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from bot.engine.deal import Deal
from bot.engine.errors import RulesError
from bot.engine.family import AnyEngine, Event, Rules, State, engine_of, engine_of_event
from bot.games import UnknownGame, default_game

__all__ = [
    "apply",
    "describe_event",
    "legal_actions",
    "new_game",
    "parse_action",
    "view",
]

S = TypeVar("S", bound=State)


def new_game(rules: Rules, seats: Sequence[str], deal: Deal) -> Any:
    """Start a game of ``rules.game``: the dealt state of its family (a ``GameState`` for the
    collecting games, a ``FishingState`` for Tsung Shap)."""
    return engine_of(rules.game).new_game(rules, seats, deal)


def legal_actions(state: State) -> list[Any]:
    """Every action the current player may take now (empty once the game is over)."""
    return engine_of(state.rules.game).legal_actions(state)


def apply(state: S, action: Any) -> tuple[S, list[Any]]:
    """Play one action for the current player; returns the new state and what happened.

    Raises :class:`IllegalAction` for anything the rules do not allow, including an action of
    another game.
    """
    after, events = engine_of(state.rules.game).apply(state, action)
    return after, events


def view(state: State, seat: int | None) -> Any:
    """What ``seat`` (or a spectator, ``None``) may see of the game."""
    return engine_of(state.rules.game).view(state, seat)


def describe_event(event: Event, viewer: int | None, names: Sequence[str]) -> str:
    """One line describing an event of any game for ``viewer`` (private tiles stay hidden)."""
    return engine_of_event(event).describe_event(event, viewer, names)


def _engine(game: str) -> AnyEngine:
    try:
        return engine_of(str(game))
    except UnknownGame as exc:
        raise RulesError(str(exc)) from None


def parse_action(text: str, game: str | None = None) -> Any:
    """Read an action in the notation of ``game`` (its family's action).

    Without ``game`` this reads the notation of the first game registered (Kap Shap's:
    ``take``, ``draw``, ``discard``, ``declare``), as it always has.
    """
    return _engine(default_game() if game is None else game).parse_action(text)
