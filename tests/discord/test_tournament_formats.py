"""Issue 23's formats through simcord: a group stage into a bracket with a third-place match,
played by members and computer players to the payouts (a restart between the group stage and
the bracket), and the organiser's ``third_place``, ``groups`` and ``grand_final_reset``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
import simcord

from bot.app import KapBot
from bot.tournament import Format
from bot.tournament.event import GROUP_STAGE
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import no_incidents, resign  # noqa: F401  (autouse)
from tests.discord.test_tournaments import (
    START,
    check_chips,
    quick_any,  # noqa: F401  (a fixture: the first seat holds a winning hand)
    running_tables,
    service,
    thread_of,
)

pytestmark = pytest.mark.both_backends


async def play_a_turn(world: World, actors: dict[int, simcord.MemberActor]) -> bool:
    """At every running table whose player to act is a member: the first seat (dealt a
    winning hand) declares it, anyone else resigns. Whether a member acted."""
    acted = False
    for table in running_tables(world):
        assert table.state is not None
        seat = table.seats[table.state.current]
        if seat.user_id not in actors:
            continue
        member, thread = actors[seat.user_id], thread_of(world, table)
        if table.state.current == 0:
            r = await member.slash(thread, "declare")
            assert "You declared a winning hand" in r.response.content, r.response.content
        else:
            await resign(member, thread)
        acted = True
    return acted


async def test_a_group_stage_into_a_bracket_with_computers_to_the_payouts(
    world: World,
    quick_any: None,  # noqa: F811
    restart: Callable[[], Awaitable[KapBot]],
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    members = world.members[:3]
    actors = {m.id: m for m in members}
    r = await admin.slash(
        ch,
        "tournament new",
        name="Groups Cup",
        format="single-elimination",
        buy_in=20,
        prize_split="50/30/20",
        timer=30,
        third_place=True,
        groups=3,
    )
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament fill", count=3, level="random")
    # The rules say how the groups and the third-place match work.
    r = await members[0].slash(ch, "tournament rules")
    assert "Group stage first" in r.response.content and "third place" in r.response.content
    await admin.slash(ch, "tournament start")
    tournaments = service(world)
    view = await tournaments.current(GUILD_ID)
    assert view.event is not None and [len(g) for g in view.event.groups()] == [3, 3]

    restarted = False
    for _ in range(80):
        view = await tournaments.view(view.id)
        assert view.event is not None
        if view.record.status == "finished":
            break
        rnd = view.event.current_round
        if not restarted and rnd is not None and rnd.phase == "bracket":
            # Between the stages: the groups are over, the bracket is paired. The bot restarts
            # and carries on with the same bracket.
            cut = list(view.event.cut)
            r = await members[0].slash(ch, "tournament show")
            assert [a.filename for a in r.response.attachments] == ["standings.png", "bracket.png"]
            await restart()
            tournaments = service(world)
            view = await tournaments.view(view.id)
            assert view.event is not None and view.event.cut == cut
            restarted = True
        if not await play_a_turn(world, actors):
            await env.advance_time(31)
    else:
        raise AssertionError("the event did not end")
    assert restarted
    event = view.event
    phases = [r.phase for r in event.rounds]
    assert phases[:3] == [GROUP_STAGE] * 3 and set(phases[3:]) == {"bracket"}
    assert len(event.cut) == 4
    last = [m.id for m in event.rounds[-1].matches]
    assert sorted(last) == ["3P", "W2-1"]
    ranking = event.ranking()
    assert sorted(ranking) == sorted(p.id for p in event.players)
    assert set(ranking[:4]) == set(event.cut)
    # The pool (60) goes to the best-placed members; computers win nothing.
    chips = world.bot.services.chips
    paid = {m.id: await chips.balance(GUILD_ID, m.id) - (START - 20) for m in members}
    assert sum(paid.values()) == 60
    assert sorted(paid.values(), reverse=True) == [30, 18, 12]
    await check_chips(world)
    results = [m for m in ch.history() if "is over" in m.content]
    assert results


async def test_the_organiser_sets_the_formats_with_new_and_edit(world: World) -> None:
    ch, admin = world.channel, world.admin
    alice = world.members[0]
    await admin.slash(ch, "tournament new", name="Double", format="double-elimination")
    tournaments = service(world)
    view = await tournaments.current(GUILD_ID)
    assert view.settings.grand_final_reset and view.settings.groups == 0
    r = await alice.slash(ch, "tournament rules")
    assert "a second final decides" in r.response.content

    # The grand-final reset is switched off (edit only), and groups of four are added.
    r = await admin.slash(ch, "tournament edit", grand_final_reset=False, groups=4)
    assert r.ephemeral, r.response.content
    view = await tournaments.view(view.id)
    assert not view.settings.grand_final_reset and view.settings.groups == 4
    r = await alice.slash(ch, "tournament rules")
    assert "losers' champion, one match" in r.response.content
    assert "groups of at most 4 players" in r.response.content
    signup = ch.history()[0]
    assert "one match" in (signup.embeds[0].description or "")
    # A member may not edit; a third-place match is refused for double elimination, and the
    # refusal changes nothing.
    r = await alice.slash(ch, "tournament edit", third_place=True)
    assert r.ephemeral and "organiser" in r.response.content
    r = await admin.slash(ch, "tournament edit", third_place=True)
    assert r.ephemeral and "third-place match is for single elimination" in r.response.content
    r = await admin.slash(ch, "tournament edit", format="single-elimination", third_place=True)
    view = await tournaments.view(view.id)
    assert view.settings.format is Format.SINGLE_ELIMINATION and view.settings.third_place
    assert view.settings.groups == 4, "the options not given stay"
    # Groups are for elimination events only.
    r = await admin.slash(ch, "tournament new", name="Swiss groups", groups=4)
    assert r.ephemeral and "Groups of 3 to 8 players" in r.response.content


async def test_edit_keeps_the_no_show_settings_it_is_not_given(world: World) -> None:
    ch, admin = world.channel, world.admin
    await admin.slash(
        ch, "tournament new", name="Patient", format="single-elimination", no_show=0, no_shows=3
    )
    await admin.slash(ch, "tournament edit", third_place=True)
    view = await service(world).current(GUILD_ID)
    assert view.settings.third_place
    assert (view.settings.no_show_minutes, view.settings.no_show_limit) == (0, 3)
