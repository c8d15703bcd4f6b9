"""Rule sets: every flag of RULES.md §2 as one frozen value, with named presets.

A :class:`RuleSet` is built with :func:`make_rules`, which applies the defaults RULES.md fixes
(rule set and number of sets follow the player count) and rejects impossible combinations with a
message saying why. ``--rule name=value`` style overrides go through :func:`with_flag`.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.errors import RulesError
from bot.engine.tiles import PIECES_PER_SET

__all__ = [
    "MAX_PLAYERS",
    "MAX_SETS",
    "RULE_SET_NAMES",
    "FirstPlayer",
    "FourTwo",
    "Game",
    "Offer",
    "RuleSet",
    "default_rule_set",
    "default_sets",
    "make_rules",
    "with_flag",
]

MAX_SETS = 8
# 28 players is the most that 8 sets can deal (10 + 9 * 27 = 253 of 256 tiles).
MAX_PLAYERS = 28


class Game(enum.StrEnum):
    """The collecting games this engine plays."""

    KAP_SHAP = "kap-shap"
    KAP_TAI_SHAP = "kap-tai-shap"


class Offer(enum.StrEnum):
    """Which face-up discards may be taken."""

    ANY = "any"
    LAST = "last"


class FourTwo(enum.StrEnum):
    """The value of the 4-2 tile in making tens."""

    THREE = "3"
    SIX = "6"
    WILD = "wild"


class FirstPlayer(enum.StrEnum):
    """How the first player is chosen."""

    FOUR_DICE = "four-dice"
    LOTS = "lots"


RULE_SET_NAMES: dict[str, tuple[Offer, bool]] = {
    "culin": (Offer.ANY, True),
    "classic": (Offer.LAST, False),
    "last-draw": (Offer.LAST, True),
}
"""Named rule sets: (offer, draw_after_take)."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule flag of a collecting game. Build one with :func:`make_rules`."""

    game: Game
    players: int
    sets: int
    offer: Offer
    draw_after_take: bool
    first_turn_extra_draw: bool
    exclude_own_discards: bool = False
    four_two_value: FourTwo = FourTwo.THREE
    civil_eyes_only: bool = False
    first_player: FirstPlayer = FirstPlayer.FOUR_DICE
    pot_carries_over: bool = False
    rake_percent: int = 0
    max_turns: int = 100
    stall_guard: bool = True

    @property
    def hand_size(self) -> int:
        """H: the size of a winning hand (the first player's dealt hand)."""
        return 8 if self.game is Game.KAP_SHAP else 10

    @property
    def pairs(self) -> int:
        """Number of ten-pairs in a winning hand."""
        return (self.hand_size - 2) // 2

    @property
    def tile_count(self) -> int:
        """Physical tiles in play."""
        return PIECES_PER_SET * self.sets

    @property
    def dealt_count(self) -> int:
        """Tiles dealt: H to the first player, H-1 to every other."""
        return self.hand_size + (self.hand_size - 1) * (self.players - 1)

    @property
    def rule_set_name(self) -> str:
        """``culin``, ``classic``, ``last-draw`` or ``custom`` (take-any without a draw)."""
        for name, flags in RULE_SET_NAMES.items():
            if flags == (self.offer, self.draw_after_take):
                return name
        return "custom"

    @property
    def military_eyes(self) -> bool:
        """Whether two identical military tiles may form the eye."""
        return self.sets > 1 and not self.civil_eyes_only

    def flags(self) -> dict[str, Any]:
        """Every flag as JSON-friendly values (for storage and ``--json``)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else value
        return out

    @classmethod
    def from_flags(cls, flags: Mapping[str, Any]) -> RuleSet:
        """Rebuild a rule set stored with :meth:`flags` (validated again)."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(flags) - known
        if unknown:
            raise RulesError(f"unknown rule flag(s): {', '.join(sorted(unknown))}")
        base = make_rules(Game(flags["game"]), int(flags["players"]))
        values = {name: getattr(base, name) for name in known}
        values.update(flags)
        rules = cls(**_coerce_all(values))
        _validate(rules)
        return rules

    def describe(self) -> str:
        """One line summary, e.g. ``kap-shap, 2 players, 1 set, culin rules``."""
        s = "set" if self.sets == 1 else "sets"
        return f"{self.game}, {self.players} players, {self.sets} {s}, {self.rule_set_name} rules"


def default_sets(players: int) -> int:
    """About two sets for every five players: ``max(1, ceil(2N/5))``, at most MAX_SETS."""
    return min(MAX_SETS, max(1, math.ceil(2 * players / 5)))


def default_rule_set(game: Game, players: int) -> str:
    """Culin for Kap Shap and for Kap Tai Shap up to 4 players; Classic for 5 or more."""
    if game is Game.KAP_TAI_SHAP and players >= 5:
        return "classic"
    return "culin"


def make_rules(
    game: Game | str,
    players: int | None = None,
    rule_set: str | None = None,
    sets: int | None = None,
    **overrides: Any,
) -> RuleSet:
    """A validated rule set with RULES.md's defaults, then ``rule_set`` and ``overrides``.

    Overrides take flag names of :class:`RuleSet`; string values are converted as for
    :func:`with_flag`.
    """
    try:
        game = Game(game)
    except ValueError:
        names = ", ".join(g.value for g in Game)
        raise RulesError(f"unknown game '{game}': choose one of {names}") from None
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
        "first_turn_extra_draw": game is Game.KAP_SHAP,
        "first_player": FirstPlayer.FOUR_DICE if players <= 6 else FirstPlayer.LOTS,
        "max_turns": 50 * players,
    }
    known = {f.name for f in dataclasses.fields(RuleSet)}
    for key, value in overrides.items():
        if key not in known:
            raise RulesError(
                f"unknown rule flag '{key}': known flags are {', '.join(sorted(known))}"
            )
        values[key] = value
    rules = RuleSet(**_coerce_all(values))
    _validate(rules)
    return rules


def with_flag(rules: RuleSet, name: str, value: str) -> RuleSet:
    """A copy of ``rules`` with one flag set from text (``offer=last``, ``sets=3``)."""
    known = {f.name for f in dataclasses.fields(RuleSet)}
    if name not in known:
        raise RulesError(f"unknown rule flag '{name}': known flags are {', '.join(sorted(known))}")
    values = {f: getattr(rules, f) for f in known}
    values[name] = value
    # The turn cap follows the player count unless it was changed on purpose.
    if name == "players" and rules.max_turns == 50 * rules.players:
        values["max_turns"] = 50 * int(value)
    new = RuleSet(**_coerce_all(values))
    _validate(new)
    return new


_BOOL_TEXT = {
    "true": True,
    "yes": True,
    "1": True,
    "on": True,
    "false": False,
    "no": False,
    "0": False,
    "off": False,
}


def _coerce_all(values: Mapping[str, Any]) -> dict[str, Any]:
    types = {f.name: f.type for f in dataclasses.fields(RuleSet)}
    return {k: _coerce(k, str(types[k]), v) for k, v in values.items()}


def _coerce(name: str, type_name: str, value: Any) -> Any:
    enum_types: dict[str, type[enum.StrEnum]] = {
        "Game": Game,
        "Offer": Offer,
        "FourTwo": FourTwo,
        "FirstPlayer": FirstPlayer,
    }
    if type_name in enum_types:
        cls = enum_types[type_name]
        try:
            return cls(str(value).lower() if not isinstance(value, enum.Enum) else value.value)
        except ValueError:
            choices = ", ".join(m.value for m in cls)
            raise RulesError(f"{name} must be one of {choices}, not '{value}'") from None
    if type_name == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text not in _BOOL_TEXT:
            raise RulesError(f"{name} must be true or false, not '{value}'")
        return _BOOL_TEXT[text]
    if type_name == "int":
        if isinstance(value, bool):
            raise RulesError(f"{name} must be a whole number, not '{value}'")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise RulesError(f"{name} must be a whole number, not '{value}'") from None
    return value


def _validate(rules: RuleSet) -> None:
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
    if not 0 <= rules.rake_percent <= 50:
        raise RulesError(f"rake_percent must be between 0 and 50, not {rules.rake_percent}")
    if not 1 <= rules.max_turns <= 100_000:
        raise RulesError(f"max_turns must be between 1 and 100000, not {rules.max_turns}")
