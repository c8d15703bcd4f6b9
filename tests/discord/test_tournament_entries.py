"""Late registration and the waitlist (issue 23), as members and an organiser use them.

A Swiss event of four takes a fifth member after round 1 (through `/tournament join`, the Join
button staying on the sign-up message meanwhile): he pays the same buy-in into the pot, is
paired from round 2, his missed round scores 0, and every chip is accounted for to the payout.
Late entry is refused after its round and in an elimination event. A full event puts members on
a waitlist (nothing paid) that moves up when a seat frees before the start: by a leave, by the
organiser's remove, by `edit` raising the seats — the last after a restart.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
import pytest

from bot.app import KapBot
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
)
from tests.discord.test_tournaments import (
    START,
    check_chips,
    declare_all,
    more_members,
    quick_any,  # noqa: F401  (fixture)
    running_tables,
    service,
)

pytestmark = pytest.mark.both_backends


def buttons(message: discord.Message) -> list[str]:
    """The labels of a message's buttons."""
    return [
        str(getattr(child, "label", ""))
        for row in message.components
        for child in getattr(row, "children", [])
    ]


async def test_a_late_entrant_after_round_1_plays_from_round_2(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob, carol, dave, eve = world.members
    [frank] = more_members(world, ["frank"])
    actors = {m.id: m for m in (*world.members, frank)}
    chips = world.bot.services.chips
    r = await admin.slash(
        ch, "tournament new", name="Late Swiss", rounds=3, late_until=2, buy_in=20
    )
    signup = ch.history()[-1]
    for member in (alice, bob, carol, dave):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    assert len(running_tables(world)) == 2
    # Late entry is open: the Join button stays on the sign-up message, and the rules say so.
    signup = next(m for m in ch.history() if m.id == signup.id)
    assert buttons(signup) == ["Join"]
    r = await eve.slash(ch, "tournament rules")
    assert "Late entry" in r.response.content and "scores 0" in r.response.content

    # Eve joins during round 1: the buy-in goes into the pot; she waits for round 2.
    r = await eve.slash(ch, "tournament join")
    assert r.ephemeral and "You are in **Late Swiss**" in r.response.content
    assert await chips.balance(GUILD_ID, eve.id) == START - 20
    view = await service(world).current(GUILD_ID)
    assert view.pool == 100 and view.event is not None and view.event.late == {eve.id: 2}
    assert any(
        "eve joins **Late Swiss** late: paired from round 2" in m.content for m in ch.history()
    )
    assert all(eve.id not in {s.user_id for s in t.seats} for t in running_tables(world))
    r = await eve.slash(ch, "tournament join", event=view.id)
    assert r.ephemeral and "already entered" in r.response.content
    await check_chips(world)

    # Round 1 ends; round 2 pairs five players: Eve plays or has the bye.
    assert await declare_all(world, actors) == 2
    view = await service(world).view(view.id)
    assert view.event is not None and view.event.current_round is not None
    rnd2 = view.event.current_round
    assert rnd2.number == 2 and any(eve.id in m.players for m in rnd2.matches)
    # Round 2 is the last a member may join in: now it is closed, and the button is gone.
    signup = next(m for m in ch.history() if m.id == signup.id)
    assert buttons(signup) == []
    r = await frank.slash(ch, "tournament join", event=view.id)
    assert r.ephemeral and "closed with round 2" in r.response.content
    assert await chips.balance(GUILD_ID, frank.id) == START

    # To the end: Eve's missed round scored 0; the pot (five buy-ins) is paid out exactly.
    for _ in range(6):
        if not running_tables(world):
            break
        await declare_all(world, actors)
    view = await service(world).view(view.id)
    assert view.record.status == "finished" and view.event is not None
    [row] = [r for r in view.event.pair_standings() if r.player == eve.id]
    assert row.missed == 1
    assert row.wins + row.draws + row.losses == 2, "rounds 2 and 3 only"
    players = (alice, bob, carol, dave, eve)
    paid = sum([await chips.balance(GUILD_ID, m.id) for m in players]) - 5 * (START - 20)
    assert paid == 100
    await check_chips(world)


async def test_late_entry_is_refused_in_an_elimination_event(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob, carol, dave, eve = world.members
    r = await admin.slash(
        ch, "tournament new", name="Cup", format="single-elimination", late_until=2
    )
    assert r.ephemeral and "Late entry is only for Swiss events" in r.response.content
    await admin.slash(ch, "tournament new", name="Cup", format="single-elimination", buy_in=10)
    signup = ch.history()[-1]
    for member in (alice, bob, carol, dave):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    r = await eve.slash(ch, "tournament join")
    assert r.ephemeral and "takes no entries after its start" in r.response.content
    assert await world.bot.services.chips.balance(GUILD_ID, eve.id) == START
    await check_chips(world)


async def test_a_full_event_has_a_waitlist_promoted_in_order(
    world: World,
    quick_any: None,  # noqa: F811
    restart: Callable[[], Awaitable[KapBot]],
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    alice, bob, carol, dave, eve = world.members
    await admin.slash(ch, "tournament new", name="Tiny", seats=2, buy_in=30, no_show=3)
    signup = ch.history()[-1]
    for member in (alice, bob):
        await member.click(signup, label="Join")
    # Full: Join puts Carol, then Dave, on the waitlist; nothing is paid yet.
    r = await carol.click(signup, label="Join")
    assert r.ephemeral and "number 1 on its waitlist" in r.response.content
    r = await dave.slash(ch, "tournament join")
    assert r.ephemeral and "number 2 on its waitlist" in r.response.content
    r = await dave.click(signup, label="Join")
    assert r.ephemeral and "already on the waitlist" in r.response.content
    chips = world.bot.services.chips
    assert await chips.balance(GUILD_ID, carol.id) == START
    signup = next(m for m in ch.history() if m.id == signup.id)
    assert "Waitlist (2)" in message_text(signup)
    assert "1. carol, 2. dave" in message_text(signup)
    # Leaving the waitlist (the command finds the event he waits for).
    r = await dave.slash(ch, "tournament leave")
    assert r.ephemeral and "You left **Tiny**" in r.response.content
    await dave.click(signup, label="Join")
    await check_chips(world)

    # Alice leaves: Carol, first in line, takes her seat in the same commit and is told.
    await alice.click(signup, label="Leave")
    tournaments = service(world)
    view = await tournaments.current(GUILD_ID)
    assert [e.user_id for e in view.entries] == [bob.id, carol.id]
    assert view.waitlist == [(dave.id, "dave")] and view.pool == 60
    assert await chips.balance(GUILD_ID, carol.id) == START - 30
    [dm] = carol.user.dm_channel.history()
    assert "A seat came free in **Tiny**" in dm.content and "30 chips" in dm.content
    await check_chips(world)

    # The organiser removes Bob: Dave moves up.
    await admin.slash(ch, "tournament remove", member=bob)
    view = await tournaments.current(GUILD_ID)
    assert [e.user_id for e in view.entries] == [carol.id, dave.id] and not view.waitlist
    assert await chips.balance(GUILD_ID, dave.id) == START - 30
    assert any("A seat came free" in m.content for m in dave.user.dm_channel.history())
    await check_chips(world)

    # Eve waits through a restart; then the organiser raises the seats and she is in.
    r = await eve.click(signup, label="Join")
    assert "number 1 on its waitlist" in r.response.content
    await restart()
    assert isinstance(env.bot, KapBot)
    tournaments = service(world)
    assert (await tournaments.current(GUILD_ID)).waitlist == [(eve.id, "eve")]
    await admin.slash(ch, "tournament edit", seats=3)
    view = await tournaments.current(GUILD_ID)
    assert [e.user_id for e in view.entries] == [carol.id, dave.id, eve.id] and view.pool == 90
    # The options `edit` was not given stay as they were (the no-show window too).
    assert view.settings.no_show_minutes == 3
    chips = world.bot.services.chips
    assert await chips.balance(GUILD_ID, eve.id) == START - 30
    await check_chips(world)
    # Everyone still in plays: the event starts with the three.
    await admin.slash(ch, "tournament start")
    assert running_tables(world)
    await check_chips(world)


async def test_a_check_in_drop_promotes_the_first_waiting(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    alice, bob, carol = world.members[:3]
    chips = world.bot.services.chips
    await admin.slash(ch, "tournament new", name="Checked", seats=2, buy_in=40, checkin=10)
    signup = ch.history()[-1]
    for member in (alice, bob, carol):
        await member.click(signup, label="Join")
    assert await chips.balance(GUILD_ID, carol.id) == START, "waiting: nothing paid"
    await admin.slash(ch, "tournament start")
    signup = next(m for m in ch.history() if m.id == signup.id)
    await alice.click(signup, label="Check in")
    # Check-in closes: Bob is dropped and refunded, Carol takes his seat in that commit (she
    # asked to play by joining: no second check-in) and the event starts with her.
    await env.advance_time(10 * 60 + 31)
    assert await chips.balance(GUILD_ID, bob.id) == START
    assert await chips.balance(GUILD_ID, carol.id) == START - 40
    assert any(
        "A seat came free in **Checked**" in m.content for m in carol.user.dm_channel.history()
    )
    [table] = running_tables(world)
    assert {s.user_id for s in table.seats} == {alice.id, carol.id}
    await check_chips(world)


async def test_a_member_waiting_who_cannot_pay_is_passed_over(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob, carol, dave = world.members[:4]
    chips = world.bot.services.chips
    await admin.slash(ch, "tournament new", name="Dear", seats=2, buy_in=300)
    signup = ch.history()[-1]
    for member in (alice, bob, carol, dave):
        await member.click(signup, label="Join")
    # Carol, first in line, gives most of her chips away while she waits.
    await carol.slash(ch, "chips give", member=world.members[4], amount=START - 100)
    await alice.click(signup, label="Leave")
    view = await service(world).current(GUILD_ID)
    assert [e.user_id for e in view.entries] == [bob.id, dave.id] and not view.waitlist
    assert await chips.balance(GUILD_ID, carol.id) == 100, "nothing taken"
    assert await chips.balance(GUILD_ID, dave.id) == START - 300
    [dm] = carol.user.dm_channel.history()
    assert "could not pay the buy-in" in dm.content and "you have 100" in dm.content
    await check_chips(world)
