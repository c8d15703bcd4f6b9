"""The rules engine: pure game logic, standard library only.

Every driver (the Discord services, the terminal client, the simulator) plays through the same
four functions: :func:`new_game`, :func:`legal_actions`, :func:`apply` and :func:`view`.
"""

from bot.engine.actions import Action, Declare, Discard, Draw, Take, parse_action
from bot.engine.collecting import (
    Declared,
    Discarded,
    Drew,
    EndReason,
    Event,
    GameDrawn,
    GameState,
    Move,
    Phase,
    PoolTile,
    Result,
    Took,
    TurnStarted,
    View,
    WinBy,
    apply,
    describe_event,
    hand_tiles,
    legal_actions,
    new_game,
    view,
)
from bot.engine.deal import Deal, deal_from_tiles, make_deal
from bot.engine.errors import EngineError, IllegalAction, NotationError, RulesError
from bot.engine.hands import Witness, find_witness, is_winning
from bot.engine.rules import FirstPlayer, FourTwo, Game, Offer, RuleSet, make_rules, with_flag
from bot.engine.tiles import KINDS, Tile, format_tiles, parse_tile, parse_tiles, sort_tiles

__all__ = [
    "KINDS",
    "Action",
    "Deal",
    "Declare",
    "Declared",
    "Discard",
    "Discarded",
    "Draw",
    "Drew",
    "EndReason",
    "EngineError",
    "Event",
    "FirstPlayer",
    "FourTwo",
    "Game",
    "GameDrawn",
    "GameState",
    "IllegalAction",
    "Move",
    "NotationError",
    "Offer",
    "Phase",
    "PoolTile",
    "Result",
    "RuleSet",
    "RulesError",
    "Take",
    "Tile",
    "Took",
    "TurnStarted",
    "View",
    "WinBy",
    "Witness",
    "apply",
    "deal_from_tiles",
    "describe_event",
    "find_witness",
    "format_tiles",
    "hand_tiles",
    "is_winning",
    "legal_actions",
    "make_deal",
    "make_rules",
    "new_game",
    "parse_action",
    "parse_tile",
    "parse_tiles",
    "sort_tiles",
    "view",
    "with_flag",
]
