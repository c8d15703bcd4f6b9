"""Counted review words (bot.ai.review_words.nt): the AI layer says a line whose words depend on
a count without the catalogue, and a reader says it in a language with the catalogue's plural
entry, as bot.locale.nt would have said it in place."""

from __future__ import annotations

import random

import pytest

from bot.ai.review_words import Words, nt
from bot.engine import make_deal, make_rules, new_game, view
from bot.locale import nt as say_counted
from bot.services.review_text import position_lines

ONE, MANY = "Discards: {pool}; wall: {n} tile", "Discards: {pool}; wall: {n} tiles"


def test_counted_words_choose_their_form_in_english() -> None:
    assert nt(None, ONE, MANY, 1, pool="-").text() == "Discards: -; wall: 1 tile"
    assert nt(None, ONE, MANY, 5, pool="6-5").text() == "Discards: 6-5; wall: 5 tiles"
    assert nt(None, ONE, MANY, 5, pool="-") == Words(ONE, (("pool", "-"),), plural=MANY, count=5)


@pytest.mark.parametrize("locale", ["en", "zh-TW", "zh-CN"])
def test_a_position_line_is_the_catalogues_plural_entry(locale: str) -> None:
    rules = make_rules("kap-shap", 2)
    state = new_game(rules, ["a", "b"], make_deal(rules, random.Random(4)))
    seen = view(state, state.current)
    lines = position_lines(seen, locale)
    assert lines[1] == say_counted(locale, ONE, MANY, seen.wall_size, pool="-")
    assert len(lines) == 2
