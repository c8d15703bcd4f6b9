"""Hints (issue 22): at an unrated table where the member plays the computer alone, the Hint
button of his hand DM and ``/hint`` show him, privately, the expert's move and why; the game's
record notes every hint. A rated game offers none: no button, and the verb refuses.

The exact deal (Kap Shap, Culin, 4-2 counts 3): alice holds the eye 6-6 6-6, the ten-pairs
5-5 + 6-4 and 5-4 + 6-5, and 4-2 2-1: discarding 2-1 leaves her waiting on a 7 (6-1, 5-2 or
4-3).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.engine import Game
from bot.games.collecting.render.table_art import render_hand_view
from bot.render import render_hand
from bot.services.ratings import HistoryEntry
from bot.services.replays import ReplayService, ReviewResult, hints_tag, hints_used
from cogs.replay import replay_page, review_head
from cogs.stats import history_lines
from tests.discord.conftest import World
from tests.discord.tables_kit import (
    add_ai,
    custom_ids,
    exact_deal,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
    tiles,
)

ALICE = "6-6 6-6 6-4 5-5 5-4 6-5 4-2 2-1"
AI = "1-1 1-1 3-3 3-3 5-1 5-2 4-1"
WALL = "6-1 5-3 4-3 3-2 6-3"
HINT = (
    "💡 Hint: Discarding 2-1: It keeps the eye and 2 ten-pairs and waits on 3 tiles: 6-1, 5-2, 4-3."
)
REFUSAL = (
    "Hints are only for unrated tables where you play the computer alone "
    "(`/table new rated: False`); rated and tournament games never have them."
)


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """alice first (dice total 6 at two seats), then the computer."""
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, AI], WALL, dice=(1, 1, 2, 2))


async def open_against_the_computer(world: World, **options: object) -> None:
    alice = world.members[0]
    r = await alice.slash(world.channel, "table new", game="kap-shap", **options)
    lobby = r.response.message
    await add_ai(alice, lobby, "club")
    await alice.click(lobby, label="Start")


async def test_a_hint_at_an_unrated_table_against_the_computer(world: World, deal: None) -> None:
    alice, bob = world.members[:2]
    ch = world.channel
    r = await alice.slash(ch, "table new", game="kap-shap", rated=False)
    lobby = r.response.message
    assert "Not rated: hints allowed." in message_text(lobby)
    await add_ai(alice, lobby, "club")
    await alice.click(lobby, label="Start")
    table = table_of(world)
    assert table.running and not table.rated and table.hints_allowed()

    dm = last_dm(alice)
    assert f"kap:{table.id}:-:hint" in custom_ids(dm)
    r = await alice.user.click(dm, label="Hint")
    assert r.ephemeral and r.response.content == HINT
    # The verb says the same; nobody else sees either, and neither moves the game.
    version = table.version
    r = await alice.slash(ch, "hint")
    assert r.ephemeral and r.response.content == HINT
    assert table.version == version
    assert all("Hint" not in message_text(m) for m in ch.history())
    r = await bob.slash(ch, "hint")
    assert r.ephemeral and r.response.content == "You are not playing at this table."

    # The game's record notes both hints, and its replay says so.
    tables = world.bot.services.tables
    assert await tables.hints_of(table.id) == [(0, 1, "discard 2-1"), (0, 1, "discard 2-1")]
    await alice.user.click(last_dm(alice), label="Discard 2-1")
    replays = ReplayService(world.bot.services.games)
    record = await replays.load(table.id, table.guild_id, finished=False)
    assert record.record.tags["Rated"] == "false"
    assert record.record.tags["Hints"] == "2: seat 0 turn 1 discard 2-1; seat 0 turn 1 discard 2-1"
    assert "Hints: 2: seat 0 turn 1 discard 2-1" in record.text


async def test_a_rated_game_has_no_hint(world: World, deal: None) -> None:
    alice = world.members[0]
    ch = world.channel
    await open_against_the_computer(world)
    table = table_of(world)
    assert table.running and table.rated and not table.hints_allowed()
    assert not any(cid.endswith(":hint") for cid in custom_ids(last_dm(alice)))
    r = await alice.slash(ch, "hint")
    assert r.ephemeral and r.response.content == REFUSAL
    assert await world.bot.services.tables.hints_of(table.id) == []


async def test_an_unrated_table_with_two_members_has_no_hint(world: World) -> None:
    alice, bob = world.members[:2]
    ch = world.channel
    r = await alice.slash(ch, "table new", game="kap-shap", rated=False)
    await bob.click(r.response.message, label="Join")
    await alice.click(r.response.message, label="Start")
    table = table_of(world)
    assert not table.rated and not table.hints_allowed()
    current = alice if table.seats[table.state.current].user_id == alice.id else bob  # type: ignore[union-attr]
    assert not any(cid.endswith(":hint") for cid in custom_ids(last_dm(current)))
    r = await current.slash(ch, "hint")
    assert r.ephemeral and r.response.content == REFUSAL


async def test_the_replay_says_hints_were_used(world: World, deal: None) -> None:
    alice = world.members[0]
    await open_against_the_computer(world, rated=False)
    table = table_of(world)
    await alice.user.click(last_dm(alice), label="Hint")
    replays = ReplayService(world.bot.services.games)
    game = await replays.load(table.id, table.guild_id, finished=False)
    embed, _, _ = replay_page(game, 0, with_record=False)
    assert "💡 1 hint used in this game." in (embed.description or "")
    embed, _, _ = replay_page(game, 0, with_record=False, locale="zh-TW")
    assert "💡 這局用了 1 次提示。" in (embed.description or "")


async def test_the_hand_guide_in_the_dm_and_its_setting(world: World, deal: None) -> None:
    """On for a member's first games (no choice made), off once he turns it off: the DM's
    field and the picture's description both say it."""
    alice = world.members[0]
    ch = world.channel
    await open_against_the_computer(world)
    guide = "Eye 6-6 6-6 · ten-pairs 5-5 6-4, 5-4 6-5 · not grouped 4-2 2-1"
    dm = last_dm(alice)
    assert "Hand guide" in message_text(dm) and guide in message_text(dm)
    assert guide in (dm.attachments[0].description or "")
    # The picture groups the tiles: the eye, each ten-pair, then the rest, under a caption.
    grouped = render_hand_view(
        tiles(ALICE),
        title="Eye 6-6 · 2 ten-pairs",
        order=tiles("6-6 6-6 5-5 6-4 5-4 6-5 4-2 2-1"),
    )
    picture = await dm.attachments[0].read()
    assert picture == grouped and picture != render_hand(tiles(ALICE))
    r = await alice.slash(ch, "settings", guide=False)
    assert "Hand guide: **off**." in r.response.content
    await alice.user.click(last_dm(alice), label="Discard 2-1")
    text = message_text(last_dm(alice))
    assert "Hand guide" not in text and "Waiting on" not in text
    r = await alice.slash(ch, "settings", guide=True)
    assert "Hand guide: **on**." in r.response.content
    await alice.user.click(last_dm(alice), label="Draw")
    assert "Hand guide" in message_text(last_dm(alice))


def test_history_marks_an_unrated_game() -> None:
    """``/history``: a won or lost game of an unrated table says so where a rating would be."""
    when = datetime(2026, 1, 1, tzinfo=UTC)
    unrated = HistoryEntry("g1", "kap-shap", when, "win", ("AI 1 (Normal)",), None, unrated=True)
    rated = HistoryEntry("g2", "kap-shap", when, "loss", ("bob",), 1012)
    first, second = history_lines([unrated, rated]).splitlines()
    assert " · unrated · `g1`" in first and "unrated" not in second
    assert " · rating 1,012 · `g2`" in second
    assert " · 不計積分 · `g1`" in history_lines([unrated], "zh-TW")


def test_a_review_says_how_many_hints_its_seat_used() -> None:
    tags = {"Hints": hints_tag([(0, 1, "discard 2-1"), (1, 2, "draw"), (0, 3, "declare")])}
    assert (
        tags["Hints"] == "3: seat 0 turn 1 discard 2-1; seat 1 turn 2 draw; seat 0 turn 3 declare"
    )
    assert (hints_used(tags), hints_used(tags, 0), hints_used(tags, 1), hints_used({})) == (
        3,
        2,
        1,
        0,
    )
    result = ReviewResult("g1", 0, "alice", None, (), hints=2)
    assert "💡 2 hints used in this game." in review_head(result)
    assert "hint" not in review_head(ReviewResult("g1", 1, "bob", None, ()))
