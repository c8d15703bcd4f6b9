"""Rule variants a host may choose when opening a table (RULES.md's variant flags).

``/table new variant:"four_two_value=wild pot_carries_over=true"`` names rule flags as
``flag=value`` items (spaces or commas between them). The game, the players, the sets and the
rule set have options of their own, and so has Tsung Shap's settlement; the flags a game offers
besides are its family's (:meth:`bot.engine.family.RuleBook.variants`). The engine decides
whether a combination works (its ``make_rules``); its reason is what the host is told.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine.family import engine_of
from bot.games import games
from bot.limits import quote_input
from bot.locale import t
from bot.services.errors import UserError

__all__ = ["VARIANTS", "Variant", "parse_variants", "variant_suggestions", "variants_text"]


@dataclass(frozen=True, slots=True)
class Variant:
    """One flag a host may set: its values (as typed), what it does (a message id) and the
    games that offer it."""

    flag: str
    values: tuple[str, ...]
    words: str
    games: frozenset[str]


def _every_variant() -> dict[str, Variant]:
    merged: dict[str, Variant] = {}
    for game in games():
        for offered in engine_of(game.name).variants(game.name):
            known = merged.get(offered.flag)
            seen = frozenset() if known is None else known.games
            merged[offered.flag] = Variant(
                offered.flag, offered.values, offered.words, seen | {game.name}
            )
    return merged


VARIANTS: dict[str, Variant] = _every_variant()
"""Every flag ``variant`` accepts in the built-in games, by name (what a game offers is its
family's: :func:`parse_variants` and :func:`variant_suggestions` ask it)."""

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


def parse_variants(game: str, text: str | None) -> dict[str, str]:
    """``"a=1 b=true"`` -> ``{"a": "1", "b": "true"}``, checked against the variants ``game``
    offers. The values are checked later by the engine, together with the other options."""
    if text is None or not text.strip():
        return {}
    offered = {variant.flag: variant for variant in engine_of(game).variants(game)}
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
        if flag not in offered:
            known = ", ".join(offered)
            raise UserError(
                "No variant {flag} for this game: choose {known}.",
                flag=quote_input(flag),
                known=known,
            )
        if flag in chosen and chosen[flag] != value:
            raise UserError("The variant {flag} is given twice.", flag=flag)
        chosen[flag] = value
    return chosen


def variant_suggestions(game: str, current: str, locale: str = "en") -> list[tuple[str, str]]:
    """Autocomplete for ``variant``: ``(label, value)`` pairs that extend what is typed.

    What is typed up to its last item is kept; the last item is completed to ``flag=value``
    for every flag (not yet given) and value that matches it. At most 25 (Discord's limit).
    """
    head, _, last = current.rpartition(" ")
    given = {item.split("=", 1)[0].lower() for item in head.split() if "=" in item}
    last = last.lower()
    out: list[tuple[str, str]] = []
    for variant in engine_of(game).variants(game):
        if variant.flag in given:
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
