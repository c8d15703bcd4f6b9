"""The collecting games' rule sets (RULES.md §2): Kap Shap's and Kap Tai Shap's presets, shape
and checks, behind :class:`bot.engine.rules.RuleSet` (which asks this family through its
engine facet).

The collecting games ignore the Tsung Shap flags (``auto_capture`` ... ``settle_rate``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bot.engine.errors import RulesError
from bot.engine.family import Variant
from bot.engine.rules import (
    MAX_PLAYERS,
    MAX_SETS,
    RULE_SET_NAMES,
    FirstPlayer,
    Game,
    Offer,
    RuleSet,
    build_rules,
    default_sets,
)
from bot.engine.tiles import PIECES_PER_SET
from bot.games import N_
from bot.games.dominoes.engine.rules import (
    BOOL,
    FIRST_PLAYER,
    FOUR_TWO_VALUE,
    RAKE_PERCENT,
    check_house_and_turns,
)

__all__ = [
    "dealt_count",
    "default_first_turn_extra_draw",
    "default_rule_set",
    "describe",
    "hand_size",
    "make_rules",
    "rule_set_name",
    "validate",
]


VARIANTS = (
    FOUR_TWO_VALUE,
    Variant("civil_eyes_only", BOOL, N_("only civil tiles form the eye")),
    Variant("exclude_own_discards", BOOL, N_("no taking back one's own discard")),
    Variant("first_turn_extra_draw", BOOL, N_("first player draws again on turn 1")),
    FIRST_PLAYER,
    Variant("pot_carries_over", BOOL, N_("a drawn game's pot stays for the next")),
    RAKE_PERCENT,
    Variant("max_turns", ("50", "100", "200"), N_("turns before the game is drawn")),
)
"""The flags a host may set on a new table (``/table new variant:``), in the order offered."""


def hand_size(rules: RuleSet) -> int:
    """H, the size of a winning hand: 8 in Kap Shap, 10 in Kap Tai Shap."""
    return 8 if rules.game is Game.KAP_SHAP else 10


def dealt_count(rules: RuleSet) -> int:
    """H to the first player, H-1 to every other."""
    size = hand_size(rules)
    return size + (size - 1) * (rules.players - 1)


def rule_set_name(rules: RuleSet) -> str:
    """``culin``, ``classic``, ``last-draw`` or ``custom`` (take-any without a draw)."""
    for name, flags in RULE_SET_NAMES.items():
        if flags == (rules.offer, rules.draw_after_take):
            return name
    return "custom"


def describe(rules: RuleSet) -> str:
    """``kap-shap, 2 players, 1 set, culin rules``."""
    s = "set" if rules.sets == 1 else "sets"
    return f"{rules.game}, {rules.players} players, {rules.sets} {s}, {rule_set_name(rules)} rules"


def default_rule_set(game: Game, players: int) -> str:
    """Culin for Kap Shap and for Kap Tai Shap up to 4 players; Classic for 5 or more."""
    if game is Game.KAP_TAI_SHAP and players >= 5:
        return "classic"
    return "culin"


def default_first_turn_extra_draw(game: Game, offer: Offer, draw_after_take: bool) -> bool:
    """True only for Kap Shap under Culin (RULES.md §2.3, first turn).

    Everywhere else the first player's turn ends after his opening discard, so that no rule set
    lets him bring in two tiles on top of his extra dealt one.
    """
    return game is Game.KAP_SHAP and (offer, draw_after_take) == RULE_SET_NAMES["culin"]


def make_rules(
    game: Game | str,
    players: int | None,
    rule_set: str | None,
    sets: int | None,
    overrides: Mapping[str, Any],
) -> RuleSet:
    """RULES.md's defaults for the game and seats, then ``rule_set`` and ``overrides``."""
    game = Game(game)
    if players is None:
        players = 2
    if game is Game.KAP_SHAP and players != 2:
        raise RulesError(f"Kap Shap is for exactly 2 players, not {players}")
    if not 2 <= players <= MAX_PLAYERS:
        raise RulesError(f"Kap Tai Shap takes 2 to {MAX_PLAYERS} players, not {players}")
    name = rule_set or default_rule_set(game, players)
    if name not in RULE_SET_NAMES:
        raise RulesError(f"unknown rule set '{name}': choose one of {', '.join(RULE_SET_NAMES)}")
    offer, draw_after_take = RULE_SET_NAMES[name]
    if sets is None:
        sets = 1 if game is Game.KAP_SHAP else default_sets(players)
    values: dict[str, Any] = {
        "game": game,
        "players": players,
        "sets": sets,
        "offer": offer,
        "draw_after_take": draw_after_take,
        "first_turn_extra_draw": default_first_turn_extra_draw(game, offer, draw_after_take),
        "first_player": FirstPlayer.FOUR_DICE if players <= 6 else FirstPlayer.LOTS,
        "max_turns": 50 * players,
    }
    return build_rules(values, overrides)


def validate(rules: RuleSet) -> None:
    """Seats, sets and a wall left after the deal; the offer flags agree."""
    if rules.game is Game.KAP_SHAP and rules.players != 2:
        raise RulesError(f"Kap Shap is for exactly 2 players, not {rules.players}")
    if not 2 <= rules.players <= MAX_PLAYERS:
        raise RulesError(f"the game takes 2 to {MAX_PLAYERS} players, not {rules.players}")
    if rules.game is Game.KAP_SHAP and rules.sets != 1:
        raise RulesError("Kap Shap is played with exactly one set")
    if not 1 <= rules.sets <= MAX_SETS:
        raise RulesError(f"sets must be between 1 and {MAX_SETS}, not {rules.sets}")
    if rules.dealt_count >= rules.tile_count:
        need = math.ceil((rules.dealt_count + 1) / PIECES_PER_SET)
        raise RulesError(
            f"{rules.sets} set(s) hold {rules.tile_count} tiles, too few to deal "
            f"{rules.dealt_count} to {rules.players} players and keep a wall: use at least "
            f"{need} sets"
        )
    if rules.exclude_own_discards and rules.offer is not Offer.ANY:
        raise RulesError("exclude_own_discards applies only when any discard may be taken")
    check_house_and_turns(rules)
