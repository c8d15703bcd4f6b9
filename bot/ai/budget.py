"""The play-outs a master decision may spend, as the operator sets them.

Both master levels (:class:`bot.games.collecting.ai.master.MasterPlayer` for the collecting games,
:class:`bot.games.fishing.ai.master.MasterFishingPlayer` for Tsung Shap) read the same setting, so
it
lives apart from either.
"""

from __future__ import annotations

import os

__all__ = ["default_budget"]


def default_budget() -> int | None:
    """The budget from ``KAPSHAP_MASTER_BUDGET``, or None: the level's own default."""
    text = os.environ.get("KAPSHAP_MASTER_BUDGET", "")
    try:
        value = int(text)
    except ValueError:
        return None
    return value if value > 0 else None
