"""Issue 23's formats in pictures: the third-place box under the final, the group tables."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from bot.render import tournament_art
from bot.render.tournament_art import (
    render_bracket,
    render_event_bracket,
    render_event_standings,
)
from bot.tournament import EventSettings, Format, single_elimination
from bot.tournament.bracket import resolve
from tests.render.test_render_tournament_art import GOLD, decode, has_colour
from tests.tournament.helpers import new_event, play_open_matches


def spy_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = tournament_art.draw_text

    def spy(draw: Any, x: float, top: float, text: str, *args: Any, **kwargs: Any) -> int:
        calls.append(text)
        return real(draw, x, top, text, *args, **kwargs)

    monkeypatch.setattr(tournament_art, "draw_text", spy)
    return calls


@pytest.mark.parametrize("n", [3, 4, 8, 13])
def test_the_third_place_match_is_drawn_under_the_final(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = list(range(1, n + 1))
    names = {p: f"P{p}" for p in seeds}
    plain = single_elimination(n)
    third = single_elimination(n, third_place=True)
    calls = spy_texts(monkeypatch)
    without = decode(render_bracket(plain, resolve(plain, seeds, {}), names, seeds))
    assert "Third place" not in calls
    with_third = decode(render_bracket(third, resolve(third, seeds, {}), names, seeds))
    assert "Third place" in calls
    assert with_third.height > without.height
    if n == 3:  # one semi-final against a bye: once the other is played, a walkover (not drawn)
        state = resolve(third, seeds, {"W1-2": 2})
        assert state["3P"].winner == 3
        calls.clear()
        decided = decode(render_bracket(third, state, names, seeds))
        assert "Third place" not in calls and decided.height == without.height


def test_the_group_tables_then_the_bracket(monkeypatch: pytest.MonkeyPatch) -> None:
    event = new_event(EventSettings(format=Format.SINGLE_ELIMINATION, groups=4), 8)
    assert render_event_bracket(event) is None, "no bracket during the groups"
    event.next_round()
    play_open_matches(event, Random(1))
    calls = spy_texts(monkeypatch)
    groups = decode(render_event_standings(event, "Cup"))
    assert "Group A" in calls and "Group B" in calls and "Cup" in calls
    assert has_colour(groups, GOLD), "the qualifying places in gold"
    while event.in_groups:
        event.next_round()
        play_open_matches(event, Random(2))
    assert render_event_bracket(event, "Cup") is not None
    calls.clear()
    decode(render_event_standings(event, "Cup"))
    assert "Group A" not in calls and "out in the group stage" in calls
