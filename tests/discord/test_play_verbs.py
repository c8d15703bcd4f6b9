"""The slash verbs ask the table's game what they mean (issue 19 step 9b): the refusals are the
words and the order they always were.

Tsung Shap has no ``/declare``: it is refused like any move the game does not have, after the
table's own refusals (the game not started, the member not seated, not his turn). A
collecting game has no ``side``; a tile to discard must be named.
"""

from __future__ import annotations

from bot.services.tables import TableStatus
from tests.discord.conftest import World
from tests.discord.tables_kit import (
    no_incidents,  # noqa: F401  (autouse: no error logged)
    shown,
    table_of,
)


async def test_tsung_shap_refuses_declare_after_the_tables_own_refusals(world: World) -> None:
    alice, bob, carol = world.members[:3]
    ch = world.channel
    await alice.slash(ch, "table new", game="tsung-shap")
    r = await alice.slash(ch, "declare")
    assert r.ephemeral and r.response.content == "The game has not started yet."
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.running and table.state is not None
    current = table.seats[table.state.current]
    player, other = (alice, bob) if current.user_id == alice.id else (bob, alice)
    version = table.version

    r = await carol.slash(ch, "declare")
    assert r.response.content == "You are not playing at this table."
    r = await other.slash(ch, "declare")
    assert r.response.content == f"It is {current.name}'s turn, not yours."
    r = await player.slash(ch, "declare")
    assert r.ephemeral and r.response.content == "'declare' is not a Tsung Shap action."
    r = await player.slash(ch, "discard", tile="middle")
    assert r.response.content == "Place your tile at an end of the row: `/discard side:left`."
    r = await player.slash(ch, "take")
    assert r.response.content == "There is nothing to capture or claim now."
    r = await player.slash(ch, "take", tile="nonsense")
    assert r.response.content == (
        "Not a capture: 'nonsense'. Choose one of the suggestions, e.g. `capture pair left`."
    )
    assert table.version == version and table.status is TableStatus.RUNNING
    # The row's ends, named in the member's language, are what /discard tile offers here.
    offered = await player.autocomplete(ch, "discard", "tile", "")
    assert [c["value"] for c in offered] == ["left", "right"]
    assert [c["name"] for c in offered] == ["left end of the row", "right end of the row"]


async def test_kap_shap_refuses_a_side_and_a_missing_tile(world: World) -> None:
    alice, bob = world.members[:2]
    ch = world.channel
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    version = table.version
    r = await alice.slash(ch, "discard", tile="6-5", side="left")
    assert r.response.content == "`side` is for Tsung Shap: name the tile to discard."
    r = await bob.slash(ch, "discard", side="left")
    assert r.response.content == "`side` is for Tsung Shap: name the tile to discard."
    r = await alice.slash(ch, "discard")
    assert shown(r.response.content) == "Name the tile to discard, e.g. `/discard tile:6-5`."
    assert table.version == version
