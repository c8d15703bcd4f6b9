"""Rule variants a host may choose when opening a table (RULES.md's variant flags).

``/table new variant:"four_two_value=wild pot_carries_over=true"`` names flags of
:class:`~bot.engine.RuleSet` as ``flag=value`` items (spaces or commas between them). The game,
the players, the sets and the rule set have options of their own, and so has Tsung Shap's
settlement; everything else RULES.md calls a variant is here. The engine decides whether a
combination works (:func:`bot.engine.make_rules`); its reason is what the host is told.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine import Game
from bot.limits import quote_input
from bot.locale import N_, t
from bot.services.errors import UserError

__all__ = ["VARIANTS", "Variant", "parse_variants", "variant_suggestions", "variants_text"]


@dataclass(frozen=True, slots=True)
class Variant:
    """One flag a host may set: its values (as typed) and what it does."""

    flag: str
    values: tuple[str, ...]
    words: str
    games: frozenset[Game]


_COLLECTING = frozenset({Game.KAP_SHAP, Game.KAP_TAI_SHAP})
_FISHING = frozenset({Game.TSUNG_SHAP})
_ALL = _COLLECTING | _FISHING
_BOOL = ("true", "false")

VARIANTS: dict[str, Variant] = {
    v.flag: v
    for v in (
        Variant("four_two_value", ("3", "6", "wild"), N_("what 4-2 counts (wild: 3 or 6)"), _ALL),
        Variant("civil_eyes_only", _BOOL, N_("only civil tiles form the eye"), _COLLECTING),
        Variant("exclude_own_discards", _BOOL, N_("no taking back one's own discard"), _COLLECTING),
        Variant(
            "first_turn_extra_draw", _BOOL, N_("first player draws again on turn 1"), _COLLECTING
        ),
        Variant("first_player", ("four-dice", "lots"), N_("how the first player is chosen"), _ALL),
        Variant(
            "pot_carries_over", _BOOL, N_("a drawn game's pot stays for the next"), _COLLECTING
        ),
        Variant("rake_percent", ("0", "5", "10"), N_("house cut of the pot, 0 to 50 %"), _ALL),
        Variant(
            "max_turns", ("50", "100", "200"), N_("turns before the game is drawn"), _COLLECTING
        ),
        Variant("auto_capture", _BOOL, N_("the best capture is always taken"), _FISHING),
        Variant("triplet_both_ends_only", _BOOL, N_("triplets only with both end tiles"), _FISHING),
        Variant("sweep_adds_pips", _BOOL, N_("a sweep scores 40 + its pips"), _FISHING),
        Variant("second_may_capture_opening", _BOOL, N_("the second tile may capture"), _FISHING),
        Variant(
            "play_until_both_piles_empty", _BOOL, N_("play on until both piles are out"), _FISHING
        ),
    )
}
"""Every flag ``variant`` accepts, by name."""

# Flags with options of their own on /table new.
_OWN_OPTION = {
    "game": "game",
    "players": "seats",
    "sets": "sets",
    "offer": "rules",
    "draw_after_take": "rules",
    "settlement": "settlement",
    "settle_rate": "rate",
}

_ITEM = re.compile(r"^([A-Za-z_]+)\s*=\s*(\S+)$")
_MAX_ITEMS = 16


def parse_variants(game: Game, text: str | None) -> dict[str, str]:
    """``"a=1 b=true"`` -> ``{"a": "1", "b": "true"}``, checked against :data:`VARIANTS` for
    ``game``. The values are checked later by the engine, together with the other options."""
    if text is None or not text.strip():
        return {}
    items = [item for item in re.split(r"[\s,;]+(?=[A-Za-z_]+\s*=)", text.strip()) if item]
    if len(items) > _MAX_ITEMS:
        raise UserError("At most {max_items} variants at once.", max_items=_MAX_ITEMS)
    chosen: dict[str, str] = {}
    for item in items:
        match = _ITEM.match(item.strip().rstrip(",;"))
        if match is None:
            raise UserError(
                "Write each variant as flag=value, e.g. `pot_carries_over=true`; got {item}.",
                item=quote_input(item),
            )
        flag, value = match.group(1).lower(), match.group(2).lower()
        if flag in _OWN_OPTION:
            raise UserError(
                "Choose {flag} with the `{option}` option of /table new.",
                flag=flag,
                option=_OWN_OPTION[flag],
            )
        variant = VARIANTS.get(flag)
        if variant is None or game not in variant.games:
            known = ", ".join(v.flag for v in VARIANTS.values() if game in v.games)
            raise UserError(
                "No variant {flag} for this game: choose {known}.",
                flag=quote_input(flag),
                known=known,
            )
        if flag in chosen and chosen[flag] != value:
            raise UserError("The variant {flag} is given twice.", flag=flag)
        chosen[flag] = value
    return chosen


def variant_suggestions(game: Game, current: str, locale: str = "en") -> list[tuple[str, str]]:
    """Autocomplete for ``variant``: ``(label, value)`` pairs that extend what is typed.

    What is typed up to its last item is kept; the last item is completed to ``flag=value``
    for every flag (not yet given) and value that matches it. At most 25 (Discord's limit).
    """
    head, _, last = current.rpartition(" ")
    given = {item.split("=", 1)[0].lower() for item in head.split() if "=" in item}
    last = last.lower()
    out: list[tuple[str, str]] = []
    for variant in VARIANTS.values():
        if game not in variant.games or variant.flag in given:
            continue
        for value in variant.values:
            item = f"{variant.flag}={value}"
            if last and last not in item:
                continue
            typed = f"{head} {item}".strip()
            if len(typed) > 100:
                continue
            label = f"{typed} — {t(locale, variant.words)}"
            out.append((label[:100], typed))
    return out[:25]


def variants_text(chosen: Mapping[str, str]) -> str:
    """The chosen variants, for the lobby: ``four_two_value=wild, pot_carries_over=true``."""
    return ", ".join(f"{flag}={value}" for flag, value in chosen.items())
