"""Rule sets: every flag of RULES.md §2 and §3 as one frozen value, with named presets.

A :class:`RuleSet` is built with :func:`make_rules`, which applies the defaults RULES.md fixes
(rule set and number of sets follow the player count) and rejects impossible combinations with a
message saying why. ``--rule name=value`` style overrides go through :func:`with_flag`.

One :class:`RuleSet` type serves every game. Flags that do not concern a game keep their
defaults and are ignored by it: the collecting games ignore the Tsung Shap flags
(``auto_capture`` ... ``settle_rate``), and Tsung Shap ignores ``offer``, ``draw_after_take``,
``first_turn_extra_draw``, ``exclude_own_discards``, ``civil_eyes_only``, ``max_turns`` and
``stall_guard`` (a Tsung Shap game always ends within 32 turns).
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
    "FISHING_RULE_SET",
    "MAX_PLAYERS",
    "MAX_SETS",
    "PILE_SIZE",
    "RULE_SET_NAMES",
    "FirstPlayer",
    "FourTwo",
    "Game",
    "Offer",
    "RuleSet",
    "Settlement",
    "default_first_turn_extra_draw",
    "default_rule_set",
    "default_sets",
    "make_rules",
    "with_flag",
]

MAX_SETS = 8
# 28 players is the most that 8 sets can deal (10 + 9 * 27 = 253 of 256 tiles).
MAX_PLAYERS = 28


class Game(enum.StrEnum):
    """The games this engine plays: two collecting games and one fishing game."""

    KAP_SHAP = "kap-shap"
    KAP_TAI_SHAP = "kap-tai-shap"
    TSUNG_SHAP = "tsung-shap"

    @property
    def collecting(self) -> bool:
        """True for Kap Shap and Kap Tai Shap (hands, discards, a wall)."""
        return self is not Game.TSUNG_SHAP

    @property
    def fishing(self) -> bool:
        """True for Tsung Shap (two face-down piles and a row on the table)."""
        return self is Game.TSUNG_SHAP


class Offer(enum.StrEnum):
    """Which face-up discards may be taken."""

    ANY = "any"
    LAST = "last"


class FourTwo(enum.StrEnum):
    """The value of the 4-2 tile in making tens."""

    THREE = "3"
    SIX = "6"
    WILD = "wild"


class Settlement(enum.StrEnum):
    """How a Tsung Shap game is paid: the winner takes the pot, or the loser pays
    ``settle_rate`` chips per point of difference."""

    POT = "pot"
    DIFFERENCE = "difference"


class FirstPlayer(enum.StrEnum):
    """How the first player is chosen."""

    FOUR_DICE = "four-dice"
    LOTS = "lots"


RULE_SET_NAMES: dict[str, tuple[Offer, bool]] = {
    "culin": (Offer.ANY, True),
    "classic": (Offer.LAST, False),
    "last-draw": (Offer.LAST, True),
}
"""Named rule sets of the collecting games: (offer, draw_after_take)."""

FISHING_RULE_SET = "standard"
"""The only rule set name of Tsung Shap (its variants are flags)."""

PILE_SIZE = 16
"""Tiles in each Tsung Shap pile."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule flag of every game. Build one with :func:`make_rules`.

    The Tsung Shap flags (RULES.md §3), ignored by the collecting games:

    * ``auto_capture``: the best capture is always taken (``legal_actions`` offers only the
      highest-scoring captures whenever one exists), so no capture can be missed.
    * ``triplet_both_ends_only``: a triplet is only ``t`` + L1 + R1 (on a 2-tile row that is the
      sweep); pairs are unaffected.
    * ``sweep_adds_pips``: a sweep scores 40 + the pip total instead of a flat 40.
    * ``second_may_capture_opening``: the second tile of the game is played like any other
      (capture with it, or place it at either end) instead of being laid to the right.
    * ``play_until_both_piles_empty``: the game goes on until both piles are laid out (a player
      whose pile is empty no longer plays); by default it ends as soon as one pile is.
    * ``four_two_value`` (shared with the collecting games): 6 by default in Tsung Shap.
    * ``settlement`` / ``settle_rate``: ``pot`` (winner takes the pot) or ``difference``
      (the loser pays ``settle_rate`` chips per point of difference).
    """

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
    auto_capture: bool = False
    triplet_both_ends_only: bool = False
    sweep_adds_pips: bool = False
    second_may_capture_opening: bool = False
    play_until_both_piles_empty: bool = False
    settlement: Settlement = Settlement.POT
    settle_rate: int = 1

    @property
    def hand_size(self) -> int:
        """H: the size of a winning hand (the first player's dealt hand).

        Tsung Shap has no hand: there this is the size of a pile (16).
        """
        if self.game is Game.TSUNG_SHAP:
            return PILE_SIZE
        return 8 if self.game is Game.KAP_SHAP else 10

    @property
    def pile_size(self) -> int:
        """Tiles in each Tsung Shap pile (16); 0 for the collecting games, which have none."""
        return PILE_SIZE if self.game is Game.TSUNG_SHAP else 0

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
        """Tiles dealt: H to the first player, H-1 to every other (Tsung Shap: all 32)."""
        if self.game is Game.TSUNG_SHAP:
            return PILE_SIZE * self.players
        return self.hand_size + (self.hand_size - 1) * (self.players - 1)

    @property
    def rule_set_name(self) -> str:
        """``culin``, ``classic``, ``last-draw`` or ``custom`` (take-any without a draw).

        Tsung Shap has one rule set, ``standard`` (its variants are flags).
        """
        if self.game is Game.TSUNG_SHAP:
            return FISHING_RULE_SET
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
        missing = [name for name in ("game", "players") if name not in flags]
        if missing:
            raise RulesError(f"stored rules lack {' and '.join(missing)}")
        try:
            players = int(flags["players"])
        except (TypeError, ValueError):
            raise RulesError(f"players must be a whole number, not '{flags['players']}'") from None
        base = make_rules(flags["game"], players)
        values = {name: getattr(base, name) for name in known}
        values.update(flags)
        values = _coerce_all(values)
        if "first_turn_extra_draw" not in flags:
            # A record that leaves the flag out gets the default of its own rule set; a
            # record that names it (every record written by flags()) replays as stored.
            values["first_turn_extra_draw"] = default_first_turn_extra_draw(
                values["game"], values["offer"], values["draw_after_take"]
            )
        rules = cls(**values)
        _validate(rules)
        return rules

    def describe(self) -> str:
        """One line summary, e.g. ``kap-shap, 2 players, 1 set, culin rules``.

        Tsung Shap: ``tsung-shap, 2 players, 1 set``, then its variants if any are chosen
        (e.g. ``, auto capture, 4-2 counts 3, settle 2 per point``).
        """
        s = "set" if self.sets == 1 else "sets"
        if self.game is Game.TSUNG_SHAP:
            return ", ".join(
                [f"{self.game}, {self.players} players, {self.sets} {s}", *self.variants()]
            )
        return f"{self.game}, {self.players} players, {self.sets} {s}, {self.rule_set_name} rules"

    def variants(self) -> list[str]:
        """The Tsung Shap variants chosen, in words (empty for RULES.md's defaults)."""
        if self.game is not Game.TSUNG_SHAP:
            return []
        out = [
            words
            for flag, words in (
                (self.auto_capture, "auto capture"),
                (self.triplet_both_ends_only, "triplets at both ends only"),
                (self.sweep_adds_pips, "sweep 40 + pips"),
                (self.second_may_capture_opening, "second may capture the opening"),
                (self.play_until_both_piles_empty, "play until both piles are empty"),
            )
            if flag
        ]
        if self.four_two_value is FourTwo.THREE:
            out.append("4-2 counts 3")
        elif self.four_two_value is FourTwo.WILD:
            out.append("Gee Joon wild")
        if self.settlement is Settlement.DIFFERENCE:
            out.append(f"settle {self.settle_rate} per point")
        return out


def default_sets(players: int) -> int:
    """About two sets for every five players: ``max(1, ceil(2N/5))``, at most MAX_SETS."""
    return min(MAX_SETS, max(1, math.ceil(2 * players / 5)))


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
    if game is Game.TSUNG_SHAP:
        return _make_fishing_rules(players, rule_set, sets, overrides)
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
    return _build(values, overrides)


def _build(values: dict[str, Any], overrides: Mapping[str, Any]) -> RuleSet:
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


def _make_fishing_rules(
    players: int, rule_set: str | None, sets: int | None, overrides: Mapping[str, Any]
) -> RuleSet:
    """Tsung Shap: 2 players, 1 set, 4-2 counts 6, first player by four dice (RULES.md §3)."""
    if players != 2:
        raise RulesError(f"Tsung Shap is for exactly 2 players, not {players}")
    if rule_set is not None and rule_set != FISHING_RULE_SET:
        raise RulesError(
            f"Tsung Shap has no rule set '{rule_set}': its only rule set is "
            f"'{FISHING_RULE_SET}'; choose variants with flags (e.g. auto_capture=true)"
        )
    values: dict[str, Any] = {
        "game": Game.TSUNG_SHAP,
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
    return _build(values, overrides)


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
    # So does the first turn's extra draw follow the rule set (Kap Shap + Culin only).
    if name in ("game", "offer", "draw_after_take") and rules.first_turn_extra_draw == (
        default_first_turn_extra_draw(rules.game, rules.offer, rules.draw_after_take)
    ):
        extra = default_first_turn_extra_draw(new.game, new.offer, new.draw_after_take)
        new = dataclasses.replace(new, first_turn_extra_draw=extra)
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
        "Settlement": Settlement,
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
    if rules.settle_rate < 1:
        raise RulesError(f"settle_rate must be at least 1 chip per point, not {rules.settle_rate}")
    if rules.game is Game.TSUNG_SHAP:
        if rules.players != 2:
            raise RulesError(f"Tsung Shap is for exactly 2 players, not {rules.players}")
        if rules.sets != 1:
            raise RulesError("Tsung Shap is played with exactly one set")
        if not 0 <= rules.rake_percent <= 50:
            raise RulesError(f"rake_percent must be between 0 and 50, not {rules.rake_percent}")
        if not 1 <= rules.max_turns <= 100_000:
            raise RulesError(f"max_turns must be between 1 and 100000, not {rules.max_turns}")
        return
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
