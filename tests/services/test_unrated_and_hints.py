"""Unrated tables, hints and the hand guide's setting on the services, on both backends (the
``db`` fixture): an unrated table survives a restart, is recorded but moves no rating; a hint is
refused where it is not allowed and noted in the game where it is; the guide's default and a
member's choice."""

from __future__ import annotations

import random

import pytest

from bot.engine import legal_actions
from bot.games.collecting.engine.actions import Declare
from bot.services.clock import ManualClock
from bot.services.errors import UserError
from bot.services.server import GUIDE_GAMES, ServerService
from bot.services.tables import SeatInfo, TableService
from bot.services.tables.play import NO_HINTS
from bot.storage.db import Database
from bot.storage.ratings import MemberRating, RatingsRepo
from tests.services.test_ratings import GUILD, services

ALICE, BOB = 11, 12


async def open_against_the_computer(tables: TableService, channel: int, *, rated: bool) -> None:
    await tables.open_table(
        guild_id=GUILD, channel_id=channel, host_id=ALICE, host_name="Alice", rated=rated
    )
    await tables.add_ai(channel, ALICE, "greedy")


async def play_out(tables: TableService, channel: int, seed: int) -> None:
    """Alice plays random legal moves (declaring when she can) until the game ends."""
    table = tables.require(channel)
    rng = random.Random(seed)
    while table.running:
        assert table.state is not None
        legal = legal_actions(table.state)
        action = Declare() if Declare() in legal else rng.choice(legal)
        await tables.act(channel, ALICE, action, version=table.version)


async def test_an_unrated_table_survives_a_restart_and_moves_no_rating(db: Database) -> None:
    clock = ManualClock()
    tables, ratings = services(db, clock)
    await open_against_the_computer(tables, 1, rated=False)
    await open_against_the_computer(tables, 2, rated=True)
    await tables.start(2, ALICE)
    # A restart (another process, the same database) rebuilds both from their rows.
    again, _ = services(db, clock)
    await again.restore()
    assert not again.require(1).rated and again.require(2).rated
    await again.start(1, ALICE)
    third, _ = services(db, clock)
    await third.restore()
    assert not third.require(1).rated and third.require(1).hints_allowed()

    # Played to the end: recorded (games, wins, history) but not rated.
    seed = 0
    while True:
        await play_out(third, 1, seed)
        member = await ratings.rating(GUILD, ALICE, "kap-shap")
        assert member is not None
        if member.games > member.draws:  # a game with a winner
            break
        seed += 1  # a drawn game proves nothing here: play again
        await open_against_the_computer(third, 1, rated=False)
        await third.start(1, ALICE)
    assert member.rated_games == 0 and member.rating is None
    assert member.mu is None and member.sigma is None  # never rated
    history = await ratings.history(GUILD, ALICE)
    decided = [h for h in history if h.result != "draw"]
    assert decided and all(h.unrated and h.rating is None for h in decided)


async def test_a_hint_is_noted_where_allowed_and_refused_elsewhere(db: Database) -> None:
    clock = ManualClock()
    tables, _ = services(db, clock)
    await open_against_the_computer(tables, 1, rated=False)
    await tables.start(1, ALICE)
    table = tables.require(1)
    assert table.state is not None and table.seats[table.state.current].user_id == ALICE
    legal = [str(action) for action in table.legal()]
    words = await tables.hint(1, ALICE)
    assert words.template == "{move}: {why}"
    [(seat, turn, move)] = await tables.hints_of(table.id)
    assert (seat, turn) == (0, table.state.turn) and move in legal
    with pytest.raises(UserError, match="not playing at this table"):
        await tables.hint(1, BOB)

    await open_against_the_computer(tables, 2, rated=True)
    await tables.start(2, ALICE)
    with pytest.raises(UserError) as refused:
        await tables.hint(2, ALICE)
    assert refused.value.args[0] == NO_HINTS
    assert await tables.hints_of(tables.require(2).id) == []

    # A tournament's table is always rated: no hint there either.
    outcome = await tables.open_seated(
        guild_id=GUILD,
        channel_id=3,
        host_id=ALICE,
        game="kap-shap",
        seats=[SeatInfo("Alice", user_id=ALICE), SeatInfo("AI 1", ai_level="greedy")],
    )
    assert outcome.table.rated and not outcome.table.hints_allowed()


async def test_the_hand_guide_setting(db: Database) -> None:
    server = ServerService(db)
    # No choice made: on for the first games of each game, then off.
    assert await server.guide_on(ALICE, GUILD, "kap-shap")
    assert await server.guide_choice(ALICE) is None
    async with db.transaction() as tx:
        await RatingsRepo().put_member(
            tx, MemberRating(GUILD, "kap-shap", ALICE, games=GUIDE_GAMES, wins=3)
        )
    assert not await server.guide_on(ALICE, GUILD, "kap-shap")
    assert await server.guide_on(ALICE, GUILD, "tsung-shap")  # another game: still new
    # His choice wins either way, and is kept (read back by a fresh service).
    await server.set_guide(ALICE, True)
    assert await ServerService(db).guide_on(ALICE, GUILD, "kap-shap")
    await server.set_guide(ALICE, False)
    fresh = ServerService(db)
    assert await fresh.guide_choice(ALICE) is False
    assert not await fresh.guide_on(ALICE, GUILD, "tsung-shap")
    # Choosing the guide does not turn his turn notices off (a new settings row).
    assert await fresh.notices_on(ALICE)
