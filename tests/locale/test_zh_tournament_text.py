"""The event package's texts in Chinese: the rules of every format and option, and the
pairings, standings and results of played events, leave no English and keep every number."""

from __future__ import annotations

import re
from collections import Counter
from random import Random

import pytest

from bot.render.tournament_art import render_event_bracket, render_event_standings
from bot.services.tournaments import REFUSALS, computer_name, refusal, say_in
from bot.tournament import DecideBy, Event, EventSettings, Format, TournamentError
from bot.tournament.describe import pairings_text, results_text, standings_text
from bot.tournament.rules_text import explain_rules
from tests.locale.english import latin_left
from tests.tournament.helpers import new_event, play_open_matches, run_event

CHINESE = ("zh-TW", "zh-CN")


def _settings() -> list[EventSettings]:
    """Every format with the options that change its rules text."""
    out = []
    for best_of in (1, 3):
        for buy_in in (0, 50):
            split = (60, 30, 10) if buy_in else (100,)
            out += [
                EventSettings(best_of=best_of, buy_in=buy_in, prize_split=split),
                EventSettings(best_of=best_of, buy_in=buy_in, prize_split=split, top_cut=4),
                EventSettings(format=Format.SINGLE_ELIMINATION, best_of=best_of, buy_in=buy_in),
                EventSettings(format=Format.DOUBLE_ELIMINATION, best_of=best_of),
                EventSettings(
                    format=Format.DOUBLE_ELIMINATION, best_of=best_of, grand_final_reset=False
                ),
                EventSettings(format=Format.ROUND_ROBIN, best_of=best_of, rounds=4),
                EventSettings(game="tsung-shap", decide_by=DecideBy.POINTS, best_of=best_of),
                EventSettings(
                    game="tsung-shap",
                    decide_by=DecideBy.POINTS,
                    best_of=best_of,
                    format=Format.SINGLE_ELIMINATION,
                ),
            ]
    for games in (1, 3):
        out += [
            EventSettings(
                game="kap-tai-shap",
                format=Format.TABLE_ROUNDS,
                rounds=rounds,
                games_per_table=games,
                final_table=final,
                final_table_games=games,
                buy_in=20,
            )
            for rounds in (1, 3)
            for final in (0, 4)
        ]
    return out


def _numbers(text: str) -> Counter[str]:
    # Not the digits of a match id (GF2): the id may be said in words.
    return Counter(re.findall(r"(?<![A-Za-z])\d+(?:\.\d+)?|½", text))


def _same_numbers(english: str, chinese: str) -> list[str]:
    """Numbers of the English missing from the Chinese (a number may be said twice there)."""
    en, zh = _numbers(english), _numbers(chinese)
    return [n for n, count in en.items() if zh[n] < count]


@pytest.mark.parametrize("locale", CHINESE)
def test_the_rules_of_every_format_in_chinese(locale: str) -> None:
    for settings in _settings():
        for entrants in (None, 9):
            english = explain_rules(settings, entrants)
            chinese = explain_rules(settings, entrants, say_in(locale))
            assert chinese != english
            assert latin_left(chinese) == set(), chinese
            assert _same_numbers(english, chinese) == [], (english, chinese)
            assert chinese.count("\n\n") == english.count("\n\n")


def _events() -> list[tuple[str, Event]]:
    swiss = new_event(EventSettings(buy_in=10, prize_split=(70, 30)), 6, ai=1)
    odd = new_event(EventSettings(), 5, ai=1)
    knockout = new_event(EventSettings(format=Format.DOUBLE_ELIMINATION), 5)
    robin = new_event(EventSettings(format=Format.ROUND_ROBIN), 5)
    tables = new_event(EventSettings(game="kap-tai-shap", format=Format.TABLE_ROUNDS), 8)
    return [
        ("swiss", swiss),
        ("odd", odd),
        ("knockout", knockout),
        ("robin", robin),
        ("tables", tables),
    ]


@pytest.mark.parametrize("locale", CHINESE)
def test_pairings_standings_and_results_in_chinese(locale: str) -> None:
    say = say_in(locale)
    for _, event in _events():
        texts: list[tuple[str, str]] = []
        rng = Random(3)
        while (rnd := event.next_round()) is not None:
            texts.append((pairings_text(event, rnd), pairings_text(event, rnd, say)))
            if rnd.number == 2:
                event.withdraw(event.players[1].id)
            play_open_matches(event, rng)
            texts.append((standings_text(event), standings_text(event, say=say)))
        texts.append((results_text(event, 60), results_text(event, 60, say)))
        texts.append((results_text(event, 0), results_text(event, 0, say)))
        for english, chinese in texts:
            assert latin_left(chinese) == set(), chinese
            assert _same_numbers(english, chinese) == [], (english, chinese)
            assert len(chinese.splitlines()) == len(english.splitlines())


def test_a_forfeit_a_disqualification_and_the_limit_in_chinese() -> None:
    event = run_event(new_event(EventSettings(), 14, ai=1), Random(2))
    assert "還有 4 人" in standings_text(event, say=say_in("zh-TW"))
    bracket = new_event(EventSettings(format=Format.SINGLE_ELIMINATION), 4)
    rnd = bracket.next_round()
    assert rnd is not None
    bracket.withdraw(2, disqualify=True)
    text = pairings_text(bracket, rnd, say_in("zh-CN"))
    assert "（弃权）" in text and "对" in text
    assert "取消资格" in standings_text(bracket, say=say_in("zh-CN"))


@pytest.mark.parametrize("locale", CHINESE)
def test_the_pictures_draw_in_chinese(locale: str) -> None:
    """The standings and bracket pictures draw their Chinese captions (no missing glyph error)."""
    event = run_event(new_event(EventSettings(format=Format.DOUBLE_ELIMINATION), 6), Random(1))
    assert render_event_standings(event, "盃賽", locale=locale)[:4] == b"\x89PNG"
    bracket = render_event_bracket(event, "盃賽", locale=locale)
    assert bracket is not None and bracket[:4] == b"\x89PNG"


@pytest.mark.parametrize("locale", CHINESE)
def test_the_event_package_s_refusals_are_recognized(locale: str) -> None:
    """Every refusal the event package raises reaches a member in his language, numbers kept."""
    error = refusal(TournamentError("This event takes at most 64 players."))
    assert error.msgid == "This event takes at most {n} players."
    assert "64" in error.localized(locale) and not latin_left(error.localized(locale))
    for template in REFUSALS:
        text = template.format(
            n=8,
            number=2,
            game="'x'",
            games="kap-shap",
            match="W1-2",
            zone="'x'",
            examples="x",
            text="'x'",
        )
        found = refusal(TournamentError(text))
        assert found.msgid == template
        # The option values a member types stay as they are.
        assert latin_left(found.localized(locale)) <= {"x", "kap", "shap"}
    with pytest.raises(TournamentError) as raised:
        EventSettings(best_of=2)
    assert not latin_left(refusal(raised.value).localized(locale))


def test_a_computer_filler_is_named_once_with_its_level_in_words() -> None:
    """One label: the computer mark once, the level as the reader's word (新手 … 大師)."""
    assert computer_name(1, "greedy", "en") == "Computer 1 (Normal)"
    assert computer_name(2, "expert", "zh-TW") == "電腦 2（高手）"
    assert computer_name(3, "random", "zh-CN") == "电脑 3（随机）"
    assert computer_name(4, "master", "zh-TW") == "電腦 4（大師）"
