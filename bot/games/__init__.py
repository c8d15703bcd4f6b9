"""The games: one registry from a game's name to what it is and to the family that plays it.

Importing this package registers the built-in families (data only: their descriptors import
nothing but :mod:`bot.games.registry`). Every layer may import it; only the code inside
``bot/games/<family>/`` imports a family's modules (docs/architecture.md, "Games: one place per
game").
"""

from bot.games.collecting import FAMILY as _COLLECTING
from bot.games.fishing import FAMILY as _FISHING
from bot.games.registry import (
    EVENT_FORMATS,
    N_,
    OPTIONAL_ROLES,
    RESERVED_NAMES,
    ROLES,
    FamilyInfo,
    GameInfo,
    UnknownGame,
    default_game,
    family_of,
    find,
    games,
    load,
    register,
    registered,
    seal_built_ins,
    unregister,
)

__all__ = [
    "EVENT_FORMATS",
    "N_",
    "OPTIONAL_ROLES",
    "RESERVED_NAMES",
    "ROLES",
    "FamilyInfo",
    "GameInfo",
    "UnknownGame",
    "default_game",
    "family_of",
    "find",
    "games",
    "load",
    "register",
    "registered",
    "unregister",
]

# The built-in families, in the order of every list of games (kap-shap first: the default).
for _family in (_COLLECTING, _FISHING):
    register(_family)
seal_built_ins()
