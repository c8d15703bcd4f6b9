"""Pieces of the Discord layer that need no Discord: the custom ids, the slow-work guard, the
text renderings."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.engine import Game, deal_from_tiles, format_tiles, make_rules, new_game, view
from bot.games.collecting.render.words import hand_text, pool_text
from bot.render.text import SeatLabel, rules_text, seats_text, tile_name
from cogs import desk_base as desk
from cogs.ui import CustomId, parse_custom_id
from tests.discord.tables_kit import (
    no_incidents,  # noqa: F401  (autouse: no error logged)
    tiles,
)


def test_custom_ids_round_trip_and_reject_strangers() -> None:
    for cid in (
        CustomId("0123456789ab", 17, "discard", "6-5"),
        CustomId("0123456789ab", None, "join"),
        CustomId("0123456789ab", 3, "choose-take"),
    ):
        assert parse_custom_id(str(cid)) == cid and len(str(cid)) <= 100
    assert str(CustomId("ab", 4, "take", "3-1")) == "kap:ab:4:take:3-1"
    assert str(CustomId("ab", None, "hand")) == "kap:ab:-:hand"
    for stranger in ("kap:ab:4:explode", "kap:AB:4:draw", "other:ab:4:draw", "kap:ab:x:draw"):
        assert parse_custom_id(stranger) is None


class _Response:
    def __init__(self) -> None:
        self.deferred: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        return bool(self.deferred)

    async def defer(self, **kwargs: Any) -> None:
        self.deferred.append(kwargs)


class _Interaction:
    def __init__(self, kind: discord.InteractionType) -> None:
        self.type = kind
        self.response = _Response()


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        (discord.InteractionType.application_command, {"ephemeral": True, "thinking": True}),
        (discord.InteractionType.component, {}),
    ],
)
async def test_slow_work_is_acknowledged_first(
    monkeypatch: pytest.MonkeyPatch, kind: discord.InteractionType, expected: dict[str, Any]
) -> None:
    monkeypatch.setattr(desk, "ACK_AFTER", 0.01)
    interaction = _Interaction(kind)

    async def slow() -> str:
        await asyncio.sleep(0.05)
        return "done"

    result = await desk.acknowledged_if_slow(interaction, slow(), ephemeral=True)  # type: ignore[arg-type]
    assert result == "done" and interaction.response.deferred == [expected]

    quick = _Interaction(kind)
    result = await desk.acknowledged_if_slow(quick, asyncio.sleep(0, "fast"), ephemeral=True)  # type: ignore[arg-type]
    assert result == "fast" and quick.response.deferred == []


def test_public_texts_hold_no_hand_and_private_text_names_tiles() -> None:
    rules = make_rules(Game.KAP_SHAP, 2)
    deal = deal_from_tiles(
        rules, [tiles("6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"), tiles("5-5 6-1 4-1 3-2 6-2 6-3 4-2")]
    )
    state = new_game(rules, ["alice", "bob"], deal)
    public = view(state, None)
    seats = [SeatLabel("alice"), SeatLabel("bob", is_ai=True)]
    text = seats_text(public, seats) + pool_text(public.pool)
    assert "▶ **alice** — 8 tiles (first)" in text and "bob 🤖 — 7 tiles" in text
    assert "6-6" not in text and public.hand == ()
    mine = hand_text(view(state, 0).hand)
    assert mine.splitlines()[0] == "`6-6` Heaven 天 ×2" and "`5-2` Seven 雜七" in mine
    assert format_tiles(view(state, 0).hand) == "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
    assert tile_name(tiles("4-2")[0]) == "`4-2` Gee Joon 至尊"
    explained = rules_text(make_rules(Game.KAP_TAI_SHAP, 6), ante=10, turn_seconds=60)
    assert "a hand of 10 tiles" in explained and "Classic" in explained
    assert "two identical military tiles may form the eye" in explained
