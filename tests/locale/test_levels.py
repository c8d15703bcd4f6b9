"""The computer levels are named, never shown by their codes: 生手 / 新手 / 入門 / 熟手 / 好手 /
高手 / 大師 (zh-CN 入门, 大师) for the ladder novice / beginner / casual / club / strong /
expert / master, 隨機 /
普通 for the former random / greedy, through bot.locale.levels.level_name, wherever a
member meets a level: a seat's name, the Add AI select and its answer, the ``level`` choices,
/help, a tournament's computer fillers and the terminal client. The codes stay what the
options take and the database stores.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
import simcord

from bot import terminal
from bot.games.collecting.ai.levels import AI_LEVELS
from bot.games.fishing.ai.levels import FISHING_LEVELS
from bot.locale import catalogue, t
from bot.locale.levels import LEVEL_NAMES, LevelName, level_name
from cogs.desk import level_choices
from tests.discord.conftest import GUILD_ID
from tests.discord.tables_kit import custom_ids, no_incidents  # noqa: F401
from tests.locale.test_zh_table_flow import click, make_club

CODES_IN_ORDER = [
    "random",
    "greedy",
    "novice",
    "beginner",
    "casual",
    "club",
    "strong",
    "expert",
    "master",
]
NAMES = {
    "en": [
        "Random",
        "Normal",
        "Novice",
        "Beginner",
        "Casual",
        "Club",
        "Strong",
        "Expert",
        "Master",
    ],
    "zh-TW": ["隨機", "普通", "生手", "新手", "入門", "熟手", "好手", "高手", "大師"],
    "zh-CN": ["随机", "普通", "生手", "新手", "入门", "熟手", "好手", "高手", "大师"],
}
LADDER_NAMES = {locale: names[2:] for locale, names in NAMES.items()}
CODES = re.compile(r"\b(?:random|greedy|novice|beginner|casual|strong|expert|master)\b")


@pytest.mark.parametrize("locale", list(NAMES))
def test_each_level_has_one_name_per_language(locale: str) -> None:
    """Every level's name in each language; a level without a name shows its code."""
    assert [level_name(locale, code) for code in CODES_IN_ORDER] == NAMES[locale]
    assert level_name(locale, "wizard") == "wizard"
    assert LevelName("expert") == "Expert"
    assert LevelName("expert").localized(locale) == NAMES[locale][7]


def test_every_registered_level_is_named_in_every_catalogue() -> None:
    """A new level (either game's registry) must get a name, and each name a translation."""
    assert set(AI_LEVELS) | set(FISHING_LEVELS) <= set(LEVEL_NAMES)
    for locale in ("zh-TW", "zh-CN"):
        cat = catalogue(locale)
        assert cat is not None
        for english in LEVEL_NAMES.values():
            message = cat.get(english)
            assert message is not None and message.string and not message.fuzzy, english


def test_the_level_option_offers_names() -> None:
    """``/table addbot level:`` and ``/tournament fill level:`` list names, keep codes as values
    (their translations are checked with the whole command tree in test_catalogue)."""
    choices = level_choices(["random", "expert"])
    assert [c.value for c in choices] == ["random", "expert"]
    assert choices[1].name.startswith("Expert — ")
    assert t("zh-TW", choices[1].name).startswith("高手 — ")
    assert all(not CODES.search(t("zh-CN", c.name)) for c in choices)


async def test_a_chinese_table_names_its_computer_by_level(
    env: simcord.Env, locales: dict[int, str]
) -> None:
    """zh-TW: the Add AI select lists 新手 … 大師; the seat is 電腦 1（高手）on the table message
    and in the host's answer; /help names the levels too. No level code anywhere."""
    club = await make_club(env, locales, "zh-TW")
    ch, alice = club.channel, club.alice
    r = await alice.slash(ch, "table new", game="kap-shap")
    lobby = r.response.message
    r = await click(alice, lobby, "addai")
    [select] = [c for row in r.response.components for c in row["components"]]
    labels = [option["label"] for option in select["options"]]
    assert labels == LADDER_NAMES["zh-TW"]
    assert "選擇難度" in select["placeholder"]
    r2 = await alice.select(r.response, ["expert"], custom_id=select["custom_id"])
    assert r2.response.content == "已加入電腦玩家（高手）。"
    table = club.table()
    assert [s.name for s in table.seats] == ["alice", "電腦 1（高手）"]
    assert table.seats[1].ai_level == "expert"  # the code is what is stored
    text = "\n".join(str(c) for c in [ch.history()[0].content, *_embed_texts(ch.history()[0])])
    assert "電腦 1（高手）" in text and not CODES.search(text)

    r = await alice.slash(ch, "help")
    [embed] = r.response.embeds
    levels = next(f.value for f in embed.fields if f.name == "電腦玩家")
    assert all(f"**{name}**" in levels for name in LADDER_NAMES["zh-TW"])
    assert not CODES.search(levels)
    rules = next(f.value for f in embed.fields if f.name == "輪到你")
    assert "連續逾時 3 次即出局" in rules  # the server's limit, not "a few"
    learning = next(f.value for f in embed.fields if f.name == "謎題、提示和手牌指引")
    words = ("`/謎題`", "`/提示`", "`/個人設定 手牌指引:`", "頭 10 局")
    assert all(word in learning for word in words), learning


async def test_a_tournaments_computer_fillers_are_named_by_level(
    env: simcord.Env, locales: dict[int, str]
) -> None:
    """``/tournament fill level:expert`` in a zh-CN server: the fillers are 电脑 1（高手）."""
    club = await make_club(env, locales, "zh-CN")
    await club.admin.slash(club.channel, "tournament new", name="Cup")
    await club.admin.slash(club.channel, "tournament fill", count=2, level="expert")
    service = env.bot.get_cog("Tournaments").service  # type: ignore[attr-defined]
    view = await service.current(GUILD_ID, None)
    names = sorted(e.name for e in view.entries if e.ai_level is not None)
    assert names == ["电脑 1（高手）", "电脑 2（高手）"]


def _embed_texts(message: Any) -> list[str]:
    out = []
    for embed in message.embeds:
        out += [embed.title or "", embed.description or ""]
        out += [f"{f.name}\n{f.value}" for f in embed.fields]
    return out


@pytest.mark.parametrize(("locale", "expert"), [("zh-TW", "高手"), ("zh-CN", "高手")])
def test_the_terminal_names_the_levels(locale: str, expert: str) -> None:
    """``kapshap play --lang zh-TW --ai expert``: the seats say 高手, never ``expert``; the
    set-up offers the levels by name with their codes and takes a name as an answer."""
    out = io.StringIO()
    argv = ["--lang", locale, "--ai", "expert", "--seed", "3"]
    assert terminal.main(argv, stdin=io.StringIO("quit\n"), stdout=out) == 0
    seats = next(line for line in out.getvalue().splitlines() if line.startswith("座位"))
    assert f"（{expert}電腦）" in seats or f"（{expert}电脑）" in seats
    assert not CODES.search(seats)

    out = io.StringIO()
    answers = "\n".join(["夾十" if locale == "zh-TW" else "夹十", "", expert, "quit", ""])
    argv = ["--lang", locale, "--setup", "--seed", "3"]
    assert terminal.main(argv, stdin=io.StringIO(answers), stdout=out) == 0
    text = out.getvalue()
    assert "新手（'beginner'）" in text and f"{expert}（'expert'）" in text
    assert f"（{expert}電腦）" in text or f"（{expert}电脑）" in text


def test_the_terminal_in_english_names_the_levels_too() -> None:
    """English: ``Bot 1 (Expert AI)``; ``--ai`` still takes the code."""
    out = io.StringIO()
    argv = ["--ai", "expert", "--seed", "3"]
    assert terminal.main(argv, stdin=io.StringIO("quit\n"), stdout=out) == 0
    assert "1: Bot 1 (Expert AI)" in out.getvalue()
