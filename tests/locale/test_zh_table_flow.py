"""Whole games of the three games played in Chinese through simcord: no English left.

The server's language is zh-TW (one test: zh-CN) and every member's Discord client speaks the
same, so everything the bot shows them — the lobby, the table message, DMs with their buttons
and selects, ephemeral replies and refusals (the engine's too), timeouts, resignations, the end
of the game, settlement, the rematch, /help, /table rules, /chips, /leaderboard, /settings and
/kapadmin — must be Chinese, apart from names and notation.

Every message is collected from the bot's own requests to Discord (each message as it was sent
and as it was edited, not only its latest state), so a text shown for a moment is checked too.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
import simcord
import simcord.interactions

from bot.engine import Deal, Game, make_rules, parse_tiles
from bot.games.fishing.engine import deal_from_piles
from bot.services.tables import Table, TableStatus
from tests.discord.conftest import GUILD_ID
from tests.discord.tables_kit import (
    custom_ids,
    deal_every_table,
    exact_deal,
    last_dm,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    resign,
)
from tests.locale.english import english_in

NAMES = ("alice", "bob", "carol", "admin", "AI")


@dataclasses.dataclass
class Club:
    """A Chinese-speaking server: a game channel, an admin and three members."""

    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    admin: simcord.MemberActor
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor

    def table(self) -> Table:
        """The bot's table in the game channel."""
        table = self.env.bot.services.tables.get(self.channel.id)  # type: ignore[attr-defined]
        assert table is not None
        return table


async def make_club(env: simcord.Env, locales: dict[int, str], locale: str) -> Club:
    """A server whose language is ``locale``, with members whose clients speak it too."""
    import discord

    guild = env.create_guild("夾十會", id=GUILD_ID, preferred_locale=locale)
    channel = guild.create_text_channel("kap-shap")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[managers])
    alice, bob, carol = (guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol"))
    for member in (admin, alice, bob, carol):
        locales[member.id] = locale
    await env.settle()
    return Club(env, guild, channel, admin, alice, bob, carol)


def _component_texts(components: Iterable[Any]) -> Iterator[str]:
    for item in components or []:
        if not isinstance(item, dict):
            continue
        for key in ("label", "placeholder"):
            if item.get(key):
                yield str(item[key])
        for option in item.get("options") or []:
            for key in ("label", "description"):
                if option.get(key):
                    yield str(option[key])
        yield from _component_texts(item.get("components") or [])


def _message_texts(data: Any) -> Iterator[str]:
    """What a member reads in a message payload (content, embeds, components)."""
    if not isinstance(data, dict):
        return
    if data.get("content"):
        yield str(data["content"])
    for embed in data.get("embeds") or []:
        for key in ("title", "description"):
            if embed.get(key):
                yield str(embed[key])
        for key in ("footer", "author"):
            part = embed.get(key) or {}
            if part.get("text") or part.get("name"):
                yield str(part.get("text") or part.get("name"))
        for embed_field in embed.get("fields") or []:
            yield str(embed_field.get("name") or "")
            yield str(embed_field.get("value") or "")
    yield from _component_texts(data.get("components") or [])
    for attachment in data.get("attachments") or []:
        if isinstance(attachment, dict) and attachment.get("description"):
            yield str(attachment["description"])


def shown(env: simcord.Env) -> list[str]:
    """Every text the bot sent or edited into a message, an interaction reply or a followup."""
    texts: list[str] = []
    for request in env.http_requests:
        if request.method not in ("POST", "PATCH") or request.json is None:
            continue
        if "/commands" in request.path:
            continue  # the command sync (metadata: tests/locale/test_catalogue.py)
        body = request.json
        if "/callback" in request.path and isinstance(body, dict):
            body = body.get("data")
            # Autocomplete suggestions are shown to the member too.
            if isinstance(body, dict):
                texts += [str(c.get("name") or "") for c in body.get("choices") or []]
        texts += [t for t in _message_texts(body) if t]
    return texts


def assert_chinese(club: Club) -> None:
    """Nothing the bot showed left English words (names and notation aside)."""
    texts = shown(club.env)
    if os.environ.get("ZH_DUMP"):
        print("\n=====\n".join(texts))
    assert len(texts) > 20, "the collector must find the messages"
    # A table's id (``牌桌 5ded67f2bf86``) is a name, not English.
    texts = [re.sub(r"\b[0-9a-f]{12}\b", "", text) for text in texts]
    left = english_in(texts, allowed=NAMES)
    assert left == [], "\n".join(left)


async def click(member: simcord.MemberActor | simcord.UserHandle, message: Any, verb: str) -> Any:
    """Click the button whose custom id has ``verb`` (``:join``, ``:play:draw``)."""
    [custom_id] = [c for c in custom_ids(message) if c.endswith(f":{verb}")][:1]
    return await member.click(message, custom_id=custom_id)


async def add_ai(club: Club, lobby: Any, level: str = "beginner") -> None:
    """The host adds a computer player through the lobby's button and the level select."""
    r = await click(club.alice, lobby, "addai")
    assert r.ephemeral
    [custom_id] = [c["custom_id"] for row in r.response.components for c in row["components"]]
    await club.alice.select(r.response, [level], custom_id=custom_id)


def replies(*results: Any) -> list[str]:
    """The contents of interaction results' responses and followups (ephemeral ones too)."""
    out = []
    for r in results:
        if r.response is not None:
            out.append(r.response.content)
        out += [f.content for f in r.followups]
    return [o for o in out if o]


# Kap Shap: alice wins on turn 3 (tests/discord/test_play_slash.py's deal).
KS_ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
KS_BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
KS_WALL = "2-2 6-4"


async def play_kap_shap(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lobby, join, start; moves by DM button and by slash command; refusals; a win; rematch."""
    exact_deal(monkeypatch, Game.KAP_SHAP, [KS_ALICE, KS_BOB], KS_WALL, dice=(1, 1, 2, 2))
    ch, alice, bob, carol = club.channel, club.alice, club.bob, club.carol
    r = await alice.slash(ch, "table new", game="kap-shap")
    lobby = r.response.message
    await click(bob, lobby, "join")
    await carol.slash(ch, "table join")  # the table is full (its Join is greyed out)
    await click(carol, lobby, "leave")  # not seated
    await click(bob, lobby, "start")  # not the host
    await click(alice, lobby, "start")
    table = club.table()
    assert table.running
    await carol.slash(ch, "table join")  # already started
    await bob.slash(ch, "discard", tile="4-2")  # not his turn
    await alice.slash(ch, "take", tile="4-2")  # nothing to take (the engine's refusal)
    await alice.slash(ch, "discard", tile="5-5")  # not in her hand
    await click(carol, ch.history()[0], "hand")  # a spectator's "My hand"
    await click(carol, ch.history()[0], "rules")
    await alice.slash(ch, "hand")
    await alice.autocomplete(ch, "discard", "tile", "")
    await bob.autocomplete(ch, "take", "tile", "")
    # Turn 1: alice discards 5-2 by her DM's button, draws and discards by slash commands.
    await alice.user.click(last_dm(alice), custom_id=_play(last_dm(alice), "discard:5-2"))
    await alice.slash(ch, "draw")
    await alice.slash(ch, "discard", tile="2-2")
    # Turn 2: bob takes 5-2 by slash, discards 6-3, draws, discards 6-4.
    await bob.slash(ch, "take", tile="5-2")
    await bob.slash(ch, "declare")  # not a winning hand (the engine's refusal)
    await bob.slash(ch, "discard", tile="6-3")
    await bob.user.click(last_dm(bob), custom_id=_play(last_dm(bob), "draw"))
    await bob.slash(ch, "discard", tile="6-4")
    await club.env.advance_time(1)
    # Turn 3: alice takes 6-3 by her DM's select and declares by button.
    await alice.slash(ch, "take", tile="6-3")
    await alice.user.click(last_dm(alice), custom_id=_play(last_dm(alice), "declare"))
    assert table.status is TableStatus.FINISHED
    reveal = ch.history()[-1]
    await click(bob, reveal, "rematch")
    assert club.table().status is TableStatus.LOBBY
    await alice.slash(ch, "table cancel")


def _play(message: Any, arg: str) -> str:
    ids = [c for c in custom_ids(message) if c.endswith(f":{arg}")]
    assert ids, (arg, custom_ids(message))
    return ids[0]


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
async def test_kap_shap_in_chinese(
    env: simcord.Env, locales: dict[int, str], monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    club = await make_club(env, locales, locale)
    await play_kap_shap(club, monkeypatch)
    assert_chinese(club)


# Kap Tai Shap for three (alice, bob, a computer): nobody can win quickly, so it ends by timeouts
# and a resignation.
async def test_kap_tai_shap_with_a_computer_timeouts_and_resign(
    env: simcord.Env, locales: dict[int, str]
) -> None:
    club = await make_club(env, locales, "zh-TW")
    ch, alice, bob = club.channel, club.alice, club.bob
    r = await alice.slash(ch, "table new", game="kap-tai-shap", seats=3, rules="classic")
    lobby = r.response.message
    await click(bob, lobby, "join")
    await add_ai(club, lobby, "beginner")
    await click(alice, lobby, "start")
    table = club.table()
    assert table.running
    # Whoever is to play lets the time run out, twice; a turn notice is sent first.
    for _ in range(2):
        await env.advance_time(table.turn_seconds + 2)
    # Moves by slash command and button for whoever plays.
    by_id = {alice.id: alice, bob.id: bob}
    for _ in range(2):
        seat = table.current_seat
        if seat is None or seat.user_id not in by_id:
            await env.advance_time(2)
            continue
        member = by_id[seat.user_id]
        legal = [str(a) for a in table.legal()]
        if "draw" in legal:
            await member.user.click(last_dm(member), custom_id=_play(last_dm(member), "draw"))
        legal = [str(a) for a in table.legal()]
        discard = next(a for a in legal if a.startswith("discard"))
        await member.slash(ch, "discard", tile=discard.split()[1])
        await env.advance_time(2)
    # Refusals: a tile that is no tile, a declaration that is no win, a discard not held.
    await alice.slash(ch, "discard", tile="zz")
    await alice.slash(ch, "discard", tile="7-7")
    await bob.slash(ch, "declare")
    await bob.slash(ch, "take", tile="nine")
    r = await bob.slash(ch, "table resign")  # asked, then kept playing
    await click(bob, r.response.message, "keep")
    await resign(bob, ch)
    await resign(alice, ch)
    await env.advance_time(5)
    assert table.status is not TableStatus.RUNNING
    await alice.slash(ch, "table show")
    end = next(m for m in reversed(ch.history()) if any(":rematch" in c for c in custom_ids(m)))
    await click(bob, end, "rematch")
    assert club.table().status is TableStatus.LOBBY
    assert_chinese(club)


TS_ALICE = "1-1 2-2 6-6"
TS_BOB = "3-1 6-6"


async def test_tsung_shap_in_simplified_chinese(
    env: simcord.Env, locales: dict[int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = make_rules(Game.TSUNG_SHAP)
    exact = deal_from_piles(rules, parse_tiles(TS_ALICE), parse_tiles(TS_BOB), first_seat=0)
    exact = dataclasses.replace(exact, thrower=0, dice=(1, 1, 2, 2))

    def fixed(rules_: Any, rng: Any, thrower: int = 0) -> Deal:
        return exact

    deal_every_table(monkeypatch, fixed)
    club = await make_club(env, locales, "zh-CN")
    ch, alice, bob = club.channel, club.alice, club.bob
    r = await alice.slash(ch, "table new", game="tsung-shap", seats=3)  # exactly two players
    r = await alice.slash(ch, "table new", game="tsung-shap", settlement="difference", rate=2)
    await click(bob, r.response.message, "join")
    await alice.slash(ch, "table start")
    table = club.table()
    await env.advance_time(2)
    table_message = next(m for m in ch.history() if m.id == table.message_id)
    await alice.slash(ch, "hand")
    await click(club.carol, table_message, "rules")
    await alice.click(table_message, custom_id=_play(table_message, "draw"))
    await alice.slash(ch, "discard", side="left")  # nothing to place
    await bob.slash(ch, "draw")
    await bob.slash(ch, "take", tile="capture pair left")  # not offered
    await env.advance_time(table.turn_seconds + 2)  # bob's time runs out
    by_id = {alice.id: alice, bob.id: bob}
    while table.running:
        seat = table.current_seat
        assert seat is not None and seat.user_id is not None
        member = by_id[seat.user_id]
        legal = [str(a) for a in table.legal()]
        if "draw" in legal:
            await member.slash(ch, "draw")
        elif any(a.startswith("capture") or a.startswith("claim") for a in legal):
            offered = await member.autocomplete(ch, "take", "tile", "")
            assert offered and all(c["value"] in legal for c in offered)
            assert await member.autocomplete(ch, "take", "tile", "capture") or legal[0].startswith(
                "claim"
            )
            await member.slash(
                ch, "take", tile=next(a for a in legal if a.startswith(("claim", "capture")))
            )
        else:
            await member.slash(ch, "discard", side="right")
    await click(alice, ch.history()[-1], "rematch")
    assert_chinese(club)


async def test_the_other_commands_in_traditional_chinese(
    env: simcord.Env, locales: dict[int, str]
) -> None:
    club = await make_club(env, locales, "zh-TW")
    ch, admin, alice, bob = club.channel, club.admin, club.alice, club.bob
    results = [
        await alice.slash(ch, "help"),
        await alice.slash(ch, "table rules", game="kap-shap"),
        await alice.slash(ch, "table rules", game="kap-tai-shap"),
        await alice.slash(ch, "table rules", game="tsung-shap"),
        await alice.slash(ch, "chips balance"),
        await alice.slash(ch, "chips daily"),
        await alice.slash(ch, "chips daily"),  # already claimed
        await alice.slash(ch, "chips give", member=bob, amount=5),
        await alice.slash(ch, "chips give", member=alice, amount=5),
        await alice.slash(ch, "chips give", member=bob, amount=10**9),
        await alice.slash(ch, "chips history"),
        await alice.slash(ch, "leaderboard"),
        await alice.slash(ch, "settings"),
        await admin.slash(ch, "kapadmin config"),
        await admin.slash(ch, "kapadmin config", language="zh-TW"),
        await admin.slash(ch, "kapadmin grant", member=bob, amount=50),
        await admin.slash(ch, "kapadmin house"),
        await admin.slash(ch, "kapadmin house", fund=500),
        await admin.slash(ch, "kapadmin house", fund=10**9),
        await admin.slash(ch, "kapadmin grant", member=bob, amount=-(10**9)),
        await admin.slash(
            ch,
            "kapadmin config",
            ante=20,
            starting_chips=500,
            daily_amount=0,
            turn_seconds=60,
            notices="both",
            timeouts=2,
            lobby_minutes=5,
            reviews="public",
        ),
        await alice.slash(ch, "chips daily"),  # turned off
        await alice.slash(ch, "chips balance", member=bob),
        await admin.slash(ch, "kapadmin config", reset=True),
        await admin.slash(ch, "kapadmin sync"),
        await admin.slash(ch, "kapadmin endtable"),
        await bob.slash(ch, "settings", notices=False, reviews=True),
    ]
    assert replies(*results)
    assert_chinese(club)


async def test_the_demo_speaks_chinese(tmp_path: Any) -> None:
    """``kapshap demo --lang zh-TW``: a Chinese server whose members' clients speak Chinese;
    the welcome message says what to try in Chinese."""
    pytest.importorskip("markdown_it", reason="the demo needs the preview extra")
    from bot.config import Settings
    from bot.demo import CHANNELS, build_parser, demo_settings, running_demo, welcome

    assert build_parser().parse_args(["--lang", "zh-CN"]).lang == "zh-CN"
    for locale in ("zh-TW", "zh-CN"):
        assert english_in([welcome(locale)], allowed=NAMES) == []
    async with running_demo(demo_settings(Settings(), tmp_path), seed=1, locale="zh-TW") as demo:
        channel = demo.channels[CHANNELS[0]]
        assert channel.last_message.content == welcome("zh-TW")
        async with demo.lock:
            r = await demo.members["alice"].slash(channel, "table join")
        assert r.response.content == "此頻道沒有牌桌。用 `/牌桌 開桌` 開一張。"
        labels = (await demo.state(None)).text  # type: ignore[arg-type]
    assert "與夾十機器人的私訊" in json.loads(labels)["labels"]["dms"]


async def test_lobbies_variants_forfeits_and_closed_dms_in_chinese(
    env: simcord.Env, locales: dict[int, str]
) -> None:
    """The paths around a game: options refused, a Tsung Shap lobby by difference with
    variants, slash-command lobby verbs, a lobby that expires, closed DMs, a player out after
    too many timeouts, an admin ending a table."""
    club = await make_club(env, locales, "zh-TW")
    ch, admin, alice, bob, carol = club.channel, club.admin, club.alice, club.bob, club.carol
    await alice.slash(ch, "table new", game="kap-shap", settlement="difference")
    await alice.slash(ch, "table new", game="kap-shap", variant="nonsense=1")
    await alice.slash(ch, "table new", game="kap-shap", variant="rake_percent=x")
    await alice.slash(ch, "table new", game="kap-tai-shap", seats=20, sets=1)
    await alice.autocomplete(ch, "table new", "variant", "auto", game="tsung-shap")
    await alice.slash(
        ch,
        "table new",
        game="tsung-shap",
        settlement="difference",
        rate=2,
        variant="auto_capture=true four_two_value=wild",
    )
    await alice.slash(ch, "table addbot", level="casual")  # difference: no computer seats
    await bob.slash(ch, "table join")
    await bob.slash(ch, "table leave")
    await bob.slash(ch, "table start")  # not the host
    await alice.slash(ch, "table rules")
    await alice.slash(ch, "table cancel")
    # A lobby nobody starts closes by itself.
    await alice.slash(ch, "table new", game="kap-tai-shap", seats=4)
    await env.advance_time(16 * 60)
    assert club.env.bot.services.tables.get(ch.id) is None  # type: ignore[attr-defined]
    # Kap Shap with bob's DMs closed: he is mentioned at the table; both let their time run
    # out until one of them is out.
    env.inject_error(
        "POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007, times=None
    )
    await alice.slash(ch, "table new", game="kap-shap", ante=5, timer=30)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = club.table()
    await carol.slash(ch, "hand")
    await bob.slash(ch, "hand")
    for _ in range(8):
        if not table.running:
            break
        await env.advance_time(table.turn_seconds + 2)
    assert not table.running
    # An admin ends a running game: every ante refunded.
    await alice.slash(ch, "table new", game="kap-shap")
    await carol.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await carol.slash(ch, "settings", notices=False)
    await admin.slash(ch, "kapadmin endtable")
    await admin.slash(ch, "kapadmin endtable")  # nothing left to end
    await carol.slash(ch, "table show")
    assert_chinese(club)


async def test_pictures_follow_who_sees_them(
    env: simcord.Env, locales: dict[int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DM's picture is drawn in its member's language, the table's in the server's."""
    import bot.games.collecting.render.pictures as presenter

    drawn: list[tuple[str, str]] = []

    def spy(name: str) -> Any:
        real = getattr(presenter, name)

        def record(*args: Any, **kwargs: Any) -> bytes:
            drawn.append((name, kwargs.get("locale", "en")))
            return bytes(real(*args, **kwargs))

        return record

    for name in ("render_hand_view", "render_discards", "render_witness"):
        monkeypatch.setattr(presenter, name, spy(name))
    exact_deal(monkeypatch, Game.KAP_SHAP, [KS_ALICE, KS_BOB], KS_WALL, dice=(1, 1, 2, 2))
    guild = env.create_guild("Club", id=GUILD_ID)  # an English server
    ch = guild.create_text_channel("kap-shap")
    alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
    locales[bob.id] = "zh-CN"
    await env.settle()
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await env.advance_time(1)
    await alice.slash(ch, "discard", tile="5-2")
    await env.advance_time(1)
    hands = {locale for name, locale in drawn if name == "render_hand_view"}
    tables = {locale for name, locale in drawn if name == "render_discards"}
    assert hands == {"en", "zh-CN"} and tables == {"en"}


async def test_a_table_restored_after_a_restart_stays_chinese(
    env: simcord.Env,
    locales: dict[int, str],
    monkeypatch: pytest.MonkeyPatch,
    restart: Any,
) -> None:
    """The lines a restart rebuilds (recent events, timeouts, the end) are still Chinese."""
    exact_deal(monkeypatch, Game.KAP_SHAP, [KS_ALICE, KS_BOB], KS_WALL, dice=(1, 1, 2, 2))
    club = await make_club(env, locales, "zh-TW")
    ch, alice, bob = club.channel, club.alice, club.bob
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "discard", tile="5-2")
    await env.advance_time(club.table().turn_seconds + 2)  # alice's draw times out
    await restart()
    await env.advance_time(2)
    await bob.slash(ch, "hand")
    await resign(bob, ch)
    await env.advance_time(2)
    await alice.slash(ch, "table show")
    assert_chinese(club)
