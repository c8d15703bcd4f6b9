"""Parsing and suggesting the rule variants of /table new."""

from __future__ import annotations

import pytest

from bot.engine import Game, make_rules
from bot.engine.variants import chosen_variants
from bot.services.errors import UserError
from bot.services.variants import VARIANTS, parse_variants, variant_suggestions


def test_items_are_read_with_spaces_or_commas() -> None:
    assert parse_variants(Game.KAP_SHAP, "pot_carries_over=true, four_two_value=WILD") == {
        "pot_carries_over": "true",
        "four_two_value": "wild",
    }
    assert parse_variants(Game.KAP_SHAP, None) == {}
    assert parse_variants(Game.KAP_SHAP, "  ") == {}


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        (Game.KAP_SHAP, "auto_capture=true", "No variant 'auto_capture' for this game"),
        (Game.TSUNG_SHAP, "pot_carries_over=true", "No variant 'pot_carries_over'"),
        (Game.KAP_SHAP, "offer=last", "`rules` option"),
        (Game.KAP_SHAP, "hello", "Write each variant as flag=value"),
        (Game.KAP_SHAP, "max_turns=1 max_turns=2", "given twice"),
    ],
)
def test_mistakes_get_a_sentence(game: Game, text: str, message: str) -> None:
    with pytest.raises(UserError, match=message) as info:
        parse_variants(game, text)
    assert info.value.message[:1].isupper() and len(info.value.message) < 400


def test_every_variant_flag_is_a_rule_flag_and_round_trips() -> None:
    flags = set(make_rules(Game.KAP_SHAP).flags())
    assert set(VARIANTS) <= flags
    rules = make_rules(Game.KAP_TAI_SHAP, 4, civil_eyes_only="true", first_player="lots")
    assert chosen_variants(rules) == {"civil_eyes_only": "true", "first_player": "lots"}


def test_suggestions_extend_what_is_typed() -> None:
    offered = dict((v, label) for label, v in variant_suggestions(Game.KAP_SHAP, "max_turns=1 pot"))
    assert "max_turns=1 pot_carries_over=true" in offered
    assert all(not v.startswith("max_turns=1 max_turns") for v in offered)
    assert len(variant_suggestions(Game.TSUNG_SHAP, "")) <= 25
