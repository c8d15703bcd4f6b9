"""The rules text and one-line summaries of every game, rule set and variant, in Chinese.

``/table rules``, the lobby and the table message describe the rules in force; every
combination a host can choose (game, rule set, players, each variant's every value, difference
settlement) is rendered in zh-TW and zh-CN, with no English left but notation.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.engine import Game, RuleSet, make_rules
from bot.render.text import rules_summary, rules_text
from bot.services.variants import VARIANTS, variant_suggestions
from tests.locale.english import latin_left


def _rule_sets() -> Iterator[RuleSet]:
    for game in Game:
        players = (2,) if game is not Game.KAP_TAI_SHAP else (2, 5, 12)
        names = (None,) if game is Game.TSUNG_SHAP else ("culin", "classic", "last-draw")
        for count in players:
            for name in names:
                yield make_rules(game, count, name)
                for variant in VARIANTS.values():
                    if game not in variant.games:
                        continue
                    for value in variant.values:
                        try:
                            yield make_rules(game, count, name, **{variant.flag: value})
                        except ValueError:
                            continue  # a value this rule set refuses (checked elsewhere)
        if game is Game.TSUNG_SHAP:
            yield make_rules(game, 2, None, settlement="difference", settle_rate=3)


RULES = list(_rule_sets())


def test_every_choice_is_rendered() -> None:
    assert len(RULES) > 100


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_rules_text_and_summary_in_chinese(locale: str) -> None:
    problems = set()
    for rules in RULES:
        for text in (rules_summary(rules, locale), rules_text(rules, ante=10, locale=locale)):
            left = latin_left(text)
            if left:
                problems.add(f"{sorted(left)}: {text[:160]!r}")
    assert sorted(problems) == []


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_variant_suggestions_in_chinese(locale: str) -> None:
    """``/table new variant:`` suggests ``flag=value — what it means`` in the member's words."""
    for game in Game:
        for label, value in variant_suggestions(game, "", locale):
            words = label.split(" — ", 1)[1]
            assert latin_left(words) == set(), label
            assert label.startswith(value)
