"""The arena through simcord (issue 23, docs/tournaments.md "Arena"): members and a computer
player, finishers paired again at once, a late entry, a leave and a return, a restart in the
middle, the end on time with a game still in play, the payout and the chips."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.app import KapBot
from bot.tournament import Event, Format
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import no_incidents  # noqa: F401  (autouse: no error logged)
from tests.discord.test_tournaments import (
    START,
    check_chips,
    more_members,
    quick_any,  # noqa: F401  (fixture)
    running_tables,
    service,
    thread_of,
)

pytestmark = pytest.mark.both_backends


async def event_of(world: World, tournament_id: int) -> Event:
    view = await service(world).view(tournament_id)
    assert view.event is not None
    return view.event


async def declare_at(world: World, actors: dict[int, object], player: int) -> None:
    """``player``'s table: the member to act (the first seat, dealt a winning hand) declares."""
    [table] = [t for t in running_tables(world) if any(s.user_id == player for s in t.seats)]
    assert table.state is not None
    seat = table.seats[table.state.current]
    assert seat.user_id is not None
    r = await actors[seat.user_id].slash(thread_of(world, table), "declare")  # type: ignore[attr-defined]
    assert "You declared a winning hand" in r.response.content, r.response.content


async def test_an_arena_pairs_finishers_takes_late_entries_ends_on_time_and_pays(
    world: World,
    quick_any: None,  # noqa: F811
    restart: Callable[[], Awaitable[KapBot]],
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    members = world.members[:3] + more_members(world, ["frank"])
    actors: dict[int, object] = {m.id: m for m in members}
    r = await admin.slash(
        ch,
        "tournament new",
        name="Friday Arena",
        format="arena",
        buy_in=20,
        prize_split="70/30",
        timer=60,
        no_show=0,
        arena_minutes=20,
    )
    assert "Friday Arena" in r.response.content
    signup = ch.history()[-1]
    # The organiser changes its length before the start; an arena of best-of-3 matches is
    # refused, privately, and changes nothing.
    r = await admin.slash(ch, "tournament edit", arena_minutes=30)
    assert r.ephemeral
    r = await admin.slash(ch, "tournament edit", best_of=3)
    assert r.ephemeral and "one game each" in r.response.content
    for member in members[:3]:
        r = await member.click(signup, label="Join")
        assert "You are in" in r.response.content
    await admin.slash(ch, "tournament fill", count=1, level="greedy")
    tournaments = service(world)
    view = await tournaments.current(GUILD_ID)
    assert view.settings.format is Format.ARENA and view.settings.arena_minutes == 30
    assert view.settings.best_of == 1
    assert view.settings.no_show_minutes == 0  # an edit keeps the options it was not given
    await admin.slash(ch, "tournament start")

    # The start pairs everyone: two games of one game each, each in its own thread.
    event = await event_of(world, view.id)
    rnd = event.current_round
    assert rnd is not None and rnd.phase == "arena"
    assert [m.id for m in rnd.matches] == ["A1", "A2"]
    assert len(running_tables(world)) == 2
    computer = next(p for p in event.seeds if p < 0)
    humans_match = next(m for m in rnd.matches if computer not in m.players)

    # A late entry pays the buy-in and waits for the next finisher.
    r = await members[3].slash(ch, "tournament join")
    assert r.ephemeral and "You are in" in r.response.content
    assert await world.bot.services.chips.balance(GUILD_ID, members[3].id) == START - 20
    assert any("joined the arena" in m.content for m in ch.history())
    assert (await event_of(world, view.id)).free_players() == [members[3].id]

    # The members' game ends: the winner and the loser are free with frank; frank (waiting
    # longest) plays the nearest score, the loser (0 points); the winner waits.
    winner = humans_match.players[0]
    loser = humans_match.players[1]
    await declare_at(world, actors, winner)
    event = await event_of(world, view.id)
    _, done = event.find(humans_match.id)
    assert done.result is not None and done.result.winner == winner
    new = event.find("A3")[1]
    assert new.players == (members[3].id, loser) and not new.done
    assert event.free_players() == [winner]
    assert len(running_tables(world)) == 2

    # The winner leaves (results stand; not paired again), then comes back.
    r = await actors[winner].slash(ch, "tournament drop")  # type: ignore[attr-defined]
    assert r.ephemeral
    event = await event_of(world, view.id)
    assert winner in event.withdrawn and event.free_players() == []
    r = await actors[winner].slash(ch, "tournament join")  # type: ignore[attr-defined]
    assert r.ephemeral
    assert any("is back in the arena" in m.content for m in ch.history())
    assert await world.bot.services.chips.balance(GUILD_ID, winner) == START - 20  # paid once
    event = await event_of(world, view.id)
    assert winner not in event.withdrawn
    assert event.arena_standings()[0].player == winner  # 2 points kept

    # The bot restarts mid-arena: games in play go on, the clock's end still holds.
    await restart()
    tournaments = service(world)
    assert len(running_tables(world)) == 2
    await declare_at(world, actors, members[3].id)  # A3's first seat: frank
    event = await event_of(world, view.id)
    # frank and the loser finish: the winner (waiting) is paired at once with one of them.
    assert any(winner in m.players for m in event.open_matches())

    # Time passes beyond the arena's 30 minutes: nobody is paired again; the games in play
    # finish (here by the turn timers) and count, then the arena pays out.
    for _ in range(40):
        await env.advance_time(60)
        if any("Time is up in the arena" in m.content for m in ch.history()):
            break
    event = await event_of(world, view.id)
    assert event.closing and event.open_matches()  # a game is still in play at the end
    assert (await tournaments.view(view.id)).record.status == "running"
    paired = len(event.rounds[0].matches)
    for _ in range(20):
        await env.advance_time(60)
        if (await tournaments.view(view.id)).record.status == "finished":
            break
    view = await tournaments.view(view.id)
    assert view.record.status == "finished"
    event = await event_of(world, view.id)
    # The games in play counted; nothing was paired after the end.
    assert not event.open_matches() and len(event.rounds[0].matches) == paired
    results = [m for m in ch.history() if "is over" in m.content]
    assert results and results[-1].attachments
    # 4 members × 20 = 80: 56 / 24 to the top two members (the computer wins nothing).
    chips = world.bot.services.chips
    paid = sorted(
        [await chips.balance(GUILD_ID, m.id) - (START - 20) for m in members], reverse=True
    )
    assert paid[:2] == [56, 24] and sum(paid) == 80
    await check_chips(world)
    r = await members[1].slash(ch, "tournament rules", event=view.id)
    assert "arena for 30 minutes" in r.response.content
