"""Puzzles on simcord: ``/puzzle`` privately with the position's picture and an answer button
per move, solved right (rating up, streak 1) and wrong (rating down, streak 0); the
leaderboard; the daily puzzle set by a manager only, posted once when its timer fires (and not
again after a restart)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.ai.puzzles import PuzzleSet
from bot.app import KapBot
from bot.services.puzzles import START_RATING
from cogs.puzzles import PuzzlesCog
from tests.discord.conftest import World
from tests.discord.tables_kit import no_incidents  # noqa: F401
from tests.puzzles_kit import tiny_set

pytestmark = pytest.mark.usefixtures("no_incidents")

SETS = {"kap-shap": tiny_set("kap-shap", 3), "tsung-shap": tiny_set("tsung-shap", 2)}


def _sets(game: str) -> PuzzleSet:
    return SETS.get(game) or PuzzleSet(game, 0, 0.05, 3.0, 0, 0)


def _use_tiny_sets(bot: Any) -> None:
    assert isinstance(bot, KapBot)
    bot.services.puzzles.sets = _sets


def answer_ids(message: simcord.ResponseMessage | discord.Message) -> list[str]:
    rows: list[dict[str, Any]] = (
        message.components
        if isinstance(message, simcord.ResponseMessage)
        else [dict(row.to_dict()) for row in message.components]
    )
    return [str(c["custom_id"]) for row in rows for c in row["components"]]


def _best_id(ids: list[str]) -> tuple[str, str]:
    """(the best answer's custom id, a wrong answer's)."""
    _, game, number, _ = ids[0].split(":")
    puzzle = SETS[game].puzzles[int(number)]
    best = puzzle.choices.index(puzzle.best)
    right = f"pz:{game}:{number}:{best}"
    wrong = next(i for i in ids if i != right)
    return right, wrong


async def test_a_puzzle_solved_right_then_wrong(world: World) -> None:
    _use_tiny_sets(world.bot)
    alice = world.members[0]
    r = await alice.slash(world.channel, "puzzle", game="kap-shap")
    assert r.ephemeral and r.response is not None
    [embed] = r.response.embeds
    assert embed.title in ("🧩 What do you discard?", "🧩 Take or draw?")
    assert [a.filename for a in r.response.attachments] == ["puzzle.png"]
    assert r.response.attachments[0].description  # the alt text
    ids = answer_ids(r.response)
    assert len(ids) >= 2 and all(i.startswith("pz:kap-shap:") for i in ids)
    right, _ = _best_id(ids)

    solved = await alice.click(r.response, custom_id=right)
    assert solved.response is not None
    verdict = solved.response.embeds[-1]
    assert verdict.title is not None and verdict.title.startswith("✅ Right")
    assert "points" in (verdict.description or "")
    assert verdict.footer.text == (
        f"Puzzle rating {round(START_RATING + 20):,} (+20) · streak 1 (best 1)"
    )

    again = await alice.click(solved.response, label="Another puzzle")
    assert again.response is not None
    _, wrong = _best_id(answer_ids(again.response))
    missed = await alice.click(again.response, custom_id=wrong)
    assert missed.response is not None
    verdict = missed.response.embeds[-1]
    assert verdict.title is not None and verdict.title.startswith("❌ Not quite")
    assert verdict.footer.text is not None
    assert "streak 0 (best 1)" in verdict.footer.text
    assert "(-" in verdict.footer.text

    board = await alice.slash(world.channel, "puzzles leaderboard")
    assert board.ephemeral and board.response is not None
    [embed] = board.response.embeds
    assert f"<@{alice.user.id}>" in (embed.description or "")
    assert "streak 0 (best 1)" in (embed.footer.text or "")


async def test_the_daily_puzzle_is_a_managers_choice_and_posted_once(
    world: World, env: simcord.Env, restart: Any
) -> None:
    _use_tiny_sets(world.bot)
    alice = world.members[0]
    daily = world.guild.create_text_channel("daily-puzzle")
    await env.settle()
    refused = await alice.slash(world.channel, "puzzles daily", channel=daily)
    assert refused.ephemeral and refused.response is not None
    assert "manage the server" in refused.response.content
    assert daily.last_message is None

    r = await world.admin.slash(world.channel, "puzzles daily", channel=daily)
    assert r.ephemeral and r.response is not None and "every day" in r.response.content
    assert daily.history() == []
    # The post is a timer row: the daily loop fires it within its minute, once.
    await env.advance_time(61)
    posts = daily.history()
    assert len(posts) == 1
    [embed] = posts[0].embeds
    assert embed.description is not None and embed.description.startswith("*Today's puzzle")
    # The same day: nothing more (the extension's module is loaded afresh per bot, so the
    # cog is found by name, not by class).
    cog: Any = world.bot.get_cog(PuzzlesCog.__cog_name__)
    assert await cog.post_due() == 0

    # Answering a daily post is private.
    right, _ = _best_id(answer_ids(posts[0]))
    answered = await alice.click(posts[0], custom_id=right)
    assert answered.ephemeral

    # Neither another tick nor a restart posts it again (the next day's: tests/services).
    await env.advance_time(120)
    bot = await restart()
    _use_tiny_sets(bot)
    await env.advance_time(120)
    assert len(daily.history()) == 1
