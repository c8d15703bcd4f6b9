"""Tsung Shap's rule sets (RULES.md §3): its one preset, shape, variants and checks, behind
:class:`bot.engine.rules.RuleSet` (which asks this family through its engine facet).

Tsung Shap ignores ``offer``, ``draw_after_take``, ``first_turn_extra_draw``,
``exclude_own_discards``, ``civil_eyes_only``, ``max_turns`` and ``stall_guard`` (a game always
ends within 32 turns).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.errors import RulesError
from bot.engine.family import Variant
from bot.engine.rules import (
    FISHING_RULE_SET,
    FirstPlayer,
    FourTwo,
    Game,
    Offer,
    RuleSet,
    Settlement,
    build_rules,
)
from bot.games import N_
from bot.games.dominoes.engine.rules import (
    BOOL,
    FIRST_PLAYER,
    FOUR_TWO_VALUE,
    RAKE_PERCENT,
    check_house_and_turns,
)

__all__ = ["VARIANTS", "describe", "make_rules", "validate", "variants"]

VARIANTS = (
    FOUR_TWO_VALUE,
    FIRST_PLAYER,
    RAKE_PERCENT,
    Variant("auto_capture", BOOL, N_("the best capture is always taken")),
    Variant("triplet_both_ends_only", BOOL, N_("triplets only with both end tiles")),
    Variant("sweep_adds_pips", BOOL, N_("a sweep scores 40 + its pips")),
    Variant("second_may_capture_opening", BOOL, N_("the second tile may capture")),
    Variant("play_until_both_piles_empty", BOOL, N_("play on until both piles are out")),
)
"""The flags a host may set on a new table (``/table new variant:``), in the order offered
(the settlement and its rate have options of their own)."""


def describe(rules: RuleSet) -> str:
    """``tsung-shap, 2 players, 1 set``, then its variants if any are chosen (e.g. ``, auto
    capture, 4-2 counts 3, settle 2 per point``)."""
    s = "set" if rules.sets == 1 else "sets"
    return ", ".join([f"{rules.game}, {rules.players} players, {rules.sets} {s}", *variants(rules)])


def variants(rules: RuleSet) -> list[str]:
    """The variants chosen, in words (empty for RULES.md's defaults)."""
    out = [
        words
        for flag, words in (
            (rules.auto_capture, "auto capture"),
            (rules.triplet_both_ends_only, "triplets at both ends only"),
            (rules.sweep_adds_pips, "sweep 40 + pips"),
            (rules.second_may_capture_opening, "second may capture the opening"),
            (rules.play_until_both_piles_empty, "play until both piles are empty"),
        )
        if flag
    ]
    if rules.four_two_value is FourTwo.THREE:
        out.append("4-2 counts 3")
    elif rules.four_two_value is FourTwo.WILD:
        out.append("Gee Joon wild")
    if rules.settlement is Settlement.DIFFERENCE:
        out.append(f"settle {rules.settle_rate} per point")
    return out


def make_rules(
    game: Game | str,
    players: int | None,
    rule_set: str | None,
    sets: int | None,
    overrides: Mapping[str, Any],
) -> RuleSet:
    """Tsung Shap: 2 players, 1 set, 4-2 counts 6, first player by four dice (RULES.md §3)."""
    return _make_fishing_rules(
        Game(game), 2 if players is None else players, rule_set, sets, overrides
    )


def _make_fishing_rules(
    game: Game, players: int, rule_set: str | None, sets: int | None, overrides: Mapping[str, Any]
) -> RuleSet:
    if players != 2:
        raise RulesError(f"Tsung Shap is for exactly 2 players, not {players}")
    if rule_set is not None and rule_set != FISHING_RULE_SET:
        raise RulesError(
            f"Tsung Shap has no rule set '{rule_set}': its only rule set is "
            f"'{FISHING_RULE_SET}'; choose variants with flags (e.g. auto_capture=true)"
        )
    values: dict[str, Any] = {
        "game": game,
        "players": players,
        "sets": 1 if sets is None else sets,
        # The collecting flags are ignored by Tsung Shap; they keep harmless defaults.
        "offer": Offer.ANY,
        "draw_after_take": True,
        "first_turn_extra_draw": False,
        "four_two_value": FourTwo.SIX,
        "first_player": FirstPlayer.FOUR_DICE,
        "max_turns": 50 * players,
    }
    return build_rules(values, overrides)


def validate(rules: RuleSet) -> None:
    """Two players and one set."""
    if rules.players != 2:
        raise RulesError(f"Tsung Shap is for exactly 2 players, not {rules.players}")
    if rules.sets != 1:
        raise RulesError("Tsung Shap is played with exactly one set")
    check_house_and_turns(rules)
