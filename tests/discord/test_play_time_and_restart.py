"""Turn timers on the virtual clock, a restart in the middle of a game, coalesced table edits and
the number of Discord API calls a human action costs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.app import KapBot
from bot.engine import Game, format_tiles
from bot.services.tables import Outcome, Table, TableService, TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    add_ai,
    api_calls,
    custom_ids,
    edits_of,
    exact_deal,
    hand_of,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)

pytestmark = pytest.mark.both_backends

ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal of test_play_slash: alice starts."""
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


async def test_an_expired_turn_is_played_passively(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", timer=30)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.state is not None and table.state.current == 0
    channel_lines = len(ch.history())

    await env.advance_time(29)
    assert table.state.current == 0 and len(hand_of(world, alice)) == 8
    await env.advance_time(2)
    assert table.state is not None and table.state.current == 1  # alice's turn was played
    # Told in the table message, not by a new line in the channel.
    assert len(ch.history()) == channel_lines
    await env.advance_time(1)
    text = message_text(ch.history()[0])
    assert "⏰ alice ran out of time (1/3): the turn was played passively." in text
    assert len(hand_of(world, alice)) == 7 and table.state.turn == 2
    dm = message_text(last_dm(alice))
    assert "⏰ (played for you) You discarded" in dm and "not your turn" in dm
    assert custom_ids(last_dm(bob))  # bob's turn: his DM has buttons
    assert "Turn 2: **bob** to take a discard or draw" in text

    # Bob plays his turn; alice plays hers herself again.
    await bob.slash(ch, "draw")
    await bob.slash(ch, "discard", tile="4-2")
    r = await alice.slash(ch, "draw")
    assert r.ephemeral and "You drew" in r.response.content
    assert table.state is not None and table.state.current == 0 and table.running


async def test_a_restart_mid_game_resumes_every_tile_and_chip(
    world: World, deal: None, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "discard", tile="5-2")
    await alice.slash(ch, "draw")  # alice holds 8 again and must discard
    before = table_of(world)
    assert before.state is not None
    old_dm = last_dm(alice)
    old_buttons = custom_ids(old_dm)
    assert f"kap:{before.id}:{before.version}:discard:2-2" in old_buttons
    saved = (
        before.state.hands,
        before.state.pool,
        before.state.wall_pos,
        before.state.phase,
        before.version,
        before.deadline,
        before.message_id,
    )

    bot = await restart()

    after = table_of(world)
    assert after is not before and after.state is not None
    assert (
        after.state.hands,
        after.state.pool,
        after.state.wall_pos,
        after.state.phase,
        after.version,
        after.deadline,
        after.message_id,
    ) == saved
    chips = bot.services.chips
    assert await chips.balance(GUILD_ID, alice.id) == 990
    assert await chips.balance(GUILD_ID, bob.id) == 990
    pot = await chips.pot(after.id)
    assert pot is not None and pot.total == 20
    # The table message says so, with its buttons. Each player still has exactly one DM: the
    # one sent before the restart, which stays live (its id is kept in the database).
    table_message = ch.history()[0]
    assert "♻️ Restored after a restart." in message_text(table_message)
    assert custom_ids(table_message) == [f"kap:{after.id}:-:hand", f"kap:{after.id}:-:rules"]
    assert len(alice.user.dm_channel.history()) == 1 and len(bob.user.dm_channel.history()) == 1
    assert last_dm(alice).id == old_dm.id and custom_ids(last_dm(alice)) == old_buttons

    # The DM sent before the restart still works (same version), and is edited in place.
    r = await alice.user.click(old_dm, label="Discard 2-2")
    assert r.response.id == old_dm.id
    assert format_tiles(hand_of(world, alice)) == "6-6 6-6 1-1 4-4 3-1 3-3 6-5"
    # Bob's turn: his DM is sent again (notified) and the old one deleted.
    [bob_dm] = bob.user.dm_channel.history()
    assert custom_ids(bob_dm) and bob_dm.content.startswith("🀄 Your turn at")
    # The turn timer runs on: bob's turn is played for him when it expires.
    assert after.state is not None and after.state.current == 1
    assert after.deadline is not None
    await env.advance_time(after.deadline - env.now().timestamp() + 1)
    assert after.state is not None and after.state.current == 0 and after.state.turn == 3
    assert "bob ran out of time" in message_text(ch.history()[0])
    assert after.status is TableStatus.RUNNING
    assert (await chips.total_supply_check(GUILD_ID)).ok


async def test_a_burst_of_computer_turns_makes_one_edit(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact_deal(
        monkeypatch,
        Game.KAP_TAI_SHAP,
        [
            "4-4 3-3 3-3 2-2 6-5 5-1 5-4 5-4 5-3 5-2",
            "3-1 3-1 5-5 5-5 3-3 2-2 5-1 5-2 3-2",
            "1-1 3-1 5-5 3-3 2-2 5-1 6-2 4-2 2-1",
            "6-6 6-6 6-6 1-1 4-4 6-4 6-1 6-3 6-3",
        ],
        dice=(1, 1, 1, 1),
    )
    env, ch = world.env, world.channel
    alice = world.members[0]
    await alice.slash(ch, "table new", game="kap-tai-shap", seats=4)
    lobby = ch.history()[0]
    for _ in range(3):
        await add_ai(alice, lobby)
    await alice.click(lobby, label="Start")
    table = table_of(world)
    await env.advance_time(1)

    # Alice's discard ends her turn; three computer turns follow: one edit in all.
    with api_calls(env) as calls:
        await alice.user.click(last_dm(alice), label="Discard 6-5")
    assert table.state is not None and (table.state.turn >= 5 or not table.running)
    assert edits_of(calls, ch.id, lobby.id) == 1
    text = message_text(ch.history()[0])
    assert "AI 3 (Beginner) discarded" in text or not table.running
    with api_calls(env) as calls:
        await env.advance_time(2)
    assert edits_of(calls, ch.id, lobby.id) == 0  # nothing was left to flush


async def test_quick_actions_share_an_edit_and_cost_four_calls_on_average(
    world: World, deal: None
) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    assert table.message_id is not None
    await env.advance_time(1)

    # First change: answer, alice's DM, the table message at once.
    with api_calls(env) as calls:
        await alice.slash(ch, "discard", tile="5-2")
    assert len(calls) == 3 and edits_of(calls, ch.id, table.message_id) == 1
    # Second change in the same second: answer and DM now, the table edit waits for the tick.
    with api_calls(env) as calls:
        await alice.slash(ch, "draw")
    assert len(calls) == 2 and edits_of(calls, ch.id, table.message_id) == 0
    with api_calls(env) as calls:
        await env.advance_time(1)
    assert [c.method for c in calls] == ["PATCH"]
    assert edits_of(calls, ch.id, table.message_id) == 1
    # The turn passes: answer, alice's DM, the table message, and bob's turn notice: his DM
    # sent again as a new message (Discord notifies it) and the old one deleted.
    await env.advance_time(1)
    old_bob_dm = last_dm(bob)
    with api_calls(env) as calls:
        await alice.slash(ch, "discard", tile="2-2")
    assert len(calls) == 5 and edits_of(calls, ch.id, table.message_id) == 1
    dm_path = f"/channels/{bob.user.dm_channel.id}/messages"
    assert [(c.method, c.path) for c in calls if c.path.startswith(dm_path)] == [
        ("POST", dm_path),
        ("DELETE", f"{dm_path}/{old_bob_dm.id}"),
    ]
    # A click in the DM: the click's answer edits the DM itself (no separate DM edit).
    await env.advance_time(1)
    with api_calls(env) as calls:
        await bob.user.click(last_dm(bob), label="Take 5-2")
    assert len(calls) == 3, calls  # defer, the DM edited in place, the table message
    # Over these five actions: 3 + 2 + 1 (the flush) + 5 + 3 = 14 calls, under 4 on average.
    assert custom_ids(last_dm(bob))[0] == f"kap:{table.id}:{table.version}:discard:5-5"


async def test_lobby_buttons_work_after_a_restart(
    world: World, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new")
    lobby = ch.history()[0]
    await restart()
    r = await bob.click(lobby, label="Join")
    assert r.response.id == lobby.id and "2. bob" in message_text(ch.history()[0])
    await alice.click(lobby, label="Start")
    assert table_of(world).running


async def test_computer_seats_play_on_after_a_crash_before_their_turn(
    world: World, deal: None, restart: Callable[[], Awaitable[KapBot]]
) -> None:
    env, ch = world.env, world.channel
    alice = world.members[0]
    await alice.slash(ch, "table new")
    await alice.slash(ch, "table addbot", level="beginner")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "discard", tile="5-2")
    await alice.slash(ch, "draw")

    async def crash(self: TableService, table: Table, outcome: Outcome) -> None:
        """The process dies after alice's move is saved, before the computer's turn."""

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TableService, "_advance", crash)
        await alice.slash(ch, "discard", tile="2-2")
    stuck = table_of(world)
    assert stuck.state is not None and stuck.state.current == 1 and stuck.state.turn == 2

    await restart()
    table = table_of(world)
    assert table.state is not None
    assert table.state.turn >= 3 or not table.running  # the computer played its turn
    assert "AI 1 (Beginner)" in message_text(ch.history()[0])
    if table.running:
        assert table.state.current == 0 and custom_ids(last_dm(alice))
    await env.advance_time(1)
