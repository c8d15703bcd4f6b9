"""The pictures the bot sends, as players get them: the Kap table message's discards, the hand
DM's new tile and takeable discards, and Tsung Shap's row with the tile just turned over.

Each expected picture is drawn here from what the rules say the player should see (the tile he
drew, the discards Culin lets him take), and compared byte for byte with the attachment.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.engine import Deal, Game, Tile, make_rules, parse_tiles
from bot.games.collecting.render.table_art import discard_groups, render_discards, render_hand_view
from bot.games.fishing.engine import deal_from_piles
from bot.games.fishing.render.row_art import render_fishing_row
from bot.render import render_hand
from tests.discord.conftest import World
from tests.discord.tables_kit import (
    deal_every_table,
    exact_deal,
    hand_of,
    last_dm,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
    tiles,
    without_guide,
)

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4 5-1 5-3"


async def test_kap_table_message_and_hand_dm_pictures(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))
    env, ch = world.env, world.channel
    await without_guide(world)
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)

    # The table message carries the discards picture from the start (none yet).
    message = ch.history()[0]
    assert [a.filename for a in message.attachments] == ["discards.png"]
    assert message.embeds[0].image.url == "attachment://discards.png"
    assert await message.attachments[0].read() == render_discards((), title="Discards")

    # Alice discards, then draws 2-2: her DM's picture frames the 2-2 as new.
    await alice.slash(ch, "discard", tile="5-2")
    await alice.slash(ch, "draw")
    picture = await last_dm(alice).attachments[0].read()
    assert picture == render_hand_view(hand_of(world, alice), new=[Tile(2, 2)])
    assert picture != render_hand(hand_of(world, alice))
    await alice.slash(ch, "discard", tile="2-2")
    await env.advance_time(1)

    # The table's picture: the two discards, the latest (2-2, alice's) marked.
    public = table.view_for(None)
    assert public is not None
    [attachment] = ch.history()[0].attachments
    expected = render_discards(
        discard_groups(public.pool), title="Discards · latest 2-2 from alice"
    )
    assert await attachment.read() == expected
    assert attachment.description is not None and "5-2 Seven" in attachment.description

    # Bob's turn to take or draw: under Culin he may take either discard, both framed.
    groups = discard_groups(public.pool, {Tile(5, 2), Tile(2, 2)})
    assert [g.takeable for g in groups] == [True, True]
    dm = last_dm(bob)
    assert await dm.attachments[0].read() == render_hand_view(
        tiles(BOB), discards=groups, discards_title="Discards: you may take one framed in gold"
    )
    assert "take a discard framed in gold, or draw" in (dm.embeds[0].description or "")

    # He takes 5-2: it is framed as new in his hand; the discards are no longer shown.
    await bob.slash(ch, "take", tile="5-2")
    assert await last_dm(bob).attachments[0].read() == render_hand_view(
        hand_of(world, bob), new=[Tile(5, 2)]
    )


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


async def test_tsung_shap_row_picture_shows_the_turned_tile(
    world: World, fishing_deal: Deal
) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="tsung-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    await alice.slash(ch, "draw")  # 1-1 starts the row
    await bob.slash(ch, "draw")  # 3-1 is laid beside it
    await alice.slash(ch, "draw")  # 2-2: alice is to capture or place it
    await env.advance_time(2)
    public = table.view_for(None)
    assert public is not None and public.turned == Tile(2, 2) and len(public.row) == 2
    [message] = [m for m in ch.history() if m.id == table.message_id]
    [attachment] = message.attachments
    assert attachment.filename == "row.png"
    assert await attachment.read() == render_fishing_row(
        public.row, Tile(2, 2), title="alice turned 2-2"
    )
    assert await attachment.read() != render_fishing_row(public.row)
