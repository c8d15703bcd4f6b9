"""The schedule of an event (issue 23, docs/tournaments.md "Schedule"): ``starts:`` in the
server's time zone, the reminders at their virtual times pinging the event's role, the DMs to
the entrants who asked for them (closed DMs skipped), a restart during the wait, and the break
between rounds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import discord
import pytest
import simcord

from bot.app import KapBot
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import no_incidents  # noqa: F401  (autouse: no error logged)
from tests.discord.test_tournament_mentions import pings_of
from tests.discord.test_tournaments import (
    START,
    check_chips,
    declare_all,
    more_members,
    quick_deal,  # noqa: F401  (fixture)
    service,
)

pytestmark = pytest.mark.both_backends

# simcord's clock starts at 2026-01-01 00:00 UTC: 08:00 in Hong Kong (UTC+8, no summer time).
SIMCORD_START = datetime(2026, 1, 1, tzinfo=UTC)


async def wait(env: simcord.Env, seconds: int) -> None:
    """Let ``seconds`` pass in steps of the bot's clock (each step lets the bot settle)."""
    for _ in range(seconds // 30):
        await env.advance_time(30)
    await env.advance_time(seconds % 30 or 0.001)


def said(world: World, text: str) -> list[discord.Message]:
    return [m for m in world.channel.history() if text in m.content]


def close_dms(env: simcord.Env, member: simcord.MemberActor) -> None:
    env.inject_error(
        "POST",
        f"/channels/{member.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


async def test_starts_in_the_server_s_zone_reminds_at_its_times_and_starts_by_itself(
    world: World,
    quick_deal: None,  # noqa: F811
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    alice, bob, carol = world.members[:3]
    # The server's time zone: an unknown one is refused and changes nothing.
    r = await admin.slash(ch, "kapadmin config", time_zone="Mars/Olympus")
    assert r.ephemeral and "Unknown time zone 'Mars/Olympus'" in r.response.content
    r = await admin.slash(ch, "kapadmin config", time_zone="Asia/Hong_Kong")
    assert "Time zone of event times**: Asia/Hong_Kong" in r.response.content
    # Refusals: an unreadable time, a time already past (08:00 in Hong Kong now).
    r = await admin.slash(ch, "tournament new", name="Bad", starts="half past seven")
    assert r.ephemeral and "Could not read the time 'half past seven'" in r.response.content
    r = await admin.slash(ch, "tournament new", name="Bad", starts="tomorrow 07:00", closes_in=5)
    assert r.ephemeral and "not both" in r.response.content
    r = await admin.slash(ch, "tournament new", name="Bad", starts="today 07:59")
    assert r.ephemeral and "has already passed" in r.response.content
    assert not await service(world).choices(GUILD_ID, "")

    # 09:15 Hong Kong time = 01:15 UTC; check-in opens 5 minutes before.
    await admin.slash(
        ch, "tournament new", name="Evening Cup", buy_in=20, starts="09:15", checkin=5
    )
    starts = int(datetime(2026, 1, 1, 1, 15, tzinfo=UTC).timestamp())
    signup = ch.history()[-1]
    [field] = [f for f in signup.embeds[0].fields if f.name == "Starts"]
    assert field.value == f"<t:{starts}:F> (<t:{starts}:R>)"
    role = world.guild.create_role("Players", mentionable=True)
    r = await admin.slash(ch, "tournament schedule", role=role)
    assert r.ephemeral and f"Reminders ping: <@&{role.id}>" in r.response.content
    # The sign-up reminder pings the role, and only the role.
    [opened] = said(world, "Sign-up for **Evening Cup** is open")
    assert f"<t:{starts}:F>" in opened.content
    pings = {content: (users, roles) for content, users, roles, _ in pings_of(env)}
    assert pings[opened.content] == ([], [role.id])

    players = [alice, bob, carol, *more_members(world, ["frank"])]
    for member in players:
        await member.click(signup, label="Join")
    r = await alice.click(signup, label="Remind me")
    assert r.ephemeral and "You will get a DM" in r.response.content
    close_dms(env, bob)
    r = await bob.click(signup, label="Remind me")
    assert "You will get a DM" in r.response.content
    r = await carol.click(signup, label="Remind me")
    r = await carol.click(signup, label="Remind me")  # and off again
    assert "No more reminders by DM" in r.response.content
    r = await world.members[3].click(signup, label="Remind me")  # dave is not entered
    assert r.ephemeral and "You are not entered" in r.response.content

    # One hour before: 00:15 UTC.
    await wait(env, 14 * 60)
    assert not said(world, "**Evening Cup** starts <t:")
    await wait(env, 61)
    [hour] = said(world, "**Evening Cup** starts <t:")
    assert any(c == hour.content and r == [role.id] for c, _, r, _ in pings_of(env))
    assert [m.content for m in alice.user.dm_channel.history()] == [
        f"⏰ **Evening Cup** starts <t:{starts}:R> (<t:{starts}:F>)."
    ]
    assert bob.user.dm_channel.history() == [] and carol.user.dm_channel.history() == []
    # Ten minutes before: 01:05 UTC; check-in at 01:10.
    await wait(env, 49 * 60)
    assert len(said(world, "**Evening Cup** starts <t:")) == 1
    await wait(env, 61)
    assert len(said(world, "**Evening Cup** starts <t:")) == 2
    assert len(alice.user.dm_channel.history()) == 2
    await wait(env, 5 * 60)
    [checkin] = said(world, "Check-in for **Evening Cup** is open for")
    assert any(c == checkin.content and r == [role.id] for c, _, r, _ in pings_of(env))
    assert "Check-in" in alice.user.dm_channel.history()[-1].content
    for member in players:
        await member.click(signup, label="Check in")
    # It starts by itself at 09:15 Hong Kong time, not a moment before.
    view = await service(world).current(GUILD_ID)
    assert view.record.status == "check-in"
    await wait(env, 5 * 60 + 1)
    view = await service(world).current(GUILD_ID)
    assert view.record.status == "running"
    assert env.now() >= SIMCORD_START.replace(hour=1, minute=15)
    # Each reminder once.
    assert len(said(world, "Sign-up for **Evening Cup** is open")) == 1
    assert len(said(world, "**Evening Cup** starts <t:")) == 2
    assert len(said(world, "Check-in for **Evening Cup** is open for")) == 1
    await check_chips(world)


async def test_a_restart_during_the_wait_sends_no_reminder_twice_and_the_start_happens(
    world: World,
    quick_deal: None,  # noqa: F811
    restart: Callable[[], Awaitable[KapBot]],
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    await admin.slash(ch, "tournament new", name="Night Cup", starts="in 3h")
    signup = ch.history()[-1]
    # The organiser moves the start: the sign-up message and the reminders follow.
    r = await admin.slash(ch, "tournament edit", starts="in 1h5m")
    assert r.ephemeral and "has its new settings" in r.response.content
    at = int(env.now().timestamp()) + 65 * 60
    [field] = [f for f in ch.history()[-1].embeds[0].fields if f.name == "Starts"]
    assert field.value == f"<t:{at}:F> (<t:{at}:R>)"
    for member in world.members[:4]:
        await member.click(signup, label="Join")
    await world.members[0].click(signup, label="Remind me")
    await wait(env, 5 * 60 + 1)
    assert len(said(world, "**Night Cup** starts <t:")) == 1
    await restart()
    await wait(env, 10 * 60)
    assert len(said(world, "**Night Cup** starts <t:")) == 1, "the hour's reminder, once"
    await restart()
    await wait(env, 40 * 60)
    assert len(said(world, "**Night Cup** starts <t:")) == 2, "then the 10 minutes' one"
    await restart()
    await wait(env, 10 * 60 + 31)
    view = await service(world).current(GUILD_ID)
    assert view.record.status == "running"
    assert len(said(world, "**Night Cup** starts <t:")) == 2
    dms = [m.content for m in world.members[0].user.dm_channel.history()]
    assert sum("**Night Cup** starts <t:" in m for m in dms) == 2
    await check_chips(world)


async def test_a_break_between_rounds_waits_and_the_pairings_say_so(
    world: World,
    quick_deal: None,  # noqa: F811
    restart: Callable[[], Awaitable[KapBot]],
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    members = world.members[:3] + more_members(world, ["frank"])
    actors = {m.id: m for m in members}
    await admin.slash(
        ch, "tournament new", name="Break Cup", buy_in=10, rounds=2, no_show=0, timer=120
    )
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    # A member is not the organiser; a break and round times exclude each other; bad times.
    r = await members[0].slash(ch, "tournament schedule", break_minutes=10)
    assert r.ephemeral and "Only the organiser" in r.response.content
    r = await admin.slash(ch, "tournament schedule", break_minutes=10, round_times="19:30")
    assert r.ephemeral and "not both" in r.response.content
    r = await admin.slash(
        ch, "tournament schedule", round_times="2026-01-02 20:30, 2026-01-02 19:30"
    )
    assert r.ephemeral and "in order" in r.response.content
    # A bare time after a later one is the next day's: 23:30, then 00:30 after midnight.
    r = await admin.slash(ch, "tournament schedule", round_times="23:30, 00:30")
    first, second = (
        int(datetime(2026, 1, d, h, 30, tzinfo=UTC).timestamp()) for d, h in ((1, 23), (2, 0))
    )
    assert f"1: <t:{first}:t>, 2: <t:{second}:t>" in r.response.content
    r = await admin.slash(ch, "tournament schedule", break_minutes=10)
    assert "A break of 10 minutes between rounds" in r.response.content
    r = await admin.slash(ch, "tournament schedule")  # no option: shown, not changed
    assert "A break of 10 minutes between rounds" in r.response.content
    await admin.slash(ch, "tournament start")
    [pairings] = said(world, "**Break Cup: round 1**")
    assert "a break of 10 minutes before the next one" in pairings.content

    assert await declare_all(world, actors) == 2
    view = await service(world).current(GUILD_ID)
    assert view.event is not None and view.event.current_round is not None
    assert view.event.current_round.number == 1 and view.event.current_round.done
    [waits] = said(world, "Round 2 of **Break Cup** starts")
    when = int(env.now().timestamp()) + 600
    assert f"<t:{when}:t>" in waits.content
    await wait(env, 5 * 60)
    await restart()  # the wait survives a restart
    await wait(env, 4 * 60)
    view = await service(world).current(GUILD_ID)
    assert view.event is not None and len(view.event.rounds) == 1
    await wait(env, 61)
    view = await service(world).current(GUILD_ID)
    assert view.event is not None and len(view.event.rounds) == 2
    assert len(said(world, "**Break Cup: round 2**")) == 1
    assert len(said(world, "Round 2 of **Break Cup** starts")) == 1
    assert len(said(world, "standings after round 1")) == 1
    # The last round ends the event at once: no break before the results.
    assert await declare_all(world, actors) == 2
    view = await service(world).view(view.id)
    assert view.record.status == "finished"
    assert not said(world, "Round 3 of **Break Cup**")
    assert await world.bot.services.chips.balance(GUILD_ID, members[0].id) >= START - 10
    await check_chips(world)
