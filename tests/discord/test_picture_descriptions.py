"""Every picture the bot sends has a description (alt text) that says what it shows: a member
using a screen reader, or with images off, reads his hand, the discards, the Tsung Shap row,
the winning hand, his rating chart and a tournament's standings and bracket.

The hand's description is private like the picture: it is checked never to reach anyone but
its owner (``leaks`` looks at descriptions too).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Deal, Game, make_rules, parse_tiles
from bot.games.fishing.engine import deal_from_piles
from tests.discord.conftest import World
from tests.discord.tables_kit import (
    assert_hands_hidden,
    deal_every_table,
    exact_deal,
    hand_of,
    last_dm,
    leaks,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    resign,
    table_of,
    tiles,
    without_guide,
)

ROOT = Path(__file__).resolve().parents[2]

# alice wins on turn 5 by taking bob's 6-3 (the deal of test_play_slash).
ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


def description(message: Any, filename: str) -> str:
    """The description of one attachment of a message (it must have one)."""
    [found] = [a for a in message.attachments if a.filename == filename]
    assert found.description, f"{filename} has no description"
    return str(found.description)


def test_every_file_the_bot_sends_is_given_a_description() -> None:
    """A new picture without alt text fails here: every ``discord.File(...)`` in the bot's
    code names a ``description``."""
    missing = []
    calls = 0
    for path in sorted([*ROOT.joinpath("cogs").rglob("*.py"), *ROOT.joinpath("bot").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "File":
                calls += 1
                assert isinstance(node, ast.Call)
                if not any(k.arg == "description" for k in node.keywords):
                    missing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert calls >= 8 and missing == []


async def test_the_hand_discards_and_winning_hand_are_described(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob, carol = world.members[:3]
    await without_guide(world)
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")

    # Each DM's picture says its hand in words, in rank order, with counts.
    assert description(last_dm(alice), "hand.png") == (
        "Your hand, 8 tiles: 6-6 Heaven ×2, 1-1 Earth, 4-4 Man, 3-1 Harmony, 3-3 Long three, "
        "6-5 Axe, 5-2 Seven."
    )
    assert description(last_dm(bob), "hand.png") == (
        "Your hand, 7 tiles: 5-5 Plum flower, 6-1 Long-leg seven, 6-3 Nine, 6-2 Eight, "
        "4-1 Five, 3-2 Five, 4-2 Gee Joon."
    )
    # The check can fail: it finds alice's hand in her own DM's description.
    assert await leaks([last_dm(alice)], tiles(ALICE))
    await assert_hands_hidden(world, [alice, bob], spectator=carol)

    # The new tile is named; so are the discards bob may take (Culin: either of them).
    await alice.slash(ch, "discard", tile="5-2")
    await alice.slash(ch, "draw")
    assert "New: 2-2 Bench." in description(last_dm(alice), "hand.png")
    await alice.slash(ch, "discard", tile="2-2")
    assert description(last_dm(bob), "hand.png").endswith(
        "Discards you may take: 2-2 Bench, 5-2 Seven."
    )
    # /hand (the DM's fallback) carries the same description.
    r = await bob.slash(ch, "hand")
    assert r.ephemeral and description(r.response.message, "hand.png") == description(
        last_dm(bob), "hand.png"
    )

    # The table's discards picture.
    await env.advance_time(2)
    [message] = [m for m in ch.history() if m.id == table_of(world).message_id]
    assert description(message, "discards.png") == "Discards: 2-2 Bench · 5-2 Seven"

    # Bob takes 5-2, discards 6-3, draws 6-4 and discards it; alice takes 6-3 and wins.
    await bob.slash(ch, "take", tile="5-2")
    await bob.slash(ch, "discard", tile="6-3")
    await bob.slash(ch, "draw")
    await bob.slash(ch, "discard", tile="6-4")
    await alice.slash(ch, "take", tile="6-3")
    await alice.slash(ch, "declare")
    end = next(m for m in ch.history() if m.attachments and "winning" in m.attachments[0].filename)
    assert description(end, "winning-hand.png") == (
        "The winning hand of alice: eye 6-6 6-6 · 6-3+6-5 = 20 · 4-4+1-1 = 10 · 3-3+3-1 = 10."
    )
    await assert_hands_hidden(world, [alice, bob], spectator=carol)


async def test_the_hand_is_described_in_the_members_language(
    world: World, deal: None, locales: dict[int, str]
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await without_guide(world)
    locales[alice.id] = "zh-TW"
    locales[bob.id] = "zh-CN"
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    assert description(last_dm(alice), "hand.png") == (
        "你的手牌，8 張牌：6-6 天 ×2、1-1 地、4-4 人、3-1 和、3-3 長三、6-5 斧頭、5-2 雜七。"
    )
    assert description(last_dm(bob), "hand.png").startswith("你的手牌，7 张牌：5-5 梅、6-1 高脚七")
    assert len(hand_of(world, bob)) == 7


@pytest.fixture
def fishing_deal(monkeypatch: pytest.MonkeyPatch) -> Deal:
    """Alice (seat 0) turns over 1-1, 2-2, 6-6; bob 3-1, 6-6."""
    rules = make_rules(Game.TSUNG_SHAP)
    exact = deal_from_piles(rules, parse_tiles("1-1 2-2 6-6"), parse_tiles("3-1 6-6"), first_seat=0)
    exact = dataclasses.replace(exact, thrower=0, dice=(1, 1, 2, 2))

    def fixed(rules_: Any, rng: Any, thrower: int = 0) -> Deal:
        return exact

    deal_every_table(monkeypatch, fixed)
    return exact


async def test_the_tsung_shap_row_is_described(world: World, fishing_deal: Deal) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="tsung-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await env.advance_time(2)
    [message] = [m for m in ch.history() if m.id == table_of(world).message_id]
    assert description(message, "row.png") == "The row is empty."
    await alice.slash(ch, "draw")  # 1-1 starts the row
    await bob.slash(ch, "draw")  # 3-1 is laid beside it
    await alice.slash(ch, "draw")  # 2-2: alice is to capture or place it
    await env.advance_time(2)
    [message] = [m for m in ch.history() if m.id == table_of(world).message_id]
    assert description(message, "row.png") == (
        "The row, left to right: 1-1 Earth, 3-1 Harmony. alice turned over 2-2 Bench."
    )


async def test_the_rating_chart_and_tournament_pictures_are_described(
    world: World, deal: None
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob = world.members[:2]
    await admin.slash(ch, "tournament new", name="Cup", format="single-elimination", buy_in=0)
    signup = ch.history()[-1]
    for member in (alice, bob):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    [thread] = ch.threads
    table = table_of(world, thread)
    first, second = ({alice.id: alice, bob.id: bob}[s.user_id or 0] for s in table.seats)
    await resign(second, thread)  # the final's one game: the first seat wins it
    r = await alice.slash(ch, "tournament show", event=1)
    shown = r.response
    assert description(shown.message, "standings.png").startswith(
        f"Standings of Cup: 1. {first.name}: champion"
    )
    assert description(shown.message, "bracket.png") == (
        f"Bracket of Cup: W1-1: {first.name} v {second.name}, won by {first.name}."
    )

    r = await bob.slash(ch, "stats", member=first)
    shown = r.response
    chart = description(shown.message, "rating.png")
    assert chart.startswith(f"Rating of {first.name} after each rated game. Kap Shap: ")
    assert chart.endswith(" after one game.")
