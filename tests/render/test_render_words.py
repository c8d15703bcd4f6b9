"""Wording of the rendered text: plurals, durations, thousands separators, rules that apply."""

from __future__ import annotations

import pytest

from bot.engine import Game, make_rules
from bot.limits import fit_message, format_duration, quote_input
from bot.render.text import plural, rules_text


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (10, "10 s"),
        (45, "45 s"),
        (60, "1 min"),
        (90, "1 min 30 s"),
        (120, "2 min"),
        (3_600, "1 h"),
        (5_400, "1 h 30 min"),
        (86_400, "1 day"),
        (172_800, "2 days"),
    ],
)
def test_a_duration_reads_like_a_person_would_say_it(seconds: int, words: str) -> None:
    assert format_duration(seconds) == words


def test_plurals_and_thousands() -> None:
    assert plural(1, "tile") == "1 tile"
    assert plural(0, "tile") == "0 tiles"
    assert plural(5000, "chip") == "5,000 chips"


def test_quote_input_keeps_a_short_one_line_prefix() -> None:
    assert quote_input("6-5") == "'6-5'"
    quoted = quote_input("x" * 1900)
    assert len(quoted) <= 42 and quoted.endswith("…'")
    assert quote_input("a\nb") == "'a b'"
    assert len(fit_message("y" * 5000)) == 2000


def test_the_stall_guard_is_explained_only_where_it_can_apply() -> None:
    culin = rules_text(make_rules(Game.KAP_SHAP, 2, "culin"))
    last_draw = rules_text(make_rules(Game.KAP_SHAP, 2, "last-draw"))
    classic = rules_text(make_rules(Game.KAP_SHAP, 2, "classic"))
    assert "without drawing" not in culin and "without drawing" not in last_draw
    assert "2 turns in a row of taking without drawing" in classic


def test_stakes_and_timer_in_the_rules_text() -> None:
    text = rules_text(make_rules(Game.KAP_SHAP, 2), ante=5000, turn_seconds=86_400)
    assert "everyone pays 5,000 chips" in text
    assert "**Turn timer:** 1 day;" in text
    assert "86400" not in text and "86,400" not in text
    assert "everyone pays 1 chip;" in rules_text(make_rules(Game.KAP_SHAP, 2), ante=1)


def test_one_tile_left_in_the_pile_is_singular() -> None:
    import dataclasses
    import random

    from bot.engine import make_deal, new_game, view
    from bot.render.text import SeatLabel, seats_text

    rules = make_rules(Game.TSUNG_SHAP, 2)
    state = new_game(rules, ["A", "B"], make_deal(rules, random.Random(1)))
    seen = dataclasses.replace(view(state, None), pile_sizes=(1, 2))
    text = seats_text(seen, [SeatLabel("A"), SeatLabel("B")])
    assert "1 tile left in the pile" in text and "2 tiles left in the pile" in text
    assert "1 tiles" not in text
