"""The review of the Chinese texts (2026-11-26) fixed where the cause is code: a command named
as the member's client shows it, no stray space between Chinese and a value, dates in the
reader's style, a seat taking back its own discard, Tsung Shap's draw button (翻牌) and the
Culin rule set (古林).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import KapBot
from bot.config import Settings
from bot.engine import Tile, describe_event, make_rules
from bot.games.collecting.engine.machine import Took
from bot.games.dominoes.engine.actions import Draw
from bot.locale import Moment, command_path, date_text, name_commands, t
from bot.render.family import render_of
from bot.render.text import private_event_text, public_event_text, rules_summary
from bot.services.errors import AlreadyClaimed
from cogs.translator import CatalogueTranslator
from cogs.ui import moves_view
from tests.discord.tables_kit import no_incidents  # noqa: F401  (autouse: no error logged)
from tests.locale.test_zh_table_flow import make_club

# ------------------------------------------------------------------------ commands in texts


def test_a_command_path_in_each_language() -> None:
    """English stays as the code names it; Chinese takes the names Discord shows."""
    assert command_path("en", "table new") == "/table new"
    assert command_path("zh-TW", "table new") == "/牌桌 開桌"
    assert command_path("zh-CN", "tournament new") == "/锦标赛 开赛"  # by its path: not 开桌
    assert command_path("zh-TW", "settings notices:") == "/個人設定 通知:"
    assert command_path("zh-TW", "discard tile:6-5") == "/出牌 牌:6-5"


def test_texts_name_commands_in_the_readers_language() -> None:
    """A catalogue text writes a command in English; ``t`` names it for the reader. Fractions,
    links and words after the command are left alone."""
    assert name_commands("zh-TW", "用 `/settings notices:` 更改。") == "用 `/個人設定 通知:` 更改。"
    assert name_commands("zh-TW", "用 /tournament drop 退出，60/30/10") == (
        "用 /錦標賽 退賽 退出，60/30/10"
    )
    assert name_commands("zh-TW", "https://x.test/table new") == "https://x.test/table new"
    assert name_commands("en", "`/table new`") == "`/table new`"
    assert t("zh-TW", "There is no table in this channel. Open one with `/table new`.") == (
        "此頻道沒有牌桌。用 `/牌桌 開桌` 開一張。"
    )


async def test_texts_and_discord_name_every_command_alike(tmp_path: Path) -> None:
    """For every command and subcommand of the tree, the path a text gives is the one the
    command translator gives Discord (one lookup: bot.locale.command_word)."""
    bot = KapBot(
        Settings(discord_token=None, db_path=tmp_path / "db.sqlite3"),
        rng=random.Random(1),
        auto_sync=False,
    )
    # "async with": discord.py's start-up of the client, which its close() needs
    async with bot:
        await bot.setup_hook()
        translator = bot.tree.translator
        assert isinstance(translator, CatalogueTranslator)
        payloads = [
            await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()
        ]
    checked = 0
    for locale in ("zh-TW", "zh-CN"):
        for payload in payloads:
            if payload.get("type", 1) != 1:
                continue
            top = payload["name_localizations"][locale]
            assert command_path(locale, payload["name"]) == f"/{top}"
            for sub in payload.get("options") or []:
                if sub["type"] in (1, 2):
                    shown = f"/{top} {sub['name_localizations'][locale]}"
                    assert command_path(locale, f"{payload['name']} {sub['name']}") == shown
                    checked += 1
    assert checked > 30


async def test_help_and_settings_name_settings_alike(
    env: simcord.Env, locales: dict[int, str]
) -> None:
    """zh-TW: /help lists /個人設定 and /settings's answer says how to change with the same
    name, never /settings."""
    club = await make_club(env, locales, "zh-TW")
    r = await club.alice.slash(club.channel, "help")
    [embed] = r.response.embeds
    commands = next(f.value for f in embed.fields if f.name == "指令")
    assert "`/個人設定`" in commands and "`/牌桌 開桌`" in commands
    assert "/settings" not in commands and "/table" not in commands
    r = await club.alice.slash(club.channel, "settings")
    assert "`/個人設定 通知:`" in r.response.content
    assert "/settings" not in r.response.content


# ------------------------------------------------------------------- spaces around a value


def test_no_space_between_chinese_and_a_value() -> None:
    """``{name} 吃了 {other} 打出的`` reads ``你吃了電腦 1（高手）打出的`` for Chinese names and
    keeps the spaces around Latin names and notation."""
    msgid = "{name} took {tile} discarded by {other}."
    assert t("zh-TW", msgid, name="你", tile="`6-6` 天", other="電腦 1（高手）") == (
        "你吃了電腦 1（高手）打出的 `6-6` 天。"
    )
    assert t("zh-TW", msgid, name="alice", tile="`6-6` 天", other="bob") == (
        "alice 吃了 bob 打出的 `6-6` 天。"
    )
    turn = "Turn {turn}: **{name}** to {step}."
    bold = t("zh-CN", turn, turn=8, name="电脑 1（高手）", step="摸牌")
    assert bold == "第 8 手：轮到**电脑 1（高手）**摸牌。"
    english = t("en", msgid, name="You", tile="6-6", other="Bot 1")
    assert english == "You took 6-6 discarded by Bot 1."


# ----------------------------------------------------------------------------------- dates


def test_dates_in_the_readers_style() -> None:
    """2026/01/02 in zh-TW, 2026-01-02 in zh-CN and English; the daily claim's refusal says
    its time in the reader's style."""
    moment = datetime(2026, 1, 2, 0, 0, tzinfo=UTC)
    assert date_text("zh-TW", moment) == "2026/01/02"
    assert date_text("zh-CN", moment) == "2026-01-02"
    assert date_text("en", moment, time=True) == "2026-01-02 00:00"
    assert Moment(moment).localized("zh-TW") == "2026/01/02"
    error = AlreadyClaimed(moment, datetime(2026, 1, 1, 21, 30, tzinfo=UTC))
    assert "(2026-01-02 00:00 UTC)" in error.message
    assert "2026/01/02 00:00 UTC" in error.localized("zh-TW")
    assert "2 小時 30 分後" in error.localized("zh-TW")
    assert "2026-01-02 00:00 UTC" in error.localized("zh-CN")


# ------------------------------------------------------------ taking back one's own discard

TILE = Tile(5, 2)


@pytest.mark.parametrize(
    ("locale", "public", "private"),
    [
        ("en", "AI 1 took back `5-2`", "You took back `5-2`"),
        ("zh-TW", "電腦 1（高手）收回了自己打出的 `5-2`", "你收回了自己打出的 `5-2`"),
        ("zh-CN", "电脑 1（高手）收回了自己打出的 `5-2`", "你收回了自己打出的 `5-2`"),
    ],
)
def test_a_seat_takes_back_its_own_discard(locale: str, public: str, private: str) -> None:
    """Not "AI 1 took 5-2 discarded by AI 1": a line of its own, in every language."""
    name = {"en": "AI 1", "zh-TW": "電腦 1（高手）", "zh-CN": "电脑 1（高手）"}[locale]
    names = ["alice", name]
    event = Took(1, TILE, 1)
    line = public_event_text(event, names, locale)
    assert line is not None and line.startswith(public)
    mine = private_event_text(event, 1, names, locale)
    assert mine is not None and mine.startswith(private)
    other = public_event_text(Took(1, TILE, 0), names, locale)
    assert other is not None and "alice" in other
    english = describe_event(event, None, ["alice", "AI 1"])
    assert english == "AI 1 took back 5-2 Seven 雜七."


# ------------------------------------------------------------------ Tsung Shap's draw: 翻牌


@pytest.mark.parametrize(
    ("locale", "fishing", "kap_shap"), [("en", "Draw", "Draw"), ("zh-TW", "翻牌", "摸牌")]
)
def test_tsung_shap_turns_over_where_kap_shap_draws(
    locale: str, fishing: str, kap_shap: str
) -> None:
    """The same English "Draw"; in Chinese Tsung Shap turns a tile over (翻牌), Kap Shap draws
    from the wall (摸牌: the DM's button)."""
    moves = render_of("tsung-shap").buttons(None, [Draw()], locale)
    assert _labels(moves_view("abc", 1, moves, rules_locale=locale)) == [
        fishing,
        t(locale, "Rules"),
    ]
    assert t(locale, "Draw") == kap_shap


def _labels(view: Any) -> list[str]:
    # The view's children are dynamic items around the buttons.
    return [getattr(getattr(item, "item", item), "label", None) or "" for item in view.children]


# --------------------------------------------------------------------------- Culin: 古林


@pytest.mark.parametrize(("locale", "name"), [("en", "Culin rules"), ("zh-TW", "古林規則")])
def test_the_culin_rule_set_has_a_chinese_name(locale: str, name: str) -> None:
    """Not "Culin規則": the rule set's name in Chinese."""
    assert rules_summary(make_rules("kap-shap"), locale).startswith(name)
