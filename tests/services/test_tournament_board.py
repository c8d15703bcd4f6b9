"""The live standings board across processes (issue 23): whichever process saw a result, one
of them draws each version of the event once; a drawing waits for another's and reads the
event under the board's lock; the board posted again after a deletion is remembered."""

from __future__ import annotations

import asyncio

import pytest

from bot.services.clock import ManualClock
from bot.services.tournaments import settings_from_options
from tests.services.test_two_tournament_services import (  # noqa: F401  (the fixture)
    GUILD,
    ORGANISER,
    USERS,
    Process,
    two,
)


async def test_each_version_of_the_board_is_drawn_once_across_processes(
    request: pytest.FixtureRequest,
    two: tuple[Process, Process, ManualClock, list[str]],  # noqa: F811  (the fixture)
) -> None:
    one, other, _, _ = two
    settings = settings_from_options(
        game="kap-shap",
        format=None,
        best_of=1,
        rounds=2,
        buy_in=0,
        prize_split=None,
        seats_limit=8,
    )
    view = await one.events.create(
        guild_id=GUILD, channel_id=5, organiser_id=ORGANISER, name="Cup", settings=settings
    )
    await one.events.set_message(view.id, 500)

    # The first drawing edits the sign-up message; the other process finds that version drawn.
    async with one.events.board_turn(view.id) as turn:
        assert turn is not None and turn.message_id == 500
        await one.events.board_drawn(turn, 500)
    async with other.events.board_turn(view.id) as turn:
        assert turn is None
    async with other.events.board_turn(view.id, redraw=True) as turn:  # a click, say
        assert turn is not None

    # A new version (an entrant, a result: here a join and the event's write) is drawn once.
    for user in USERS:
        await other.events.join(view.id, user, f"member{user}")
    await one.events.set_message(view.id, 500)  # a write of the event's row: a new version
    async with other.events.board_turn(view.id) as turn:
        assert turn is not None
        # It was deleted: the process posted it again as message 501.
        await other.events.board_drawn(turn, 501)
    async with one.events.board_turn(view.id, redraw=True) as turn:
        assert turn is not None and turn.message_id == 501  # later drawings edit the new one

    if "sqlite" in request.node.callspec.id:
        return  # one process: its board lock is this process's own
    # Across processes, a drawing waits for the other's to finish, then reads what it stored.
    await one.events.set_message(view.id, 500)
    order: list[str] = []
    inside = asyncio.Event()
    leave = asyncio.Event()

    async def first() -> None:
        async with one.events.board_turn(view.id) as turn:
            assert turn is not None
            order.append("one draws")
            inside.set()
            await leave.wait()
            await one.events.board_drawn(turn, turn.message_id)
            order.append("one done")

    async def second() -> None:
        await inside.wait()
        async with other.events.board_turn(view.id) as turn:
            order.append("other: nothing to draw" if turn is None else "other draws")

    waiting = asyncio.gather(first(), second())
    await inside.wait()
    await asyncio.sleep(0.2)  # the other process is waiting for the board's lock meanwhile
    assert order == ["one draws"]
    leave.set()
    await waiting
    assert order == ["one draws", "one done", "other: nothing to draw"]
