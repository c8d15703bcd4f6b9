"""Mention injection (issue 18, item 3): a name is text, never a ping.

A tournament named ``@everyone <@&role> <@user> Cup``, and a member whose nickname is
``@here <@&role>``, are echoed in replies, announcements, the sign-up message, ``/tournament
show`` and ``/tournament history``, match threads and table messages. Nobody may be pinged by
them: the bot's default is :meth:`discord.AllowedMentions.none`, and only the pings a message
means (a match's players, the player whose turn it is) are allowed, by id.

Checked twice: in what discord.py sends (every message body's ``allowed_mentions``, from
simcord's log of HTTP requests) and in what simcord's Discord made of it (who each stored
message pings).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from tests.discord.conftest import World
from tests.discord.test_tournaments import (  # noqa: F401  (fixtures)
    declare_all,
    no_incidents,
    quick_any,
    running_tables,
    thread_of,
)

#: Message types the bot writes: default, reply, a slash command's answer.
WRITTEN = (0, 19, 20)


def bodies(env: simcord.Env) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every message body the bot sent or edited with text: (path, body)."""
    for request in env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        if isinstance(body.get("data"), dict):  # an interaction callback
            body = body["data"]
        if body.get("content"):
            yield request.path, body


def pings_of(env: simcord.Env) -> list[tuple[str, list[int], list[int], bool]]:
    """What each stored message pings: (content, users, roles, everyone)."""
    found = []
    for messages in env.backend.messages.values():
        for message in messages.values():
            # What the bot wrote (not Discord's own notices, such as "thread created").
            if message.author_id != env.bot.user.id or message.type not in WRITTEN:  # type: ignore[union-attr]
                continue
            found.append(
                (
                    message.content,
                    list(message.ping_user_ids),
                    list(message.ping_role_ids),
                    message.mention_everyone,
                )
            )
    return found


@pytest.mark.usefixtures("quick_any")
async def test_a_hostile_name_pings_nobody_and_the_meant_pings_still_ping(world: World) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    alice, bob, carol = world.members[:3]
    role = world.guild.create_role("Everyone's friends", mentionable=True)
    hostile = world.guild.add_member(env.create_user("mallory"), nick=f"@here <@&{role.id}>")
    name = f"@everyone <@&{role.id}> <@{carol.id}> Cup"
    # Turn notices in the table's channel too: the one ping a table means.
    await admin.slash(ch, "kapadmin config", notices="both")

    r = await admin.slash(ch, "tournament new", name=name, rounds=1)
    assert name in r.response.content
    signup = ch.history()[-1]
    for member in (alice, hostile):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")

    # The match thread: its two players are pinged, by id, and nobody else.
    [table] = running_tables(world)
    thread = thread_of(world, table)
    opening = next(m for m in thread.history() if "your match" in m.content)
    assert name in opening.content
    players = {alice.id, hostile.id}
    stored = env.backend.messages[thread.id][opening.id]
    assert set(stored.ping_user_ids) == players
    assert not stored.ping_role_ids and not stored.mention_everyone
    # The player to act is called in the thread (her turn), pinged alone.
    first = table.seats[table.state.current].user_id  # type: ignore[union-attr]
    assert first in players
    turn = [b for p, b in bodies(env) if "it's your turn" in b["content"]]
    assert turn and all(b["allowed_mentions"]["users"] == [first] for b in turn)

    await declare_all(world, {alice.id: alice, hostile.id: hostile})
    assert not running_tables(world)
    assert any("is over" in m.content for m in ch.history())

    r = await bob.slash(ch, "tournament show", event=1)
    assert name in r.response.content
    r = await bob.slash(ch, "tournament history")
    assert name in r.response.content

    # What discord.py sent: no message lets Discord parse pings out of its text.
    sent = list(bodies(env))
    assert any(name in b["content"] for _, b in sent)
    for path, body in sent:
        allowed = body.get("allowed_mentions")
        assert allowed is not None, (path, body["content"])
        assert allowed["parse"] == [], (path, body["content"], allowed)
        assert not allowed.get("roles"), (path, body["content"], allowed)
        assert set(allowed.get("users", [])) <= players, (path, body["content"], allowed)
    # What Discord made of it: carol, the role and @everyone were never pinged.
    for content, users, roles, everyone in pings_of(env):
        assert carol.id not in users and bob.id not in users, content
        assert not roles and not everyone, content


async def test_members_names_and_their_input_ping_nobody_at_a_table(world: World) -> None:
    """Outside events too: a nickname shown at a table and input quoted in a refusal."""
    env, ch = world.env, world.channel
    alice, bob, carol = world.members[:3]
    role = world.guild.create_role("Pinged", mentionable=True)
    mallory = world.guild.add_member(env.create_user("mallory"), nick=f"@everyone <@&{role.id}>")
    hostile = f"@everyone <@&{role.id}> <@{carol.id}>"

    r = await mallory.slash(ch, "table new", variant=f"{hostile}=1")
    assert r.ephemeral and f"'@everyone <@&{role.id}>" in r.response.content  # type: ignore[union-attr]
    await mallory.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await mallory.slash(ch, "table start")
    r = await alice.slash(ch, "chips give", member=bob, amount=5)
    assert not r.ephemeral

    sent = list(bodies(env))
    assert any(f"<@&{role.id}>" in b["content"] for _, b in sent)
    for path, body in sent:
        allowed = body.get("allowed_mentions")
        assert allowed is not None and allowed["parse"] == [], (path, body["content"])
    for content, users, roles, everyone in pings_of(env):
        assert carol.id not in users and not roles and not everyone, content
    # The gift pings its recipient, and him alone.
    [gift] = [b for _, b in sent if "gave" in b["content"]]
    assert gift["allowed_mentions"]["users"] == [bob.id]
