"""The rules engine: pure game logic, standard library only.

Every driver (the Discord services, the terminal client, the simulator) plays through the same
four functions: :func:`new_game`, :func:`legal_actions`, :func:`apply` and :func:`view`
(:mod:`bot.engine.api`), which ask the game's family (:func:`bot.engine.family.engine_of`);
each game's own state machine, actions and events live in its family's package
(``bot/games/<family>/engine/``). Exported here: that generic API, the errors, the generic
``TurnStarted`` event, and the domino tiles, rule sets and deals the built-in games share.
"""

from bot.engine.api import (
    apply,
    describe_event,
    legal_actions,
    new_game,
    parse_action,
    view,
)
from bot.engine.deal import Deal, deal_from_tiles, make_deal
from bot.engine.errors import EngineError, IllegalAction, NotationError, RulesError
from bot.engine.events import TurnStarted
from bot.engine.rules import (
    FirstPlayer,
    FourTwo,
    Game,
    Offer,
    RuleSet,
    Settlement,
    make_rules,
    with_flag,
)
from bot.engine.tiles import (
    KINDS,
    AmbiguousTile,
    Tile,
    format_tiles,
    parse_tile,
    parse_tiles,
    plain_notation,
    sort_tiles,
    tiles_named,
)

__all__ = [
    "KINDS",
    "AmbiguousTile",
    "Deal",
    "EngineError",
    "FirstPlayer",
    "FourTwo",
    "Game",
    "IllegalAction",
    "NotationError",
    "Offer",
    "RuleSet",
    "RulesError",
    "Settlement",
    "Tile",
    "TurnStarted",
    "apply",
    "deal_from_tiles",
    "describe_event",
    "format_tiles",
    "legal_actions",
    "make_deal",
    "make_rules",
    "new_game",
    "parse_action",
    "parse_tile",
    "parse_tiles",
    "plain_notation",
    "sort_tiles",
    "tiles_named",
    "view",
    "with_flag",
]
