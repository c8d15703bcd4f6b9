"""No-shows in a tournament (issue 23, docs/tournaments.md §3): the window at a match's start,
the Ready button, the forfeit without waiting out turn timers, the withdrawal after the set
number of no-shows, a restart during the window, and the chips."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
import pytest
import simcord

from bot.app import KapBot
from bot.services.tables import Table
from bot.tournament import Event, How
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import no_incidents  # noqa: F401  (autouse: no error logged)
from tests.discord.test_tournaments import (
    START,
    check_chips,
    more_members,
    quick_deal,  # noqa: F401  (fixture)
    running_tables,
    service,
    thread_of,
)

pytestmark = pytest.mark.both_backends


async def four_member_event(world: World, **options: object) -> tuple[int, dict[int, object]]:
    """A Swiss event of four members with a buy-in of 50, started: its id."""
    ch, admin = world.channel, world.admin
    members = world.members[:3] + more_members(world, ["frank"])
    await admin.slash(
        ch, "tournament new", name="No Show Cup", buy_in=50, timer=120, rounds=2, **options
    )
    signup = ch.history()[-1]
    for member in members:
        r = await member.click(signup, label="Join")
        assert "You are in" in r.response.content
    await admin.slash(ch, "tournament start")
    view = await service(world).current(GUILD_ID)
    assert view.record.status == "running"
    return view.id, {m.id: m for m in members}


async def wait(env: simcord.Env, seconds: int) -> None:
    """Let ``seconds`` pass in steps of the bot's clock (each step lets the bot settle)."""
    for _ in range(seconds // 30):
        await env.advance_time(30)
    await env.advance_time(seconds % 30 or 0.001)


def ready_post(thread: simcord.ChannelHandle) -> discord.Message:
    [post] = [m for m in thread.history() if "press **Ready**" in m.content]
    return post


async def event_of(world: World, tournament_id: int) -> Event:
    view = await service(world).view(tournament_id)
    assert view.event is not None
    return view.event


def table_of(world: World, player: int) -> Table:
    [table] = [t for t in running_tables(world) if any(s.user_id == player for s in t.seats)]
    return table


async def test_a_no_show_loses_by_forfeit_at_once_and_is_withdrawn(
    world: World,
    quick_deal: None,  # noqa: F811
) -> None:
    env, ch = world.env, world.channel
    tid, actors = await four_member_event(world)
    event = await event_of(world, tid)
    first, second = event.open_matches()
    # Match one is played out at once: its first seat declares.
    table = table_of(world, first.players[0])
    seat = table.seats[table.state.current] if table.state else None
    assert seat is not None and seat.user_id is not None
    await actors[seat.user_id].slash(thread_of(world, table), "declare")  # type: ignore[attr-defined]
    # Match two: the player not to act presses Ready, the other never shows.
    table = table_of(world, second.players[0])
    assert table.state is not None
    absent = table.seats[table.state.current].user_id
    assert absent is not None
    here = next(p for p in second.players if p != absent)
    thread = thread_of(world, table)
    r = await actors[here].click(ready_post(thread), label="Ready")  # type: ignore[attr-defined]
    assert r.ephemeral and "You are ready" in r.response.content
    # Someone not in a match with a window is refused, privately.
    r = await world.admin.click(ready_post(thread), label="Ready")
    assert r.ephemeral and "no match waiting" in r.response.content

    await wait(env, 4 * 60)
    assert (await event_of(world, tid)).current_round.number == 1  # type: ignore[union-attr]
    await wait(env, 61 + 30)
    event = await event_of(world, tid)
    _, decided = event.find(second.id)
    assert decided.result is not None
    assert (decided.result.winner, decided.result.how) == (here, How.FORFEIT)
    # Decided by the window, not by three turn timers of the absent player.
    assert not any("ran out of time (3/3)" in m.content for m in thread.history())
    assert absent in event.withdrawn
    said = [m.content for m in ch.history()]
    assert sum("did not show up" in m for m in said) == 1
    assert any("withdrawn" in m and "1 no-shows" in m for m in said)
    # Round 2 pairs the three left (one bye); the absent player is not paired, the one who
    # showed up is.
    rnd = event.current_round
    assert rnd is not None and rnd.number == 2
    paired = {p for m in rnd.matches for p in m.players}
    assert absent not in paired and here in paired
    # No refund after the start: his buy-in stays in the pool.
    assert await world.bot.services.chips.balance(GUILD_ID, absent) == START - 50
    await check_chips(world)


async def test_a_window_of_zero_minutes_is_no_window(
    world: World,
    quick_deal: None,  # noqa: F811
) -> None:
    env = world.env
    tid, _ = await four_member_event(world, no_show=0)
    assert not any(
        "press **Ready**" in m.content for t in world.channel.threads for m in t.history()
    )
    await wait(env, 5 * 60 + 31)
    event = await event_of(world, tid)
    assert not event.withdrawn and not event.no_shows, "no window: nothing fires"
    await check_chips(world)


async def test_a_restart_during_the_window_still_fires_it_once(
    world: World,
    quick_deal: None,  # noqa: F811
    restart: Callable[[], Awaitable[KapBot]],
) -> None:
    env, ch = world.env, world.channel
    tid, _ = await four_member_event(world, no_shows=2)
    await wait(env, 2 * 60)
    await restart()
    event = await event_of(world, tid)
    assert event.current_round is not None and event.current_round.number == 1
    assert not event.no_shows
    await wait(env, 3 * 60 + 31)
    event = await event_of(world, tid)
    said = [m.content for m in ch.history()]
    # Nobody acted or pressed Ready: in each match the player to act timed out and the other
    # never had a turn he played himself, so both matches are double no-shows.
    assert sum("Neither player showed up" in m for m in said) == 2
    assert all(n == 1 for n in event.no_shows.values()) and len(event.no_shows) == 4
    assert not event.withdrawn, "two no-shows in a row withdraw; this is the first"
    await check_chips(world)


async def test_a_player_who_played_and_then_timed_out_showed_up(
    world: World,
    quick_deal: None,  # noqa: F811
) -> None:
    """A turn he played himself shows he is here, whatever the timer did after it: his seat's
    count of timeouts in a row (1 here) no longer hides his own turn."""
    env = world.env
    tid, actors = await four_member_event(world)
    event = await event_of(world, tid)
    match = event.open_matches()[1]
    table = table_of(world, match.players[0])
    assert table.state is not None
    first = table.seats[table.state.current].user_id
    assert first is not None
    other = next(p for p in match.players if p != first)
    thread = thread_of(world, table)
    # He plays his first turn himself; the other presses Ready and lets his turn time out.
    await actors[first].slash(thread, "draw")  # type: ignore[attr-defined]
    legal = [a for a in table.legal() if str(a).startswith("discard")]
    await actors[first].slash(thread, "discard", tile=str(legal[0]).split()[1])  # type: ignore[attr-defined]
    await actors[other].click(ready_post(thread), label="Ready")  # type: ignore[attr-defined]
    await wait(env, 2 * 60 + 31)  # the other's turn is played by the timer
    await wait(env, 2 * 60)  # then his: one timeout on his seat's record
    first_seat = next(i for i, s in enumerate(table.seats) if s.user_id == first)
    assert table.timeouts.get(first_seat) == 1
    await wait(env, 31)  # the window (5 minutes) has passed
    event = await event_of(world, tid)
    _, decided = event.find(match.id)
    assert decided.result is None or decided.result.how is not How.FORFEIT
    # (Nobody acted in the other match: a double no-show there, not our concern.)
    assert first not in event.no_shows and first not in event.withdrawn
    assert not any(
        f"{match.id}" in m.content and "show" in m.content for m in world.channel.history()
    )
    await check_chips(world)
