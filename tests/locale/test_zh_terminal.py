"""``kapshap play --lang`` and ``kapshap sim --lang`` in Chinese, end to end: no English left.

The terminal client is driven with scripted input for each game in zh-TW and zh-CN: the
``--setup`` dialogue (answered in Chinese or with Enter), help, the status commands, mistakes
(unreadable notation, illegal moves) and play to the end of the game, then the question about
another game. Every line the client printed (not the echo of what the player typed) must leave
no English word (:func:`tests.locale.english.latin_left`): notation the player types is quoted
or is digits (``'discard 3-1'``, ``6-5``), names are Chinese (你, 電腦 1).
"""

from __future__ import annotations

import dataclasses
import io
import random

import pytest

from bot import terminal
from bot.engine import KINDS, RuleSet, deal_from_tiles, make_rules, parse_tiles
from bot.sim import cli as sim_cli
from tests.locale.english import latin_left

CHINESE = ("zh-TW", "zh-CN")

# Every discard the player could make, in the order tried: a turn tries them until one is legal
# (each refused one is an illegal move the client must explain in Chinese).
_DISCARDS = [f"d {kind.high}{kind.low}" for kind in KINDS]
# A Kap Shap turn: declare if the hand wins, draw if a draw is due, else discard something.
_KAP_TURN = ["declare", "dr", *_DISCARDS]
# A Tsung Shap turn: turn over, capture if it can (one, then any), else place it.
_FISHING_TURN = [
    "draw",
    "c",
    "capture triplet ends",
    "capture triplet left",
    "capture triplet right",
    "capture pair left",
    "capture pair right",
    "l",
]


def _play(argv: list[str], lines: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = terminal.main(
        argv, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out, stderr=err
    )
    return status, out.getvalue(), err.getvalue()


def _english(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The printed lines that leave English words (a line echoing the player's input after
    the prompt is his, not the client's)."""
    found = []
    for line in text.splitlines():
        if line.startswith(terminal.PROMPT):
            continue
        # A question's line ends with the player's answer: "電腦難度：… ['greedy']: master".
        line = line.partition("[y/N] ")[0].partition("]: ")[0]
        left = latin_left(line, allowed)
        if left:
            found.append(f"{sorted(left)}: {line}")
    return found


# What a player does at his first prompt: every command (some in Chinese), and some mistakes.
_CHECKS = [
    "help",
    "幫助",
    "?",
    "走法",
    "hand",
    "pool",
    "look",
    "zz",
    "d 99",
    "capture pair ends",
    "",
    "t 66",
]


@pytest.mark.parametrize("locale", CHINESE)
def test_kap_shap_in_chinese_to_the_end(locale: str) -> None:
    game = "夾十" if locale == "zh-TW" else "夹十"
    script = [game, "", "", *_CHECKS, *(_KAP_TURN * 60), "n"]
    status, out, err = _play(["--lang", locale, "--setup", "--seed", "3"], script)
    assert status == 0, err
    assert not _english(out), "\n".join(_english(out))
    over = "=== 牌局結束 ===" if locale == "zh-TW" else "=== 牌局结束 ==="
    assert over in out
    # The help and the legal moves (asked in English and in Chinese), then the mistakes.
    assert out.count("現行規則" if locale == "zh-TW" else "现行规则") == 2
    assert "可行走法：'discard 6-6'" in out
    # The engine's refusal, worded as the bot words it on Discord (one list of refusals).
    assert ("! 不明的動作 'zz'" if locale == "zh-TW" else "! 未知的动作 'zz'") in out
    assert "'99' 不是牌" in out
    assert ("你手上沒有" if locale == "zh-TW" else "你手上没有") in out
    assert "你" in out and ("電腦 1" if locale == "zh-TW" else "电脑 1") in out


@pytest.mark.parametrize("locale", CHINESE)
def test_kap_tai_shap_in_chinese_to_the_end(locale: str) -> None:
    game, classic = ("夾大十", "傳統") if locale == "zh-TW" else ("夹大十", "传统")
    script = [game, "x", "3", classic, "", *_CHECKS, *(_KAP_TURN * 80), "n"]
    status, out, err = _play(["--lang", locale, "--setup", "--seed", "4"], script)
    assert status == 0, err
    assert not _english(out), "\n".join(_english(out))
    assert ("對手人數" if locale == "zh-TW" else "对手人数") in out
    assert ("傳統規則 · 4 人" if locale == "zh-TW" else "传统规则 · 4 人") in out
    assert "=== 牌局" in out and ("胡牌" in out or "和局" in out)


@pytest.mark.parametrize("locale", CHINESE)
def test_tsung_shap_in_chinese_to_the_end(locale: str) -> None:
    game = "爭十" if locale == "zh-TW" else "争十"
    # The random computer misses captures: the player is offered them and claims one.
    turn = ["claim triplet ends", "claim pair left", *_FISHING_TURN]
    script = [game, "godlike", "beginner", *_CHECKS, *(turn * 40), "n"]
    status, out, err = _play(["--lang", locale, "--setup", "--seed", "1"], script)
    assert status == 0, err
    assert not _english(out), "\n".join(_english(out))
    assert ("最後分數" if locale == "zh-TW" else "最后分数") in out
    assert out.count("現行規則" if locale == "zh-TW" else "现行规则") == 2
    assert ("牌列" in out) and ("翻開" in out or "翻开" in out)
    assert "可在翻牌前索取" in out and "索取了" in out
    # The unknown level and the claims when nothing was missed were refused in Chinese.
    assert "! 請從以下選一個" in out or "! 请从以下选一个" in out
    assert "! 沒有可以索取的漏釣。" in out or "! 没有可以索取的漏钓。" in out


@pytest.mark.parametrize("locale", CHINESE)
@pytest.mark.parametrize("game", ["kap-shap", "tsung-shap"])
def test_leaving_in_chinese(locale: str, game: str) -> None:
    """``quit`` (or 離開) and the end of input are told in Chinese."""
    for leave in ("quit", "離開", "离开"):
        status, out, _ = _play(["--lang", locale, "--game", game, "--seed", "2"], [leave])
        assert status == 0
        assert not _english(out), "\n".join(_english(out))
        assert "牌局作廢" in out or "牌局作废" in out
    status, out, _ = _play(["--lang", locale, "--game", game, "--seed", "2"], [])
    assert not _english(out), "\n".join(_english(out))
    assert "輸入已結束" in out or "输入已结束" in out


@pytest.mark.parametrize("locale", CHINESE)
@pytest.mark.parametrize(
    "argv",
    [
        ["--seat", "5"],
        ["--ai", "genius"],
        ["--game", "tsung-shap", "--ai", "genius"],
        ["--opponents", "2"],
        ["--game", "tsung-shap", "--rules", "culin"],
        ["--rule", "colour=red"],
        ["--rule", "max-turns=often"],
        ["--game", "kap-tai-shap", "--rule", "sets=9"],
        ["--name", "BOT"],
    ],
)
def test_option_errors_in_chinese(locale: str, argv: list[str]) -> None:
    """The client's own refusals of an option and the engine's refusals of the rules it asks
    for (argparse's own complaints stay English, see the module). Rule flags are notation."""
    if argv == ["--name", "BOT"]:
        argv = ["--name", "電腦 1" if locale == "zh-TW" else "电脑 1"]
    status, out, err = _play(["--lang", locale, *argv], [])
    assert status == 2 and out == ""
    assert err.startswith("kapshap play：")
    flags = {f.name for f in dataclasses.fields(RuleSet)}
    assert not latin_left(err, allowed={"kapshap", "play", *flags}), err


def test_english_stays_english() -> None:
    """The default language is untouched: the English names and wording."""
    status, out, _ = _play(["--seed", "3"], ["help", "zz", "quit"])
    assert status == 0
    assert "Seats in play order: 0: You, 1: Bot 1 (Novice AI)." in out
    assert "Rules in force: kap-shap, 2 players, 1 set, culin rules." in out
    assert "You leave the table; the game is abandoned." in out


@pytest.mark.parametrize("locale", CHINESE)
@pytest.mark.parametrize(
    "argv",
    [
        ["--compare", "culin,classic,last-draw"],
        ["--game", "kap-tai-shap", "--players", "5", "--ai", "random", "--ai", "1=greedy"],
        ["--game", "tsung-shap", "--compare", "base,auto_capture,sweep_adds_pips+auto_capture"],
        ["--game", "tsung-shap", "--rule", "four_two_value=3"],
    ],
)
def test_sim_report_in_chinese(
    locale: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status = sim_cli.main(
        ["--games", "6", "--seed", "2", "--workers", "1", "--no-progress", "--lang", locale, *argv]
    )
    out = capsys.readouterr().out
    assert status == 0
    lines = [f"{sorted(latin_left(x))}: {x}" for x in out.splitlines() if latin_left(x)]
    assert not lines, "\n".join(lines)
    assert "夾" in out or "夹" in out or "爭十" in out or "争十" in out


@pytest.mark.parametrize("locale", CHINESE)
def test_discards_and_a_drawn_game_in_chinese(locale: str) -> None:
    """An exact deal (``run_game(locale=…)``): the discards' marks under Classic rules (dead,
    takeable), then the game drawn at the turn limit, told in Chinese."""
    from tests.test_terminal import LOSING, DrawingBot

    rules = make_rules("kap-shap", rule_set="classic", first_turn_extra_draw=True, max_turns=6)
    bot = parse_tiles("6-1 6-1 5-1 5-1 6-2 5-3 4-3")
    deal = deal_from_tiles(rules, [LOSING, bot], wall=parse_tiles("6-6 6-4 4-1"), first_seat=0)
    lines = ["discard 3-1", "", "5-5", "take 9-9", "pool", *(_KAP_TURN * 10)]
    out = io.StringIO()
    names = ["你", "電腦 1" if locale == "zh-TW" else "电脑 1"]
    status = terminal.run_game(
        rules,
        deal,
        names=names,
        human=0,
        ai_level={1: DrawingBot()},
        rng=random.Random(1),
        stdin=io.StringIO("".join(f"{line}\n" for line in lines)),
        stdout=out,
        locale=locale,
    )
    text = out.getvalue()
    assert status == 0
    left = _english(text, frozenset({"drawing"}))  # the test's computer player's level
    assert not left, "\n".join(left)
    assert "－ 已死" in text and ("－ 你可以吃" in text)
    assert ("已達 6 手的上限" if locale == "zh-TW" else "已达 6 手的上限") in text


@pytest.mark.parametrize("locale", CHINESE)
@pytest.mark.parametrize(
    "argv",
    [
        ["--rules", "culin", "--compare", "culin,classic"],
        ["--compare", "culin,foo"],
        ["--ai", "9=greedy"],
        ["--ai", "nobody"],
        ["--players", "3"],
        ["--rule", "max_turns=x"],
        ["--plot", "turns.txt"],
        ["--game", "tsung-shap", "--compare", "base,wild"],
        ["--game", "tsung-shap", "--sets", "2"],
        ["--game", "tsung-shap", "--rules", "culin"],
    ],
)
def test_sim_errors_in_chinese(
    locale: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The simulator's refusals of its options (rule set, level and flag names are what the
    user types; PNG is a file format)."""
    assert sim_cli.main(["--lang", locale, "--games", "2", "--workers", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kapshap sim：")
    names = {f.name for f in dataclasses.fields(RuleSet)}
    names |= {"kapshap", "sim", "PNG", "culin", "classic", "last", "draw", "base"}
    names |= {
        "expert",
        "greedy",
        "master",
        "random",
        "novice",
        "beginner",
        "casual",
        "club",
        "strong",
    }
    assert not latin_left(err, allowed=names), err


def test_a_terminal_with_only_a_language_asks_the_setup_questions() -> None:
    """``kapshap play --lang zh-TW`` typed at a terminal: the set-up dialogue, in Chinese."""

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = io.StringIO()
    assert terminal.main(["--lang", "zh-TW"], stdin=Tty("爭十\n\n離開\n"), stdout=out) == 0
    text = out.getvalue()
    assert text.startswith("新牌局")
    assert "爭十：標準規則" in text and "牌局作廢" in text
    assert not _english(text), "\n".join(_english(text))


def test_the_terminals_refusals_are_the_bots() -> None:
    """The terminal, the simulator and the bot recognize the engine's refusals of a table's
    settings from one list (one wording everywhere); those of a play are the game's own."""
    import bot.sim.cli
    import bot.terminal
    from bot.services import tables

    assert bot.terminal.RULES_REFUSALS is bot.sim.cli.RULES_REFUSALS is tables.RULES_REFUSALS
