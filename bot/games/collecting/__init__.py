"""The collecting games, Kap Shap and Kap Tai Shap (RULES.md §2): their descriptor.

Data only (standard library and :mod:`bot.games.registry`): :mod:`bot.games` registers
:data:`FAMILY`. The family's part for each layer is the ``FACET`` of ``bot.games.collecting.<role>
.family``, beside the rest of the game's code in the same role package.
"""

from bot.games.registry import N_, ROLES, FamilyInfo, GameInfo

__all__ = ["FAMILY", "KAP_SHAP", "KAP_TAI_SHAP"]

KAP_SHAP = GameInfo(
    name="kap-shap",
    family="collecting",
    title=N_("Kap Shap 夾十"),
    short=N_("Kap Shap"),
    table_choice=N_("Kap Shap (2 players)"),
    event_choice=N_("Kap Shap (Swiss and brackets)"),
    players=(2, 2),
    default_seats=2,
    aliases=("ks", "夾十", "夹十"),
)

KAP_TAI_SHAP = GameInfo(
    name="kap-tai-shap",
    family="collecting",
    title=N_("Kap Tai Shap 夾大十"),
    short=N_("Kap Tai Shap"),
    table_choice=N_("Kap Tai Shap (2-20 players)"),
    event_choice=N_("Kap Tai Shap (table rounds)"),
    players=(2, 28),
    default_seats=4,
    aliases=("kts", "夾大十", "夹大十"),
    event_format="table-rounds",
)

FAMILY = FamilyInfo(
    name="collecting",
    games=(KAP_SHAP, KAP_TAI_SHAP),
    roles={role: f"bot.games.collecting.{role}.family" for role in ROLES},
)
