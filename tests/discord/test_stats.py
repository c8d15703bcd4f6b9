"""``/stats``, ``/history`` and ``/leaderboard by:rating|wins`` through simcord."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import simcord

from bot.app import KapBot
from bot.engine import legal_actions
from bot.games.collecting.engine.actions import Declare
from bot.storage.ratings import MemberRating, RatingsRepo
from cogs.stats import replay_custom_id
from tests.discord.conftest import GUILD_ID, World

G = GUILD_ID
FAKE_BASE = 10**17


async def play(
    world: World,
    channel: int,
    players: list[simcord.MemberActor],
    *,
    game: str = "kap-shap",
    ai: str | None = None,
    seed: int = 0,
) -> str:
    """One whole game straight through the table service (the commands are tested elsewhere):
    members play random legal actions, declaring when they can."""
    tables = world.bot.services.tables
    host = players[0]
    await tables.open_table(
        guild_id=G,
        channel_id=channel,
        host_id=host.id,
        host_name=host.name,
        game=game,
        seats=len(players) + (ai is not None),
    )
    for member in players[1:]:
        await tables.join(channel, member.id, member.name)
    if ai is not None:
        await tables.add_ai(channel, host.id, ai)
    await tables.start(channel, host.id)
    table = tables.require(channel)
    rng = random.Random(seed)
    while table.running:
        state = table.state
        assert state is not None
        seat = table.seats[state.current]
        assert seat.user_id is not None
        legal = legal_actions(state)
        action = Declare() if Declare() in legal else rng.choice(legal)
        await tables.act(channel, seat.user_id, action, version=table.version)
    return table.id


def fields(embed: discord.Embed) -> dict[str, str]:
    return {str(f.name): str(f.value) for f in embed.fields}


def buttons(message: simcord.ResponseMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row["components"]]


async def test_stats_show_games_rating_chart_and_tsung_shap_figures(world: World) -> None:
    alice, bob = world.members[0], world.members[1]
    for seed in range(4):
        await play(world, 500 + seed, [alice, bob], game="tsung-shap", seed=seed)
    await play(world, 600, [alice], ai="greedy", seed=9)
    stats = await world.bot.services.ratings.stats(G, alice.id)

    r = await bob.slash(world.channel, "stats", member=alice)

    assert r.acknowledged and r.response is not None and not r.ephemeral
    [embed] = r.response.embeds
    assert embed.title == "📊 alice — Every game"
    shown = fields(embed)
    assert shown["Games"].startswith(f"5 played · {stats.wins} won · {stats.draws} drawn")
    assert "Tsung Shap" in shown and "Average score" in shown["Tsung Shap"]
    assert "1st to play" in shown["By seat (order of play)"]
    assert stats.ratings  # these seeds have winners: a rating and its chart
    if stats.ratings:  # (always: asserted above)
        assert "(provisional)" in shown["Rating"]
        [picture] = r.response.attachments
        assert picture.filename == "rating.png"
        assert (await picture.read()).startswith(b"\x89PNG")
        assert embed.image.url == "attachment://rating.png"

    r = await alice.slash(world.channel, "stats", game="kap-tai-shap")
    [embed] = r.response.embeds  # type: ignore[union-attr]
    assert embed.description == "No finished games yet." and not r.response.attachments  # type: ignore[union-attr]


async def test_stats_refuses_a_bot(world: World) -> None:
    alice = world.members[0]
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    r = await alice.slash(world.channel, "stats", member=robot)
    assert r.ephemeral and r.response is not None
    assert r.response.content == "Bots have no statistics."


async def test_history_lists_games_with_opponents_and_replay_buttons(world: World) -> None:
    alice, bob, carol = world.members[0], world.members[1], world.members[2]
    first = await play(world, 700, [alice, bob], seed=1)
    second = await play(world, 701, [carol, alice], game="tsung-shap", seed=2)
    third = await play(world, 702, [alice], ai="random", seed=3)

    r = await alice.slash(world.channel, "history")

    assert r.ephemeral and r.response is not None
    [embed] = r.response.embeds
    lines = (embed.description or "").splitlines()
    assert len(lines) == 3
    assert "Kap Shap vs AI 1 (random)" in lines[0] and third in lines[0]
    assert "Tsung Shap vs carol" in lines[1] and second in lines[1]
    assert "Kap Shap vs bob" in lines[2] and first in lines[2]
    ids = [b["custom_id"] for b in buttons(r.response)]
    assert ids == [replay_custom_id(g) for g in (third, second, first)]
    assert ids[0] == f"kap:replay:{third}"
    assert [b["label"] for b in buttons(r.response)] == ["Replay 1", "Replay 2", "Replay 3"]
    # The button shows that game's replay in a new message (the history stays as it was).
    clicked = await alice.click(r.response, label="Replay 1")
    assert clicked.response is not None
    assert f"{third}.txt" in [a.filename for a in clicked.response.attachments]

    r = await bob.slash(world.channel, "history", member=world.members[4])
    [embed] = r.response.embeds  # type: ignore[union-attr]
    assert embed.description == "No finished games yet."


async def seed_ratings(world: World, count: int) -> None:
    """``count`` rated members straight into storage (ratings 2000, 1999, …), cheap."""
    repo = RatingsRepo()
    async with world.bot.services.db.transaction() as tx:
        for i in range(count):
            await repo.put_member(
                tx,
                MemberRating(G, "kap-shap", FAKE_BASE + i, 20, 12, 0, 20, 30.0, 1.0, 2000 - i),
            )


async def test_leaderboard_by_rating_pages_and_shows_the_callers_rank(world: World) -> None:
    alice, bob = world.members[0], world.members[1]
    await play(world, 800, [alice], ai="greedy", seed=4)
    await seed_ratings(world, 12)

    r = await alice.slash(world.channel, "leaderboard", by="rating", game="kap-shap")

    assert r.response is not None and not r.ephemeral
    [embed] = r.response.embeds
    assert embed.title == "🏆 Rating — Kap Shap"
    lines = (embed.description or "").splitlines()
    assert lines[0] == f"**#1** <@{FAKE_BASE}> — 2,000"
    assert len(lines) == 10 and embed.author.name == "Page 1 of 2"
    alice_row = await world.bot.services.ratings.rating(G, alice.id, "kap-shap")
    assert alice_row is not None and alice_row.rating is not None  # this seed has a winner
    assert embed.footer.text is not None
    assert embed.footer.text.startswith("alice · Your rank: #")
    assert "(provisional)" in embed.footer.text
    page2 = await alice.click(r.response, label="▶")
    [embed] = page2.response.embeds  # type: ignore[union-attr]
    assert embed.author.name == "Page 2 of 2"
    assert any(
        f"<@{alice.id}>" in line and "← you" in line
        for line in (embed.description or "").splitlines()
    )
    # Someone else's click gets his own (ephemeral) copy.
    other = await bob.click(r.response, label="◀")
    assert other.ephemeral


async def test_leaderboard_by_wins_and_mistakes(world: World) -> None:
    alice, bob = world.members[0], world.members[1]
    await play(world, 900, [alice, bob], game="tsung-shap", seed=5)
    r = await alice.slash(world.channel, "leaderboard", by="wins")
    [embed] = r.response.embeds  # type: ignore[union-attr]
    assert embed.title == "🏆 Wins — Every game"
    assert embed.footer.text is not None and "Your rank: #" in embed.footer.text
    r = await alice.slash(world.channel, "leaderboard", game="kap-shap")
    assert r.ephemeral and r.response is not None
    assert r.response.content == "Chips are counted across every game: rank by rating or wins."
    # The chips board is unchanged by default.
    r = await alice.slash(world.channel, "leaderboard")
    [embed] = r.response.embeds  # type: ignore[union-attr]
    assert embed.title == "🏆 Leaderboard"


async def test_games_never_recorded_are_recorded_after_a_restart(
    world: World, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    alice, bob = world.members[0], world.members[1]
    first = await play(world, 1000, [alice, bob], seed=1)
    second = await play(world, 1001, [alice], ai="greedy", seed=2)
    # As if both had ended before ratings existed (or a crash cut their settlement short).
    async with world.bot.services.db.transaction() as tx:
        await RatingsRepo().clear_all(tx)
    r = await alice.slash(world.channel, "history")
    [embed] = r.response.embeds  # type: ignore[union-attr]
    assert embed.description == "No finished games yet."

    await restart()
    await world.env.settle()

    r = await alice.slash(world.channel, "history")
    [embed] = r.response.embeds  # type: ignore[union-attr]
    lines = (embed.description or "").splitlines()
    assert len(lines) == 2 and second in lines[0] and first in lines[1]
