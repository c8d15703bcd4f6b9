"""The live standings board (issue 23): the sign-up message shows the standings (text and
picture) after every result, one edit for a burst of results, keeps being the same message
across a restart, is posted again when deleted, and ends as the final results board with the
places, the prizes and where to export the event (docs/tournaments.md, "Live standings")."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
import pytest

from bot.app import KapBot
from tests.discord.conftest import World
from tests.discord.test_tournaments import (  # noqa: F401  (fixtures)
    check_chips,
    declare_all,
    no_incidents,
    quick_any,
    running_tables,
)

pytestmark = pytest.mark.both_backends


def edits_of(world: World, message_id: int) -> int:
    """How many times the bot edited the message ``message_id`` so far."""
    return sum(
        1
        for call in world.env.http_requests
        if call.method == "PATCH" and call.path.rstrip("/").endswith(f"/messages/{message_id}")
    )


def message(world: World, message_id: int) -> discord.Message:
    return next(m for m in world.channel.history() if m.id == message_id)


def boards(world: World, name: str) -> list[discord.Message]:
    """The messages of the channel that are the board of the event ``name``."""
    return [
        m
        for m in world.channel.history()
        if m.embeds and (m.embeds[0].title or "").endswith(f" {name}")
    ]


def description(board: discord.Message) -> list[str]:
    [embed] = board.embeds
    assert embed.description is not None
    return embed.description.splitlines()


@pytest.mark.usefixtures("quick_any")
async def test_the_board_follows_each_result_and_becomes_the_results_board(
    world: World, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    members = world.members[:4]
    actors = {m.id: m for m in members}
    await admin.slash(ch, "tournament new", name="Live Cup", buy_in=10, rounds=2)
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    board = message(world, signup.id)
    assert not board.attachments  # no result yet: the rules, no standings
    assert "Swiss" in "\n".join(description(board))

    # Round 1: both matches end at the same moment; the board is edited once for the two.
    before = edits_of(world, signup.id)
    assert await declare_all(world, actors) == 2
    assert edits_of(world, signup.id) == before  # coalesced: not yet
    await env.advance_time(1)
    assert edits_of(world, signup.id) == before + 1
    board = message(world, signup.id)
    lines = description(board)
    assert lines[0] == "Round 2: 0 of 2 matches decided"
    assert sorted(line.rsplit(" · ", 1)[1] for line in lines[1:5]) == ["0", "0", "1", "1"]
    assert lines[-1] == "Everyone's place and the tie-breaks: `/tournament show`."
    [picture] = board.attachments
    assert picture.filename == "standings.png"
    assert (picture.description or "").startswith("Standings of Live Cup: 1. ")
    [embed] = board.embeds
    assert embed.image.url is not None and embed.image.url.endswith("standings.png")
    assert not [f for f in embed.fields if f.name.startswith("Players")]  # the standings name them
    await env.advance_time(5)
    assert edits_of(world, signup.id) == before + 1  # nothing new, nothing drawn

    # Round 2: one result, then a restart; the board is still that message.
    assert await declare_all(world, actors, limit=1) == 1
    await env.advance_time(1)
    assert description(message(world, signup.id))[0] == "Round 2: 1 of 2 matches decided"
    await restart()
    assert len(running_tables(world)) == 1
    assert await declare_all(world, actors) == 1

    # The end: the same message is the final results board, at once.
    board = message(world, signup.id)
    assert board.content == "🏆 **Live Cup** is over."
    lines = description(board)
    assert lines[:2] == ["Final results", lines[1]] and lines[1].startswith("1st ")
    assert lines[1].endswith("— 40 chips")  # the winner's prize: the whole pool
    assert lines[-1] == "Every pairing, result and game record: `/tournament export event:1`."
    [picture] = board.attachments
    assert picture.filename == "standings.png" and picture.description
    assert not board.components
    assert [b.id for b in boards(world, "Live Cup")] == [signup.id]  # never a second board
    after = edits_of(world, signup.id)
    await env.advance_time(5)
    assert edits_of(world, signup.id) == after
    await check_chips(world)


@pytest.mark.usefixtures("quick_any")
async def test_a_deleted_board_is_posted_again_and_the_organisers_result_shows(
    world: World,
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    members = world.members[:4]
    actors = {m.id: m for m in members}
    mods = world.guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = world.guild.add_member(env.create_user("mod"), roles=[mods])
    await env.settle()
    await admin.slash(ch, "tournament new", name="Phoenix", rounds=2)
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    await mod.delete(signup)

    # A result: the board, gone, is posted again (no error), with the standings.
    assert await declare_all(world, actors, limit=1) == 1
    await env.advance_time(1)
    [board] = boards(world, "Phoenix")
    assert board.id != signup.id
    assert description(board)[0] == "Round 1: 1 of 2 matches decided"
    assert board.attachments

    # The organiser sets the other match's result: the board posted again is edited.
    [open_match] = [t for t in running_tables(world)]
    players = [s.user_id for s in open_match.seats]
    view = await world.bot.get_cog("Tournaments").service.view(1)  # type: ignore[union-attr]
    assert view.event is not None and view.event.current_round is not None
    [match] = [m for m in view.event.current_round.matches if set(m.players) == set(players)]
    winner = actors[match.players[1]]
    before = edits_of(world, board.id)
    r = await admin.slash(
        ch, "tournament result", match=match.id, winner=winner, reason="a walkover agreed"
    )
    assert r.response.content == "Done."  # type: ignore[union-attr]
    await env.advance_time(1)
    assert edits_of(world, board.id) == before + 1
    assert description(message(world, board.id))[0] == "Round 2: 0 of 2 matches decided"
    assert [b.id for b in boards(world, "Phoenix")] == [board.id]
