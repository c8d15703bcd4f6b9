"""High Pair, the toy game of tests/games/toy, at a Discord table (simcord): registered before
the bot starts, it is a choice of ``/table new game:``, its lobby offers its own computer
levels, its hand is a picture with its buttons in each player's DM, the slash verbs mean what
the toy says, the pot is paid, the game has a replay and a record, and a rematch opens — while
no cog, service or renderer knows the game.

The deal is exact: alice holds 7 7 2, her opponent 9 3 1, and the stock starts 5 4 8. Alice
draws the 5 and throws it; the opponent draws the 4 and throws it (a computer: its lowest
single, the 1); alice draws the 8 and shows her sevens: she wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine import Deal
from bot.games import registered
from bot.render.family import render_of
from bot.services.tables import TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    custom_ids,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)
from tests.games.toy import TOY
from tests.games.toy.engine import ToyEngine, ToyRules, card, deal_from_cards

GAME = "high-pair"
ALICE, OTHER, STOCK = [7, 7, 2], [9, 3, 1], [5, 4, 8]


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    """Registered before the bot starts (autouse fixtures come first): its extensions build
    their game choices from the registry as they load."""
    with registered(TOY):
        yield


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game the bot deals is the exact deal above, alice (seat 0) first."""

    def fixed(self: ToyEngine, rules: ToyRules, rng: Any, thrower: int = 0) -> Deal:
        return deal_from_cards(rules, [ALICE, OTHER], STOCK, first=0)

    monkeypatch.setattr(ToyEngine, "deal", fixed)


def _hand_picture(world: World, member: Any) -> bytes:
    """The hand picture the toy draws for a member's seat now."""
    table = table_of(world)
    seen = table.view_for(member.id)
    assert seen is not None
    legal = table.legal() if seen.my_turn else []
    picture = render_of(GAME).hand(seen, legal, "en")
    assert picture is not None
    return picture.png


async def test_a_member_plays_the_computer_with_the_buttons_of_his_hand(
    world: World, deal: None
) -> None:
    ch = world.channel
    alice, carol = world.members[0], world.members[2]
    chips = world.bot.services.chips

    r = await alice.slash(ch, "table new", game=GAME)
    assert not r.ephemeral and r.response.embeds[0].title.startswith("High Pair")
    lobby = r.response.message
    # The lobby's "Add AI" offers the toy's own levels.
    r = await alice.click(lobby, label="Add AI")
    assert r.ephemeral
    [select] = [c for row in r.response.components for c in row["components"]]
    assert [o["value"] for o in select["options"]] == ["random", "greedy"]
    await alice.select(r.response, ["greedy"], custom_id=select["custom_id"])
    await alice.click(lobby, label="Start")
    table = table_of(world)
    assert table.running and await chips.balance(GUILD_ID, alice.id) == 990

    # Her DM: her hand as the toy's picture, and its one move now as a button.
    dm = last_dm(alice)
    assert [a.filename for a in dm.attachments] == ["hand.png"]
    assert await dm.attachments[0].read() == _hand_picture(world, alice)
    assert "Draw a card." in message_text(dm)
    await alice.user.click(dm, label="Draw")
    dm = last_dm(alice)
    assert "You drew 5." in message_text(dm)
    labels = [c.label for row in dm.components for c in getattr(row, "children", [])]
    assert labels == ["Show", "Discard 2", "Discard 5", "Discard 7"]  # Show on the first row
    await alice.user.click(dm, label="Discard 5")
    # The computer drew and threw its lowest single at once: alice is to play again.
    assert table.state is not None and table.state.current == 0
    assert [card(p) for p in table.state.discards] == [5, 1] and table.state.turn == 3
    await alice.user.click(last_dm(alice), label="Draw")
    await alice.user.click(last_dm(alice), label="Show")
    assert table.status is TableStatus.FINISHED
    end = ch.history()[-1]
    assert "alice won with a pair of 7" in message_text(end)
    # The house staked the computer's ante; alice takes the pot.
    assert await chips.balance(GUILD_ID, alice.id) == 1010
    assert (await chips.total_supply_check(GUILD_ID)).ok
    # The spectator saw no hand: no card picture, no private draw.
    for message in ch.history(viewer=carol):
        assert not [a for a in message.attachments if a.filename == "hand.png"]
        assert "You drew" not in message_text(message)


async def test_two_members_play_through_the_slash_verbs(world: World, deal: None) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    chips = world.bot.services.chips

    await alice.slash(ch, "table new", game=GAME)
    r = await bob.click(ch.history()[-1], label="Join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.running

    # /take has no meaning here: refused privately, nothing changes.
    version = table.version
    r = await bob.slash(ch, "take")
    assert r.ephemeral and "nothing to take" in r.response.content
    assert table.version == version

    r = await alice.slash(ch, "draw")
    assert r.ephemeral and "You drew 5." in message_text(r.response.message)
    offered = await alice.autocomplete(ch, "discard", "tile", "")
    assert [c["value"] for c in offered] == ["2", "5", "7"]
    await alice.slash(ch, "discard", tile="5")
    await bob.slash(ch, "draw")
    await bob.slash(ch, "discard", tile="4")
    await alice.slash(ch, "draw")
    r = await alice.slash(ch, "declare")  # High Pair's show
    assert table.status is TableStatus.FINISHED
    assert table.state is not None and table.state.result is not None
    assert table.state.result.winner == 0
    end = ch.history()[-1]
    assert "alice won with a pair of 7" in message_text(end)
    assert "alice takes the pot: 20 chips" in message_text(end)
    assert await chips.balance(GUILD_ID, alice.id) == 1010
    assert await chips.balance(GUILD_ID, bob.id) == 990
    assert (await chips.total_supply_check(GUILD_ID)).ok

    # /history lists it; its Replay button sends the replay with the record file.
    r = await alice.slash(ch, "history")
    assert r.ephemeral and "High Pair vs bob" in (r.response.embeds[0].description or "")
    clicked = await alice.click(r.response, label="Replay 1")
    files = {a.filename: a for a in clicked.response.attachments}
    record = (await files[f"{table.id}.txt"].read()).decode()
    assert "Game: high-pair" in record.splitlines()
    assert "Result: seat 0 wins (show)" in record.splitlines()

    # /table rules words the toy's rules.
    r = await alice.slash(ch, "table rules")
    assert "Each player holds 3 cards" in message_text(r.response.message)

    # Rematch: a new lobby of the same game with the same seats.
    await bob.click(end, label="Rematch")
    lobby = table_of(world)
    assert lobby.status is TableStatus.LOBBY and lobby.game == GAME
    assert [s.name for s in lobby.seats] == ["alice", "bob"]
    assert custom_ids(ch.history()[-1])
