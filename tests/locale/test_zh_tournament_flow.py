"""Whole tournaments in Chinese through simcord: every text a member reads is Chinese.

A server whose language is zh-TW (and one in zh-CN), members whose Discord clients speak it:
an event is created, filled, started, paired, paused, re-paired, played to the end with its
payouts, a player drops, a round runs out of time; the standings, bracket, rules and history are
asked for. Every message the bot showed — in the channel, the match threads, the DMs, the
ephemeral answers and followups — is read, and no English word may be left in it but the
members' and the event's names (tests/locale/english.py).

Games are kept short as in tests/discord/test_tournaments.py: the first seat of each table is
dealt a winning hand and declares at once.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.services.tables import Table
from tests.discord.conftest import (  # noqa: F401  (the bot on simcord, as in tests/discord)
    GUILD_ID,
    env,
    settings,
    simcord_bot,
)
from tests.discord.tables_kit import (
    deal_every_table,
    no_incidents,  # noqa: F401  (autouse: no error logged)
)
from tests.discord.test_tournaments import quick_deal_for
from tests.locale.english import english_in

START = 1000  # the test settings' starting chips


@pytest.fixture
def quick_any(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal gives the first seat a winning hand (see tests/discord/test_tournaments.py)."""
    deal_every_table(monkeypatch, quick_deal_for)


class Server:
    """A server in one language, its members in the same, and everything the bot showed them."""

    def __init__(
        self, sim: simcord.Env, locale: str, chosen: dict[int, str], *, configured: bool = False
    ) -> None:
        """``configured``: the server's Discord locale is English, and its language is set with
        ``/kapadmin config language`` (see :meth:`configure`)."""
        self.env = sim
        self.locale = locale
        self.guild = sim.create_guild(
            "Club", id=GUILD_ID, preferred_locale="en-US" if configured else locale
        )
        self.channel = self.guild.create_text_channel("kap-shap")
        managers = self.guild.create_role(
            "Managers", permissions=discord.Permissions(manage_guild=True)
        )
        self.admin = self.guild.add_member(sim.create_user("admin"), roles=[managers])
        names = ("alice", "bob", "carol", "dave", "eve")
        self.members = [self.guild.add_member(sim.create_user(n)) for n in names]
        self.actors = {m.id: m for m in [self.admin, *self.members]}
        for member in self.actors.values():
            chosen[member.id] = locale
        self.answers: list[discord.Message | str] = []

    async def configure(self) -> None:
        """The admin sets the server's language (the answer is the admin cog's, not kept)."""
        r = await self.admin.slash(self.channel, "kapadmin config", language=self.locale)
        assert r.ephemeral

    async def run(self, actor: simcord.MemberActor, where: Any, command: str, **opts: Any) -> Any:
        """A slash command; its answer and followups are kept."""
        return self.keep(await actor.slash(where, command, **opts))

    async def click(self, actor: simcord.MemberActor, message: Any, label: str) -> Any:
        """A button click; its answer is kept."""
        return self.keep(await actor.click(message, label=label))

    def keep(self, r: Any) -> Any:
        for reply in [r.response, *r.followups]:
            if reply is None:
                continue
            if reply.message is not None:
                self.answers.append(reply.message)
            else:
                self.answers.append(reply.content or "")
        return r

    def tables(self) -> list[Table]:
        """The event's tables being played (in threads of the game channel)."""
        threads = {t.id for t in self.channel.threads}
        bot = self.env.bot
        return [
            t
            for t in bot.services.tables.tables()  # type: ignore[attr-defined]
            if t.running and t.channel_id in threads
        ]

    async def declare_all(self, limit: int | None = None) -> int:
        """The player to act at each running table declares his winning hand."""
        done = 0
        for table in self.tables():
            if limit is not None and done >= limit:
                break
            assert table.state is not None
            seat = table.seats[table.state.current]
            assert seat.user_id is not None
            [thread] = [t for t in self.channel.threads if t.id == table.channel_id]
            await self.run(self.actors[seat.user_id], thread, "declare")
            done += 1
        return done

    def everything(self) -> list[discord.Message | str]:
        """Every message the bot showed: channel, threads, DMs, answers."""
        shown: list[discord.Message | str] = list(self.channel.history())
        for thread in self.channel.threads:
            shown += thread.history()
        for member in self.actors.values():
            dm = member.user.dm_channel
            if dm is not None:
                shown += dm.history()
        return shown + self.answers

    def names(self, event: str) -> set[str]:
        """What a Chinese message may keep in Latin letters: the names."""
        return {m.user.name for m in self.actors.values()} | set(event.split())


async def _swiss_event(server: Server, event: str) -> None:
    """Sign-up to payout of a Swiss event of five members: a bye a round, a pause, a re-pairing,
    a drop, standings after each round, the results and the payout."""
    ch, admin, members = server.channel, server.admin, server.members
    await server.run(
        admin, ch, "tournament new", name=event, buy_in=50, prize_split="60/40", timer=30
    )
    signup = ch.history()[-1]
    await server.run(members[0], ch, "tournament rules")
    for member in members:
        await server.click(member, signup, "報名" if "TW" in event else "报名")
    await server.click(members[0], signup, "報名" if "TW" in event else "报名")  # twice: refused
    await server.run(members[1], ch, "tournament show")  # before the start: the sign-up embed
    await server.run(admin, ch, "tournament start")
    assert len(server.tables()) == 2  # two matches and a bye

    await server.declare_all()
    # Round 2 is paired; the organiser pairs it again before any game, pauses and resumes.
    await server.run(admin, ch, "tournament repair")
    await server.run(admin, ch, "tournament pause")
    await server.declare_all()
    await server.run(admin, ch, "tournament resume")
    # Round 3: a player drops out; his match is forfeited.
    table = server.tables()[0]
    dropper = next(s.user_id for s in table.seats if s.user_id is not None)
    await server.run(server.actors[dropper], ch, "tournament drop")
    await server.declare_all()
    await server.declare_all()

    bot = server.env.bot
    chips = bot.services.chips  # type: ignore[attr-defined]
    total = sum([await chips.balance(GUILD_ID, m.id) for m in members])
    assert total == 5 * START
    await server.run(members[2], ch, "tournament show", event=1)
    await server.run(members[2], ch, "tournament history")
    await server.run(members[2], ch, "tournament rules", event=1)


async def _knockout_event(server: Server, event: str) -> None:
    """A single-elimination event of four with a computer filler; one round runs out of time."""
    ch, admin, members = server.channel, server.admin, server.members
    await server.run(
        admin,
        ch,
        "tournament new",
        name=event,
        format="single-elimination",
        buy_in=20,
        round_minutes=5,
        timer=600,
    )
    signup = ch.history()[-1]
    for member in members[:3]:
        await server.click(member, signup, "報名" if "TW" in event else "报名")
    await server.run(admin, ch, "tournament fill", count=1)
    await server.run(admin, ch, "tournament start")
    # Semi-finals: nobody moves at one table, and the round's time runs out.
    await server.declare_all(limit=1)
    await server.env.advance_time(5 * 60 + 31)
    for _ in range(4):
        await server.declare_all()
    await server.run(members[0], ch, "tournament show", event=2)


def _simplified(text: str) -> str:
    """The few phrases the test looks for, in Simplified script."""
    table = str.maketrans("報資決賽兩對", "报资决赛两对")
    return text.translate(table)


async def _short_events(server: Server, join: str, check_in: str) -> None:
    """A check-in that drops who does not check in, a refusal to start, a disqualification, a
    cancel; a table-rounds event of Kap Tai Shap with a final table."""
    ch, admin, members = server.channel, server.admin, server.members
    await server.run(admin, ch, "tournament new", name="Third", buy_in=10, checkin=5)
    signup = ch.history()[-1]
    await server.click(members[0], signup, join)
    await server.run(admin, ch, "tournament start", event=3)  # opens the check-in
    signup = next(m for m in ch.history() if m.id == signup.id)
    await server.click(members[0], signup, check_in)
    await server.run(admin, ch, "tournament start", event=3)  # one player: refused
    await server.run(admin, ch, "tournament cancel", event=3)

    await server.run(admin, ch, "tournament new", name="Fourth")
    signup = ch.history()[-1]
    for member in members[:3]:
        await server.click(member, signup, join)
    await server.run(admin, ch, "tournament fill", count=1, level="random")
    await server.run(admin, ch, "tournament start", event=4)
    await server.run(admin, ch, "tournament disqualify", member=members[0], event=4)
    await server.run(admin, ch, "tournament cancel", event=4)

    await server.run(
        admin,
        ch,
        "tournament new",
        name="Fifth",
        game="kap-tai-shap",
        rounds=1,
        games_per_table=1,
        final_table=3,
        timer=600,
    )
    signup = ch.history()[-1]
    for member in members:
        await server.click(member, signup, join)
    await server.run(admin, ch, "tournament start", event=5)
    for _ in range(4):
        await server.declare_all()
    await server.run(members[1], ch, "tournament show", event=5)
    await server.run(members[1], ch, "tournament rules", event=5)


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
async def test_a_chinese_server_reads_its_tournaments_in_chinese(
    env: simcord.Env,  # noqa: F811  (the fixtures imported above)
    locales: dict[int, str],
    quick_any: None,
    locale: str,
) -> None:
    # The zh-TW server chose its language with /kapadmin config; the zh-CN one is in Chinese
    # on Discord itself.
    server = Server(env, locale, locales, configured=locale == "zh-TW")
    await env.settle()
    if locale == "zh-TW":
        await server.configure()
    swiss = f"Spring {locale[-2:]}"
    knockout = f"Cup {locale[-2:]}"
    await _swiss_event(server, swiss)
    await _knockout_event(server, knockout)
    if locale == "zh-TW":
        await _short_events(server, "報名", "報到")
    else:
        await _short_events(server, "报名", "报到")

    shown = server.everything()
    texts = "\n".join(
        m if isinstance(m, str) else m.content + "".join(e.description or "" for e in m.embeds)
        for m in shown
    )
    # The flow happened: pairings, byes, standings, results, payouts, a time limit, a drop.
    for phrase in ("瑞士制", "第 1 輪" if locale == "zh-TW" else "第 1 轮"):
        assert phrase in texts, phrase
    assert ("輪空" if locale == "zh-TW" else "轮空") in texts
    assert ("最終成績" if locale == "zh-TW" else "最终成绩") in texts
    assert ("時間已用完" if locale == "zh-TW" else "时间已用完") in texts
    for phrase in ("報到", "取消資格", "已取消", "決賽桌", "最少要有兩名玩家"):
        assert (phrase if locale == "zh-TW" else _simplified(phrase)) in texts, phrase
    names = [swiss, knockout, "Third", "Fourth", "Fifth"]
    allowed = set().union(*(server.names(n) for n in names))
    problems = english_in(shown, allowed=allowed)
    assert problems == [], "\n".join(problems)
