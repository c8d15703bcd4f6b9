"""What a player sees at the table, on a phone or with a screen reader (issue 18, "At the
table"): resigning asks first, the hand DM tells what the others did, Tsung Shap's capture
buttons say what they take and score, a full lobby's buttons and an old hand reply go quiet,
and words that read wrong."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest

from bot.engine import Deal, Game, deal_from_piles, make_rules, parse_tiles
from tests.discord.conftest import World
from tests.discord.tables_kit import (
    no_incidents,  # noqa: F401  (autouse: no error logged)
    table_of,
)


def labels(message: discord.Message) -> list[str]:
    """The labels of a message's buttons, in order."""
    return [
        str(getattr(child, "label", "") or "")
        for row in message.components
        for child in getattr(row, "children", [])
    ]


# ---------------------------------------------------------------------------- Tsung Shap


@pytest.fixture
def fishing_deal(monkeypatch: pytest.MonkeyPatch) -> Deal:
    """Alice (seat 0) turns over 1-1, 2-2, 6-6 …; bob 3-1, 6-6 …: alice's 2-2 sweeps the row
    1-1 3-1 (a sweep) and her 6-6 starts a new row; bob places his 6-6 beside it instead of
    pairing it, and alice claims the pair."""
    rules = make_rules(Game.TSUNG_SHAP)
    exact = deal_from_piles(rules, parse_tiles("1-1 2-2 6-6"), parse_tiles("3-1 6-6"), first_seat=0)
    exact = dataclasses.replace(exact, thrower=0, dice=(1, 1, 2, 2))

    def fixed(rules_: Any, rng: Any, thrower: int = 0) -> Deal:
        return exact

    monkeypatch.setattr("bot.services.tables.make_deal", fixed)
    return exact


async def table_message(world: World) -> discord.Message:
    """The table message once the coalesced edits went through."""
    await world.env.advance_time(2)
    table = table_of(world)
    [message] = [m for m in world.channel.history() if m.id == table.message_id]
    return message


async def test_tsung_shap_capture_and_claim_buttons_say_their_tiles_and_points(
    world: World, fishing_deal: Deal
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="tsung-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "draw")
    await bob.slash(ch, "draw")
    await alice.slash(ch, "draw")  # 2-2 against the row 1-1 3-1
    captures = [x for x in labels(await table_message(world)) if x.startswith("Capture")]
    assert captures == ["Capture triplet ends: 2-2 + 1-1 + 3-1 · sweep, 40 points"], captures

    await alice.slash(ch, "take")  # the sweep; her 6-6 starts a new row
    await bob.slash(ch, "draw")  # 6-6
    await bob.slash(ch, "discard", side="right")  # placed: a missed pair
    claims = [x for x in labels(await table_message(world)) if x.startswith("Claim")]
    assert claims == ["Claim pair left: 6-6 + 6-6 · 240 points"], claims
    await alice.click(await table_message(world), label=claims[0])
    public = table_of(world).view_for(None)
    assert public is not None and public.scores[0] == 40 + 240
