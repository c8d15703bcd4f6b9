"""A tournament and the server's managers: the organiser role set by ``/kapadmin config``,
``/kapadmin endtable`` on a match's table (the game is replayed at once), and no Rematch button
at the end of a tournament game (docs/tournaments.md)."""

from __future__ import annotations

import pytest
import simcord

from bot.services.tables import Table
from tests.discord.conftest import World
from tests.discord.tables_kit import message_text
from tests.discord.test_tournaments import (  # noqa: F401  (fixtures)
    declare_all,
    no_incidents,
    quick_deal,
    running_tables,
    service,
)


async def test_the_organiser_role_is_set_shown_and_reset_by_kapadmin_config(
    world: World,
) -> None:
    ch, admin = world.channel, world.admin
    organisers = world.guild.create_role("Organisers")
    carol = world.guild.add_member(world.env.create_user("carol"), roles=[organisers])

    r = await carol.slash(ch, "tournament new", name="Too soon")
    assert r.ephemeral and "organiser role" in r.response.content

    r = await admin.slash(ch, "kapadmin config", organiser_role=organisers)
    assert r.ephemeral
    assert f"Tournament organisers**: <@&{organisers.id}> and server managers" in (
        r.response.content
    )
    r = await carol.slash(ch, "tournament new", name="Carol's Cup")
    assert "Carol's Cup" in r.response.content and not r.ephemeral

    # The summary alone shows it; a reset clears it with the other settings.
    r = await admin.slash(ch, "kapadmin config")
    assert f"<@&{organisers.id}>" in r.response.content
    r = await admin.slash(ch, "kapadmin config", reset=True)
    assert "Tournament organisers**: server managers" in r.response.content
    r = await carol.slash(ch, "tournament new", name="Again")
    assert r.ephemeral and "organiser role" in r.response.content


def _thread(world: World, table: Table) -> simcord.ChannelHandle:
    [thread] = [t for t in world.channel.threads if t.id == table.channel_id]
    return thread


@pytest.mark.usefixtures("quick_deal")
async def test_endtable_replays_the_game_at_once_and_the_end_has_no_rematch(
    world: World,
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob = world.members[:2]
    actors = {m.id: m for m in (alice, bob)}
    await admin.slash(ch, "tournament new", name="Duel", best_of=3, timer=30)
    signup = ch.history()[-1]
    for member in (alice, bob):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    [first] = running_tables(world)
    thread = _thread(world, first)

    # Game 1: the first seat declares. The end message offers no Rematch (the next game of
    # the match opens by itself), and game 2 is already running.
    assert await declare_all(world, actors) == 1
    ends = [m for m in thread.history() if "Winning hand" in m.content]
    assert ends and all("Rematch" not in message_text(m) for m in ends)
    [second] = running_tables(world)
    assert second.id != first.id and second.channel_id == first.channel_id

    # A manager ends game 2: the event notices at once and plays it again (it did not count).
    r = await admin.slash(thread, "kapadmin endtable")
    assert "ended the table" in r.response.content
    [replay] = running_tables(world)
    assert replay.id not in (first.id, second.id) and replay.channel_id == first.channel_id
    view = await service(world).current(world.guild.id)
    assert view.record.status == "running"

    # The replayed game wins the match 2-0: the event is over, no Rematch anywhere.
    assert await declare_all(world, actors) == 1
    view = await service(world).view(view.id)
    assert view.record.status == "finished"
    assert all("Rematch" not in message_text(m) for m in thread.history())
    r = await alice.slash(ch, "tournament rules", event=view.id)
    assert "/kapadmin endtable" in r.response.content and "played again" in r.response.content
