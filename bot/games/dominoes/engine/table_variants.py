"""The rule flags a host may set on a new domino table (``/table new variant:``): every variant
RULES.md names that has no option of its own, with the values a host types and what it does.

The domino families share one rule set (:class:`~bot.engine.RuleSet`), so its flags are
described here once; each family's engine facet offers its own selection, in this order
(:meth:`bot.engine.family.RuleBook.variants`).
"""

from __future__ import annotations

from bot.engine.family import Variant
from bot.games import N_

__all__ = ["COLLECTING_VARIANTS", "FISHING_VARIANTS"]

_BOOL = ("true", "false")

_FOUR_TWO_VALUE = Variant(
    "four_two_value", ("3", "6", "wild"), N_("what 4-2 counts (wild: 3 or 6)")
)
_FIRST_PLAYER = Variant("first_player", ("four-dice", "lots"), N_("how the first player is chosen"))
_RAKE_PERCENT = Variant("rake_percent", ("0", "5", "10"), N_("house cut of the pot, 0 to 50 %"))

COLLECTING_VARIANTS: tuple[Variant, ...] = (
    _FOUR_TWO_VALUE,
    Variant("civil_eyes_only", _BOOL, N_("only civil tiles form the eye")),
    Variant("exclude_own_discards", _BOOL, N_("no taking back one's own discard")),
    Variant("first_turn_extra_draw", _BOOL, N_("first player draws again on turn 1")),
    _FIRST_PLAYER,
    Variant("pot_carries_over", _BOOL, N_("a drawn game's pot stays for the next")),
    _RAKE_PERCENT,
    Variant("max_turns", ("50", "100", "200"), N_("turns before the game is drawn")),
)
"""Kap Shap's and Kap Tai Shap's variants."""

FISHING_VARIANTS: tuple[Variant, ...] = (
    _FOUR_TWO_VALUE,
    _FIRST_PLAYER,
    _RAKE_PERCENT,
    Variant("auto_capture", _BOOL, N_("the best capture is always taken")),
    Variant("triplet_both_ends_only", _BOOL, N_("triplets only with both end tiles")),
    Variant("sweep_adds_pips", _BOOL, N_("a sweep scores 40 + its pips")),
    Variant("second_may_capture_opening", _BOOL, N_("the second tile may capture")),
    Variant("play_until_both_piles_empty", _BOOL, N_("play on until both piles are out")),
)
"""Tsung Shap's variants."""
