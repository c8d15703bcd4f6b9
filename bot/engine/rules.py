"""Rule sets: every flag of RULES.md §2 and §3 as one frozen value, with named presets.

A :class:`RuleSet` is built with :func:`make_rules`, which applies the defaults RULES.md fixes
(rule set and number of sets follow the player count) and rejects impossible combinations with a
message saying why. ``--rule name=value`` style overrides go through :func:`with_flag`.

One :class:`RuleSet` type serves every domino game. Flags that do not concern a game keep their
defaults and are ignored by it. What differs between the games (their presets, the size of a
hand, the names of their rule sets, their checks) is their family's: a rule set asks the engine
facet of its game's family (:class:`DominoRules`, ``bot/games/<family>/engine/rules.py``), so
this module names no game. The fields, :meth:`RuleSet.flags` and :meth:`RuleSet.from_flags`
are what every stored game holds: they never change.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

from bot.engine.deal import FirstPlayer
from bot.engine.errors import RulesError
from bot.engine.family import engine_of
from bot.engine.tiles import PIECES_PER_SET, Tile
from bot.games import UnknownGame, find

__all__ = [
    "FISHING_RULE_SET",
    "MAX_PLAYERS",
    "MAX_SETS",
    "PILE_SIZE",
    "RULE_SET_NAMES",
    "DominoRules",
    "FirstPlayer",
    "FourTwo",
    "Game",
    "Offer",
    "RuleSet",
    "Settlement",
    "build_rules",
    "default_first_turn_extra_draw",
    "default_sets",
    "make_rules",
    "ten_pair_values",
    "tile_values",
    "with_flag",
]

MAX_SETS = 8
# 28 players is the most that 8 sets can deal (10 + 9 * 27 = 253 of 256 tiles).
MAX_PLAYERS = 28


class Game(enum.StrEnum):
    """The built-in domino games, each member's value its registered name (``KAP_SHAP`` is
    ``kap-shap``: the member's name in lower case, hyphens for underscores; a test checks they
    are the names :mod:`bot.games` registers). A rule set stores its game as one of these."""

    @staticmethod
    def _generate_next_value_(name: str, start: int, count: int, last_values: list[Any]) -> str:
        return name.lower().replace("_", "-")

    KAP_SHAP = enum.auto()
    KAP_TAI_SHAP = enum.auto()
    TSUNG_SHAP = enum.auto()

    @property
    def collecting(self) -> bool:
        """True for a game of the family ``collecting`` (hands, discards, a wall)."""
        return find(self.value).family == "collecting"

    @property
    def fishing(self) -> bool:
        """True for a game of the family ``fishing`` (two face-down piles and a row)."""
        return find(self.value).family == "fishing"


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
        return _family(self.game).hand_size(self)

    @property
    def pile_size(self) -> int:
        """Tiles in each Tsung Shap pile (16); 0 for the collecting games, which have none."""
        return _family(self.game).pile_size(self)

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
        return _family(self.game).dealt_count(self)

    @property
    def rule_set_name(self) -> str:
        """``culin``, ``classic``, ``last-draw`` or ``custom`` (take-any without a draw).

        Tsung Shap has one rule set, ``standard`` (its variants are flags).
        """
        return _family(self.game).rule_set_name(self)

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
        return _family(self.game).rules_line(self)

    def variants(self) -> list[str]:
        """The Tsung Shap variants chosen, in words (empty for RULES.md's defaults and for the
        collecting games)."""
        return _family(self.game).variant_words(self)


class DominoRules(Protocol):
    """What a :class:`RuleSet` asks the family of its game: the engine facet of a domino
    family (``bot/games/<family>/engine/family.py``) gives these besides
    :class:`bot.engine.family.GameEngine`."""

    def make_rules(
        self,
        game: str,
        players: int | None = None,
        rule_set: str | None = None,
        sets: int | None = None,
        **flags: Any,
    ) -> RuleSet:
        """The game's defaults for the seats, then a named rule set, then flags."""
        ...

    def hand_size(self, rules: RuleSet) -> int:
        """:attr:`RuleSet.hand_size`."""
        ...

    def pile_size(self, rules: RuleSet) -> int:
        """:attr:`RuleSet.pile_size`."""
        ...

    def dealt_count(self, rules: RuleSet) -> int:
        """:attr:`RuleSet.dealt_count`."""
        ...

    def rule_set_name(self, rules: RuleSet) -> str:
        """:attr:`RuleSet.rule_set_name`."""
        ...

    def rules_line(self, rules: RuleSet) -> str:
        """:meth:`RuleSet.describe`."""
        ...

    def variant_words(self, rules: RuleSet) -> list[str]:
        """:meth:`RuleSet.variants`."""
        ...

    def first_turn_extra_draw(self, game: Game, offer: Offer, draw_after_take: bool) -> bool:
        """The default of ``first_turn_extra_draw`` under these flags."""
        ...

    def validate(self, rules: RuleSet) -> None:
        """The game's own checks of a rule set (RulesError says what is wrong)."""
        ...


_families: dict[str, DominoRules] = {}
"""The family of each game met so far (a rule set reads its shape on the hot path)."""


def _family(game: str) -> DominoRules:
    """The engine facet of a game's family, as a rule set asks it (RulesError: no such game)."""
    found = _families.get(game)
    if found is None:
        try:
            found = _families[game] = cast(DominoRules, engine_of(game))
        except UnknownGame as exc:
            raise RulesError(str(exc)) from None
    return found


def default_sets(players: int) -> int:
    """About two sets for every five players: ``max(1, ceil(2N/5))``, at most MAX_SETS."""
    return min(MAX_SETS, max(1, math.ceil(2 * players / 5)))


def default_first_turn_extra_draw(game: Game, offer: Offer, draw_after_take: bool) -> bool:
    """Whether the first player draws once more after his opening discard under these flags:
    only in Kap Shap under Culin (RULES.md §2.3, first turn), as the game's family says.

    Everywhere else the first player's turn ends after his opening discard, so that no rule set
    lets him bring in two tiles on top of his extra dealt one.
    """
    return _family(game).first_turn_extra_draw(game, offer, draw_after_take)


def make_rules(
    game: Game | str,
    players: int | None = None,
    rule_set: str | None = None,
    sets: int | None = None,
    **overrides: Any,
) -> RuleSet:
    """A validated rule set with RULES.md's defaults, then ``rule_set`` and ``overrides``, from
    the family of ``game`` (RulesError for a game no family plays).

    Overrides take flag names of :class:`RuleSet`; string values are converted as for
    :func:`with_flag`.
    """
    return _family(str(game)).make_rules(str(game), players, rule_set, sets, **overrides)


def build_rules(values: dict[str, Any], overrides: Mapping[str, Any]) -> RuleSet:
    """A family's preset ``values`` with the caller's ``overrides``, converted and validated."""
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
    _family(rules.game).validate(rules)


# A tile's values under the 4-2 option: shared by the ten-pairs of the collecting games, the
# tens of Tsung Shap's captures and the pictures' pair totals.
_FOUR_TWO = Tile(4, 2).index
_TWO_ONE = Tile(2, 1).index
_WILD_KINDS = (_FOUR_TWO, _TWO_ONE)


def tile_values(tile: Tile, four_two: FourTwo) -> tuple[int, ...]:
    """The value(s) a tile may take in making tens.

    Pips, except 4-2 counts 3 by default (Culin); under ``wild`` both 4-2 and 2-1 count 3 or 6.
    """
    if four_two is FourTwo.WILD and tile.index in _WILD_KINDS:
        return (3, 6)
    if tile.index == _FOUR_TWO and four_two is FourTwo.THREE:
        return (3,)
    return (tile.pips,)


def ten_pair_values(a: Tile, b: Tile, four_two: FourTwo) -> tuple[int, int] | None:
    """The values two tiles take to total 10 or 20, or None if they are not a ten-pair.

    No pair can reach both 10 and 20, so the answer is unique.
    """
    for x in tile_values(a, four_two):
        for y in tile_values(b, four_two):
            if x + y in (10, 20):
                return x, y
    return None
