"""What an event shows (issue 18, items 8 and 9): the sign-up message follows the event to its
end and becomes its result board, with the organiser's name (not his id) in its footer; a
buy-in refusal of its own; bracket standings for a knockout event; one label for a computer
filler; no prize wording in a free event.
"""

from __future__ import annotations

import discord
import pytest

from tests.discord.conftest import World
from tests.discord.test_tournaments import (  # noqa: F401  (fixtures)
    declare_all,
    no_incidents,
    quick_any,
    running_tables,
    service,
)


def signup_of(world: World, message_id: int) -> discord.Message:
    return next(m for m in world.channel.history() if m.id == message_id)


def footer(message: discord.Message) -> str:
    [embed] = message.embeds
    return embed.footer.text or ""


@pytest.mark.usefixtures("quick_any")
async def test_the_sign_up_message_becomes_the_result_board(world: World) -> None:
    ch, admin = world.channel, world.admin
    alice, bob = world.members[:2]
    await admin.slash(ch, "tournament new", name="Board Cup", buy_in=10)
    signup = ch.history()[-1]
    assert "is open for sign-up" in signup.content
    assert footer(signup) == "Status: sign-up open · organiser admin"
    assert str(admin.id) not in footer(signup)
    for member in (alice, bob):
        await member.click(signup, label="Join")

    await admin.slash(ch, "tournament start")
    signup = signup_of(world, signup.id)
    assert signup.content == "**Board Cup** has started."
    assert footer(signup) == "Status: running · organiser admin"
    await admin.slash(ch, "tournament pause")
    assert signup_of(world, signup.id).content.startswith("**Board Cup** is paused")
    await admin.slash(ch, "tournament resume")

    await declare_all(world, {alice.id: alice, bob.id: bob})
    signup = signup_of(world, signup.id)
    assert signup.content == "🏆 **Board Cup** is over."
    [embed] = signup.embeds
    assert embed.description is not None
    assert embed.description.startswith("Final results\n1st ")
    assert "20 chips" in embed.description  # the winner's prize
    assert footer(signup) == "Status: finished · organiser admin"
    assert not signup.components

    # A cancelled event says so, free of any buy-in talk when it had none.
    await admin.slash(ch, "tournament new", name="Called off")
    signup = ch.history()[-1]
    await admin.slash(ch, "tournament cancel")
    signup = signup_of(world, signup.id)
    assert signup.content == "**Called off** was cancelled."
    assert footer(signup) == "Status: cancelled · organiser admin"
    assert not signup.components
    assert any(m.content == "**Called off** was cancelled." for m in ch.history()[-3:])


async def test_a_member_short_of_the_buy_in_is_told_the_buy_in(world: World) -> None:
    ch, admin, alice = world.channel, world.admin, world.members[0]
    await admin.slash(ch, "tournament new", name="Dear", buy_in=2000)
    r = await alice.click(ch.history()[-1], label="Join")
    assert r.ephemeral
    assert r.response.content == "The buy-in is 2,000 chips; you have 1,000."  # type: ignore[union-attr]
    assert not (await service(world).view(1)).entries


@pytest.mark.usefixtures("quick_any")
async def test_a_knockout_event_posts_bracket_standings(world: World) -> None:
    ch, admin = world.channel, world.admin
    members = world.members[:4]
    await admin.slash(ch, "tournament new", name="Cup", format="single-elimination")
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    await declare_all(world, {m.id: m for m in members})
    [after_one] = [m for m in ch.history() if "standings after round 1" in m.content]
    assert "Buch" not in after_one.content
    lines = after_one.content.splitlines()[1:]
    assert [line.split(": ", 1)[1] for line in lines] == [
        "still in (1-0)",
        "still in (1-0)",
        "knocked out in W1-2 (0-1)",  # seed 3, by seed among those out in the same round
        "knocked out in W1-1 (0-1)",
    ]
    assert [line.split(". ", 1)[0] for line in lines] == ["1", "1", "3", "3"]
    assert after_one.attachments  # the standings picture, drawn from the same rows


async def test_computer_fillers_are_labelled_once_and_a_free_event_has_no_prize_talk(
    world: World,
) -> None:
    ch, admin, alice = world.channel, world.admin, world.members[0]
    await admin.slash(ch, "tournament new", name="Free", rounds=1)
    await alice.click(ch.history()[-1], label="Join")
    r = await admin.slash(ch, "tournament fill", count=1, level="greedy")
    assert r.response.content == "Added 1 computer player to **Free**."  # type: ignore[union-attr]
    r = await alice.slash(ch, "tournament rules")
    assert "Free event: no buy-in, no prize money." in r.response.content  # type: ignore[union-attr]
    assert "prize money —" not in r.response.content  # type: ignore[union-attr]
    await admin.slash(ch, "tournament start")
    [pairings] = [m for m in ch.history() if "round 1" in m.content]
    assert "Computer 1 (Normal)" in pairings.content and "(AI)" not in pairings.content
    # alice leaves: the computer wins the event, and nobody was due a prize.
    await alice.slash(ch, "tournament drop")
    [results] = [m for m in ch.history() if "Final results" in m.content]
    assert "1st Computer 1 (Normal)" in results.content
    assert "prize" not in results.content and "(AI)" not in results.content
