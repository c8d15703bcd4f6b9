"""The fishing game, Tsung Shap (RULES.md §3): its descriptor.

Data only (standard library and :mod:`bot.games.registry`): :mod:`bot.games` registers
:data:`FAMILY`. The family's part for each layer is the ``FACET`` of ``bot.games.fishing.<role>
.family``, beside the rest of the game's code in the same role package.
"""

from bot.games.registry import N_, ROLES, FamilyInfo, GameInfo

__all__ = ["FAMILY", "TSUNG_SHAP"]

TSUNG_SHAP = GameInfo(
    name="tsung-shap",
    family="fishing",
    title=N_("Tsung Shap 爭十"),
    short=N_("Tsung Shap"),
    table_choice=N_("Tsung Shap, the fishing game (2 players)"),
    event_choice=N_("Tsung Shap (Swiss and brackets)"),
    players=(2, 2),
    default_seats=2,
    aliases=("ts", "爭十", "争十"),
    scored=True,
)

FAMILY = FamilyInfo(
    name="fishing",
    games=(TSUNG_SHAP,),
    roles={role: f"bot.games.fishing.{role}.family" for role in ROLES},
)
