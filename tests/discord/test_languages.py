"""Each member in his own language, each server in its own: zh-TW and zh-CN through Discord.

simcord sends every interaction with ``locale: en-US``; the ``locales`` fixture makes chosen
members' interactions carry the locale their Discord client would send (``zh-TW``, ``zh-CN``),
exactly where Discord puts it in the payload, so discord.py's real ``Interaction.locale`` reads it.
"""

from __future__ import annotations

from typing import Any

import simcord
import simcord.interactions

from bot.services.tables import TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)


def _commands(env: simcord.Env, member: simcord.MemberActor, channel: Any) -> dict[str, Any]:
    return {
        c["name"]: c for c in env.backend.visible_commands(user_id=member.id, channel_id=channel.id)
    }


async def test_a_zh_tw_member_sees_traditional_chinese(
    world: World, locales: dict[int, str]
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    locales[bob.id] = "zh-TW"

    # The command names and descriptions Discord shows a zh-TW client.
    commands = _commands(world.env, bob, ch)
    table = commands["table"]
    assert table["name_localizations"]["zh-TW"] == "牌桌"
    assert table["name_localizations"]["zh-CN"] == "牌桌"
    subs = {o["name"]: o for o in table["options"]}
    assert subs["new"]["name_localizations"] == {"zh-TW": "開桌", "zh-CN": "开桌"}
    assert commands["chips"]["name_localizations"] == {"zh-TW": "籌碼", "zh-CN": "筹码"}
    assert "夾十" in table["description_localizations"]["zh-TW"]

    # His refusals are in Traditional Chinese; an English member's stay English. A text names
    # a command as his client shows it (the names Discord was given above), never in English.
    r = await bob.slash(ch, "table join")
    shown = f"/{table['name_localizations']['zh-TW']} {subs['new']['name_localizations']['zh-TW']}"
    assert r.ephemeral and r.response.content == f"此頻道沒有牌桌。用 `{shown}` 開一張。"
    r = await alice.slash(ch, "table join")
    assert r.response.content == "There is no table in this channel. Open one with `/table new`."

    # The public lobby stays in the server's language (English); bob's own answers do not.
    r = await alice.slash(ch, "table new", game="kap-shap")
    lobby = r.response.message
    assert "new table" in message_text(lobby)
    r = await bob.click(lobby, label="Leave")
    assert r.ephemeral and r.response.content == "你沒有坐在這張牌桌。"
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    assert table_of(world).running

    # His hand, privately: the /hand reply is Traditional Chinese, tiles named in it.
    r = await bob.slash(ch, "hand")
    text = message_text(r.response)
    assert "你的手牌 — 夾十" in text
    r = await bob.slash(ch, "help")
    assert "夾十 — 玩法" in message_text(r.response)
    assert "眼" in message_text(r.response)


async def test_a_zh_cn_server_gets_its_table_in_simplified_chinese(
    env: simcord.Env, locales: dict[int, str]
) -> None:
    guild = env.create_guild("夹十俱乐部", id=GUILD_ID, preferred_locale="zh-CN")
    channel = guild.create_text_channel("kap-shap")
    alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
    await env.settle()

    r = await alice.slash(channel, "table new", game="kap-shap")
    lobby = r.response.message
    text = message_text(lobby)
    assert "夹十 — 新牌桌" in text and "桌主" in text and "入座" in text
    assert "出牌时限 2 分钟" in text
    await bob.click(lobby, label="入座")
    await alice.click(lobby, label="开始")
    table = env.bot.services.tables.get(channel.id)  # type: ignore[attr-defined]
    assert table is not None and table.status is TableStatus.RUNNING
    await env.settle()
    text = message_text(channel.history()[0])
    assert "第 1 手" in text and "牌墙" in text and "最近" in text
    assert "Turn" not in text and "Wall" not in text
    # A Traditional-script tile name never appears in a Simplified message.
    assert "長三" not in text and "斧頭" not in text
    # A member whose client speaks English still gets his own replies in English.
    r = await alice.slash(channel, "table join")
    assert r.response.content == "The game has already started."


async def test_kapadmin_config_language_overrides_the_servers_locale(world: World) -> None:
    ch, admin = world.channel, world.admin
    alice, bob = world.members[:2]
    r = await admin.slash(ch, "kapadmin config", language="zh-TW")
    assert "繁體中文" in r.response.content
    r = await alice.slash(ch, "table new", game="tsung-shap")
    text = message_text(r.response.message)
    assert "爭十 — 新牌桌" in text
    r = await admin.slash(ch, "kapadmin config", language="auto")
    assert "auto (the server's own language)" in r.response.content
    await bob.slash(ch, "table join")
    assert "Tsung Shap 爭十 — new table" in message_text(ch.history()[0])


async def test_a_member_s_dms_follow_his_locale(world: World, locales: dict[int, str]) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    locales[bob.id] = "zh-CN"
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await world.env.settle()
    [dm] = bob.user.dm_channel.history()[-1:]
    assert "你的手牌 — 夹十" in message_text(dm)
    [dm] = alice.user.dm_channel.history()[-1:]
    assert "Your hand — Kap Shap" in message_text(dm)
