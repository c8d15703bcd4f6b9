"""Helpers for the table and play tests: exact deals, hidden-hand checks, API call counting.

Hidden hands are checked three ways, so that a leak by any path would be caught:

* text: a hand written the way the bot writes hands (``hand_text``, or the hand picture's
  description ``hand_description``) or as its sorted notation (``format_tiles``) must not appear
  in a message's content, embeds, components, file names or picture descriptions;
* pictures: no attachment may have the bytes of the hand's picture (``render_hand``);
* distinctive tiles: the exact deals give a player tiles that never leave his hand, and the tests
  check those tiles' notation and names never appear in public.

:func:`leaks` returns what it found instead of asserting, so tests also run it on a DM (where the
hand must be found) to show the check is able to fail.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import discord
import pytest
import simcord

from bot.engine import Deal, Game, Tile, deal_from_tiles, format_tiles, make_rules, parse_tiles
from bot.engine.family import engine_of
from bot.games import games
from bot.games.collecting.render.alt_text import hand_description
from bot.games.collecting.render.words import hand_text
from bot.render import render_hand
from bot.render.text import WORD_JOINER
from bot.services.tables import Table
from tests.discord.conftest import World


@pytest.fixture(autouse=True)
def no_incidents(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test in which the bot logged an error (an incident, or an exception discord.py
    swallowed in a button callback): handled errors never reach simcord's own error check."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]


def tiles(text: str) -> list[Tile]:
    """``"6-6 6-6 3-1"`` -> tiles."""
    return parse_tiles(text)


def deal_every_table(monkeypatch: pytest.MonkeyPatch, deal: Callable[..., Deal]) -> None:
    """Make every game the bot starts deal with ``deal(rules, rng, thrower=0)``: it replaces
    the ``deal`` of every registered game's engine facet, which the table service asks."""
    facets = {id(facet): facet for facet in (engine_of(info.name) for info in games())}
    for facet in facets.values():
        monkeypatch.setattr(facet, "deal", deal)


def exact_deal(
    monkeypatch: pytest.MonkeyPatch,
    game: Game,
    hands: Sequence[str],
    wall: str = "",
    *,
    first_seat: int = 0,
    dice: tuple[int, ...] = (1, 1, 2, 2),
) -> Deal:
    """Make the next game started by the bot use exactly this deal (seat order = join order)."""
    rules = make_rules(game, len(hands))
    deal = deal_from_tiles(rules, [tiles(h) for h in hands], tiles(wall), first_seat=first_seat)
    assert (0 + sum(dice)) % len(hands) == first_seat, "the dice must pick the first seat"
    deal = dataclasses.replace(deal, thrower=0, dice=dice)

    def fixed(rules_: Any, rng: Any, thrower: int = 0) -> Deal:
        return deal

    deal_every_table(monkeypatch, fixed)
    return deal


def shown(text: str | None) -> str:
    """What a member reads: ``text`` without the invisible word joiners that keep a tile's
    notation on one line (:func:`bot.render.text.unbroken`)."""
    return (text or "").replace(WORD_JOINER, "")


def message_text(message: discord.Message) -> str:
    """Everything readable in a message: content, embeds, components, attachment names and
    descriptions (a picture's alt text)."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [embed.author.name or ""]
        for embed_field in embed.fields:
            parts += [embed_field.name or "", embed_field.value or ""]
    for row in message.components:
        for child in getattr(row, "children", []):
            parts += [getattr(child, "label", None) or "", getattr(child, "custom_id", None) or ""]
            parts += [o.label for o in getattr(child, "options", [])]
            parts += [o.value for o in getattr(child, "options", [])]
    parts += [a.filename for a in message.attachments]
    parts += [a.description or "" for a in message.attachments]
    return shown("\n".join(parts))


async def leaks(messages: Sequence[discord.Message], hand: Sequence[Tile]) -> list[str]:
    """Where ``hand`` shows in ``messages`` (empty when it is hidden everywhere)."""
    found = []
    writings = [hand_text(hand), format_tiles(hand), hand_description(hand)]
    picture = render_hand(hand)
    for message in messages:
        text = message_text(message)
        for writing in writings:
            if writing in text:
                found.append(f"message {message.id} writes the hand {writing!r}")
        for attachment in message.attachments:
            if await attachment.read() == picture:
                found.append(f"message {message.id} shows the hand in {attachment.filename}")
    return found


def table_of(world: World, channel: simcord.ChannelHandle | None = None) -> Table:
    """The bot's table in a channel (the test world's game channel by default)."""
    table = world.bot.services.tables.get((channel or world.channel).id)
    assert table is not None
    return table


def hand_of(world: World, member: simcord.MemberActor, table: Table | None = None) -> list[Tile]:
    """A member's current hand, as the bot holds it."""
    view = (table or table_of(world)).view_for(member.id)
    assert view is not None and view.seat is not None
    return list(view.hand)


async def assert_hands_hidden(
    world: World,
    players: Sequence[simcord.MemberActor],
    *,
    channel: simcord.ChannelHandle | None = None,
    spectator: simcord.MemberActor | None = None,
) -> None:
    """No channel message (as a spectator sees the channel) shows any player's hand, and no DM
    of a player shows another player's hand."""
    table = table_of(world, channel)
    public = (channel or world.channel).history(viewer=spectator)
    for player in players:
        hand = hand_of(world, player, table)
        assert await leaks(public, hand) == [], f"{player.name}'s hand is public"
        for other in players:
            if other is not player:
                dms = other.user.dm_channel.history()
                assert await leaks(dms, hand) == [], f"{other.name}'s DMs show {player.name}'s"


async def add_ai(
    host: simcord.MemberActor, lobby: discord.Message, level: str = "beginner"
) -> simcord.InteractionResult:
    """The host clicks "Add AI" on the lobby and picks a level."""
    r = await host.click(lobby, label="Add AI")
    assert r.ephemeral and r.response.content.startswith("Which level should the computer play?")
    [custom_id] = [c["custom_id"] for row in r.response.components for c in row["components"]]
    return await host.select(r.response, [level], custom_id=custom_id)


async def without_guide(world: World) -> None:
    """Every member of the world turns the hand guide off (``/settings guide:False``): a test
    of the plain hand picture and its description, which a newcomer sees with the guide."""
    for member in world.members:
        await world.bot.services.server.set_guide(member.id, False)


def last_dm(member: simcord.MemberActor) -> discord.Message:
    """The member's latest DM from the bot."""
    history = member.user.dm_channel.history()
    assert history, f"{member.name} got no DM"
    return history[-1]


def custom_ids(message: discord.Message) -> list[str]:
    """The custom ids of a message's components."""
    return [
        child.custom_id
        for row in message.components
        for child in getattr(row, "children", [])
        if getattr(child, "custom_id", None)
    ]


@contextlib.contextmanager
def api_calls(env: simcord.Env) -> Iterator[list[simcord.HttpLogEntry]]:
    """The HTTP requests the bot made inside the block."""
    start = len(env.http_requests)
    calls: list[simcord.HttpLogEntry] = []
    yield calls
    calls.extend(env.http_requests[start:])


def edits_of(calls: Sequence[simcord.HttpLogEntry], channel_id: int, message_id: int) -> int:
    """How many of ``calls`` edited one channel message."""
    path = f"/channels/{channel_id}/messages/{message_id}"
    return sum(1 for c in calls if c.method == "PATCH" and c.path == path)


def runs_out(world: World, channel: simcord.ChannelHandle | None = None) -> str:
    """How a turn notice tells the time left: a Discord timestamp of the table's deadline."""
    deadline = table_of(world, channel).deadline
    assert deadline is not None
    return f"time runs out <t:{int(deadline)}:R>"


async def resign(
    member: simcord.MemberActor, channel: simcord.ChannelHandle
) -> simcord.InteractionResult:
    """The member gives up his game in ``channel``: ``/table resign``, then "Resign" on the
    question it asks (in any language: found by its custom id)."""
    r = await member.slash(channel, "table resign")
    assert r.ephemeral and r.response is not None, r
    ids = [c["custom_id"] for row in r.response.components for c in row["components"]]
    confirm = [i for i in ids if ":resign:" in i]
    assert confirm, r.response.content  # a refusal has no buttons
    return await member.click(r.response, custom_id=confirm[0])
