"""Per-server play settings, members' notices, kept messages, seat states and the command hash,
on a real SQLite file (what survives a restart is read back by a fresh service)."""

from __future__ import annotations

import pytest

from bot.services.errors import UserError
from bot.services.server import PlaySettings, ServerService
from bot.storage.db import Database

GUILD = 42


async def test_play_settings_default_change_reset_and_survive(db: Database) -> None:
    server = ServerService(db)
    assert await server.play_settings(GUILD) == PlaySettings(GUILD, "dm", 3, 15)
    changed = await server.update_play_settings(GUILD, notice_mode="both", timeout_limit=5)
    assert (changed.notice_mode, changed.timeout_limit, changed.lobby_minutes) == ("both", 5, 15)
    assert changed.dm_notices and changed.channel_notices
    assert await ServerService(db).play_settings(GUILD) == changed  # read back from the file
    with pytest.raises(UserError, match="Turn notices go by dm, channel, both"):
        await server.update_play_settings(GUILD, notice_mode="pigeon")
    with pytest.raises(UserError, match="timeout limit must be a whole number from 1 to 20"):
        await server.update_play_settings(GUILD, timeout_limit=0, lobby_minutes=5)
    assert (await server.play_settings(GUILD)).lobby_minutes == 15  # nothing was written
    reset = await server.update_play_settings(GUILD, reset=True, lobby_minutes=2)
    assert reset == PlaySettings(GUILD, "dm", 3, 2)


async def test_notices_messages_seats_and_the_command_hash(db: Database) -> None:
    server = ServerService(db)
    assert await server.notices_on(7)
    await server.set_notices(7, False)
    fresh = ServerService(db)
    assert not await fresh.notices_on(7)

    assert await fresh.command_hash() is None
    await fresh.set_command_hash("abc")
    assert await ServerService(db).command_hash() == "abc"
    await fresh.set_command_hash(None)
    assert await fresh.command_hash() is None

    async with db.transaction() as tx:  # a game row for the foreign keys
        await tx.execute(
            "INSERT INTO games (id, guild_id, channel_id, status, game, rules_json, seats_json,"
            " host_id, turn_seconds, created_at) VALUES ('g1', 1, 2, 'running', 'kap-shap', '{}',"
            " '[]', 7, 60, 'x')"
        )
    await server.keep_message("g1", 7, "hand", 100, 1000)
    await server.keep_message("g1", 7, "hand", 100, 1001)  # re-sent: replaces the old id
    await server.keep_message("g1", 7, "mention", 2, 500)
    kept = await ServerService(db).messages("g1")
    assert [(m.kind, m.message_id) for m in kept] == [("hand", 1001), ("mention", 500)]
    await server.forget_message("g1", 7, "mention")
    assert [m.kind for m in await server.messages("g1")] == ["hand"]

    await server.save_seat("g1", 1, 2, None)
    await server.save_seat("g1", 0, 0, "folded")
    states = await ServerService(db).seat_states("g1")
    assert [(s.seat, s.timeouts, s.out) for s in states] == [(0, 0, "folded"), (1, 2, None)]


async def test_review_permissions_per_server_and_member(db: Database) -> None:
    server = ServerService(db)
    assert (await server.play_settings(GUILD)).review_mode is None  # the bot-wide default
    changed = await server.update_play_settings(GUILD, review_mode="public")
    assert changed.review_mode == "public" and changed.notice_mode == "dm"
    assert (await ServerService(db).play_settings(GUILD)).review_mode == "public"
    with pytest.raises(UserError, match="Reviews are own or public"):
        await server.update_play_settings(GUILD, review_mode="friends")
    assert (await server.update_play_settings(GUILD, reset=True)).review_mode is None

    assert not await server.reviews_allowed(7)
    await server.set_reviews_allowed(7, True)
    assert await ServerService(db).reviews_allowed(7)
    assert await server.notices_on(7)  # a new settings row keeps turn notices on
    await server.set_notices(8, False)
    await server.set_reviews_allowed(8, True)
    fresh = ServerService(db)
    assert not await fresh.notices_on(8) and await fresh.reviews_allowed(8)
    await fresh.set_reviews_allowed(8, False)
    assert not await ServerService(db).reviews_allowed(8)


async def test_the_time_zone_is_checked_stored_and_reset(db: Database) -> None:
    """Issue 23, "Schedule": the zone members type times in (an IANA name; UTC by default)."""
    server = ServerService(db)
    assert (await server.play_settings(GUILD)).time_zone == "UTC"
    with pytest.raises(UserError, match="Unknown time zone 'Mars/Olympus'"):
        await server.update_play_settings(GUILD, time_zone="Mars/Olympus", timeout_limit=5)
    assert await server.play_settings(GUILD) == PlaySettings(GUILD)  # nothing was written
    changed = await server.update_play_settings(GUILD, time_zone=" Asia/Hong_Kong ")
    assert changed.time_zone == "Asia/Hong_Kong"
    assert await ServerService(db).play_settings(GUILD) == changed  # read back
    # Changing another setting keeps the zone; a reset forgets it.
    kept = await server.update_play_settings(GUILD, lobby_minutes=7)
    assert (kept.time_zone, kept.lobby_minutes) == ("Asia/Hong_Kong", 7)
    assert (await server.update_play_settings(GUILD, reset=True)).time_zone == "UTC"
