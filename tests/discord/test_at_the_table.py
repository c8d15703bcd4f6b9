"""What a player sees at the table, on a phone or with a screen reader (issue 18, "At the
table"): resigning asks first, the hand DM tells what the others did, Tsung Shap's capture
buttons say what they take and score, a full lobby's buttons and an old hand reply go quiet,
and words that read wrong."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord
import pytest
import simcord

from bot.engine import Deal, Game, Tile, make_rules, parse_tiles
from bot.games.fishing.engine import deal_from_piles
from bot.services.tables import TableStatus
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    add_ai,
    assert_hands_hidden,
    custom_ids,
    deal_every_table,
    exact_deal,
    hand_of,
    last_dm,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    resign,
    shown,
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

    deal_every_table(monkeypatch, fixed)
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
    # Bob's turn notice tells what alice did since his last turn.
    assert since_your_last_turn(last_dm(bob)) == (
        "**alice**: swept the row with `2-2` + `1-1` + `3-1`: 40 points, "
        "started a new row with `6-6`"
    )
    await bob.slash(ch, "draw")  # 6-6
    await bob.slash(ch, "discard", side="right")  # placed: a missed pair
    claims = [x for x in labels(await table_message(world)) if x.startswith("Claim")]
    assert claims == ["Claim pair left: 6-6 + 6-6 · 240 points"], claims
    await alice.click(await table_message(world), label=claims[0])
    public = table_of(world).view_for(None)
    assert public is not None and public.scores[0] == 40 + 240


# ---------------------------------------------------------------------------- lobby and hands

# alice wins on turn 5 by taking bob's 6-3 (the deal of test_play_slash).
ALICE = "6-6 6-6 1-1 4-4 3-1 3-3 6-5 5-2"
BOB = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4"


@pytest.fixture
def deal(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [ALICE, BOB], WALL, dice=(1, 1, 2, 2))


def enabled(message: discord.Message) -> dict[str, bool]:
    """Each button's label and whether it can be clicked."""
    return {
        str(child.label): not child.disabled
        for row in message.components
        for child in getattr(row, "children", [])
        if isinstance(child, discord.Button)
    }


def seen_by(
    member: simcord.MemberActor, channel: simcord.ChannelHandle, message_id: int
) -> discord.Message:
    """A message as the member's client shows it now (ephemeral replies included)."""
    [found] = [m for m in channel.history(viewer=member) if m.id == message_id]
    return found


async def test_a_full_lobby_greys_out_join_and_add_ai(world: World, deal: None) -> None:
    ch = world.channel
    alice, bob, carol = world.members[:3]
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await resign(bob, ch)
    end = ch.history()[-1]
    r = await alice.click(end, label="Rematch")
    lobby = r.response.message
    assert len(table_of(world).seats) == 2
    assert enabled(lobby) == {
        "Join": False,
        "Leave": True,
        "Add AI": False,
        "Start": True,
        "Cancel": True,
    }
    with pytest.raises(simcord.SetupError):
        await carol.click(lobby, label="Join")
    r = await carol.slash(ch, "table join")
    assert r.response.content == "The table is full (2 seats)."
    r = await alice.slash(ch, "table addbot")
    assert r.response.content == "The table is full (2 seats)."

    # Bob leaves: a seat is free, the buttons come back; carol takes it: greyed out again.
    await bob.click(lobby, label="Leave")
    assert enabled(seen_by(carol, ch, lobby.id))["Join"]
    await carol.click(lobby, label="Join")
    assert enabled(seen_by(carol, ch, lobby.id)) == {
        "Join": False,
        "Leave": True,
        "Add AI": False,
        "Start": True,
        "Cancel": True,
    }


async def test_an_old_hand_reply_loses_its_buttons_when_the_game_ends(
    world: World, deal: None
) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="kap-shap", timer=3600)
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    r = await alice.slash(ch, "hand")
    reply = r.response.message
    assert "Discard 6-5" in labels(seen_by(alice, ch, reply.id))
    await alice.click(reply, label="Discard 5-2")  # played from the reply: it is edited
    assert labels(seen_by(alice, ch, reply.id)) == ["Draw"]
    other = (await alice.slash(ch, "hand")).response.message
    assert labels(seen_by(alice, ch, other.id)) == ["Draw"]
    await resign(bob, ch)
    for message_id in (reply.id, other.id):
        seen = seen_by(alice, ch, message_id)
        assert labels(seen) == [] and "bob resigned: alice wins" in message_text(seen)

    # A reply too old for the bot to edit (Discord allows 15 minutes) keeps its buttons until
    # it is clicked: the click is refused and takes them off.
    await alice.click(end_message(world), label="Rematch")
    await bob.slash(ch, "table join")
    lobby = table_of(world)
    await alice.slash(ch, "table start")
    r = await alice.slash(ch, "hand")
    old = r.response.message
    await env.advance_time(16 * 60)
    await resign(bob, ch)
    assert "Discard 6-5" in labels(seen_by(alice, ch, old.id))
    r = await alice.click(seen_by(alice, ch, old.id), label="Discard 6-5")
    assert r.followups[-1].content == "This game is over."
    assert labels(seen_by(alice, ch, old.id)) == []
    assert lobby.status is not TableStatus.RUNNING


def end_message(world: World) -> discord.Message:
    """The latest end-of-game message (it carries Rematch)."""
    return next(m for m in reversed(world.channel.history()) if "Rematch" in labels(m))


# ---------------------------------------------------------------------------- resigning


async def test_resign_asks_first_and_says_it_once(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob, carol = world.members[:3]
    chips = world.bot.services.chips
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)

    # A slip: the question, privately; nothing happens until it is answered.
    r = await bob.slash(ch, "table resign")
    assert r.ephemeral
    assert r.response.content.startswith("**Resign?** alice would win this game and the pot.")
    assert "This question expires <t:" in r.response.content
    assert labels(r.response.message) == ["Resign", "Keep playing"]
    assert table.running and table.out == {}
    r = await bob.click(r.response, label="Keep playing")
    assert r.response.content == "You keep playing." and labels(r.response.message) == []
    assert table.running

    # A question left unanswered expires: its Resign does nothing and says so.
    old = (await bob.slash(ch, "table resign")).response
    await env.advance_time(61)
    r = await bob.click(old, label="Resign")
    assert r.response.content.startswith("This question has expired: nothing was done.")
    assert labels(r.response.message) == [] and table.running

    # Confirmed: one private line, the flag the table uses; the channel is told once.
    question = (await bob.slash(ch, "table resign")).response
    stale = (await bob.slash(ch, "table resign")).response  # a second copy of the question
    r = await bob.click(question, label="Resign")
    assert r.response.content == "🏳️ You resigned: alice wins."
    assert not table.running and await chips.balance(GUILD_ID, alice.id) == 1010
    end = ch.history()[-1]
    assert end.content.splitlines()[0] == "🏳️ bob resigned: alice wins."
    await env.advance_time(2)
    [message] = [m for m in ch.history() if m.id == table.message_id]
    assert "🏳️ bob resigned: alice wins." in message_text(message)
    assert "🏁" not in message_text(message) + end.content
    assert "🏳️ bob resigned: alice wins." in message_text(last_dm(alice))

    # The stale copy after the game ended: nothing happens, and it says so.
    r = await bob.click(stale, label="Resign")
    assert r.response.content == "This game is over: nothing was done."
    assert await chips.balance(GUILD_ID, alice.id) == 1010
    r = await carol.slash(ch, "table resign")
    assert r.response.content == "This game is over."


async def test_a_question_asked_before_a_seat_folded_does_nothing(world: World) -> None:
    """At three seats resigning folds the seat; once another seat has folded it would end the
    game instead: a question asked before that is stale."""
    ch = world.channel
    alice, bob, carol = world.members[:3]
    await alice.slash(ch, "table new", game="kap-tai-shap", seats=3)
    await bob.slash(ch, "table join")
    await carol.slash(ch, "table join")
    await alice.slash(ch, "table start")
    table = table_of(world)
    r = await alice.slash(ch, "table resign")
    assert r.response.content.startswith(
        "**Resign?** Your seat would fold: your ante stays in the pot and you can no longer win."
    )
    await resign(carol, ch)
    assert list(table.out) == [2] and table.running
    r = await alice.click(r.response, label="Resign")
    assert r.response.content.startswith("The game changed since you were asked: nothing was done.")
    assert list(table.out) == [2] and table.running
    r = await resign(alice, ch)
    assert r.response.content == "🏳️ You resigned: bob wins."


# ---------------------------------------------------------------------------- words


async def test_a_turned_tile_is_told_once_in_the_answer_to_draw(
    world: World, fishing_deal: Deal
) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="tsung-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "draw")
    await bob.slash(ch, "draw")
    r = await alice.slash(ch, "draw")  # 2-2: she is to capture or place it
    lines = shown(r.response.content).splitlines()
    assert lines[0] == "You turned over `2-2` Bench 板凳 (14 left in your pile)."
    assert lines[1].startswith("You may `capture triplet ends` (40 points) with `/take`")
    assert len(lines) == 2 and "your turn" not in shown(r.response.content).lower()


async def test_taking_back_ones_own_discard_reads_as_such(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    await alice.slash(ch, "discard", tile="5-2")
    await alice.slash(ch, "draw")
    await alice.slash(ch, "discard", tile="2-2")
    await bob.slash(ch, "draw")
    await bob.slash(ch, "discard", tile="6-4")
    r = await alice.slash(ch, "take", tile="5-2")  # Culin: her own discard may be taken back
    assert shown(r.response.content).splitlines()[0] == "You took back `5-2` Seven 雜七."
    await env.advance_time(2)
    [message] = [m for m in ch.history() if m.id == table_of(world).message_id]
    assert "alice took back 5-2 Seven 雜七." in message_text(message)
    assert "discarded by alice" not in message_text(message) + shown(r.response.content)


async def test_filling_a_tournament_counts_its_computer_players(world: World) -> None:
    ch, admin = world.channel, world.admin
    await admin.slash(ch, "tournament new", name="Cup", buy_in=0)
    r = await admin.slash(ch, "tournament fill", count=1, level="random")
    assert r.response.content == "Added 1 computer player to **Cup**."
    r = await admin.slash(ch, "tournament fill", count=2, level="random")
    assert r.response.content == "Added 2 computer players to **Cup**."


# ---------------------------------------------------------------------------- what the others did

TILE = re.compile(r"`([1-6])-([1-6])`")


def since_your_last_turn(message: discord.Message) -> str | None:
    """The hand DM's "Since your last turn" field (Tsung Shap: its paragraph), if any."""
    [embed] = message.embeds
    for embed_field in embed.fields:
        if embed_field.name == "Since your last turn":
            return shown(embed_field.value)
    marker = "**Since your last turn:** "
    text = shown(embed.description)
    return text.split(marker, 1)[1] if marker in text else None


async def test_the_hand_dm_tells_what_the_others_did(world: World, deal: None) -> None:
    ch = world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    assert since_your_last_turn(last_dm(alice)) is None  # nothing happened yet
    await alice.slash(ch, "discard", tile="5-2")
    await alice.slash(ch, "draw")
    await alice.slash(ch, "discard", tile="2-2")
    # Bob's turn notice: alice's whole turn, her draw unnamed.
    assert since_your_last_turn(last_dm(bob)) == (
        "**alice**: discarded `5-2`, drew a tile, discarded `2-2`"
    )
    await bob.user.click(last_dm(bob), label="Take 5-2")
    assert since_your_last_turn(last_dm(bob)) is None  # his own move starts it again
    await bob.slash(ch, "discard", tile="6-3")
    await bob.slash(ch, "draw")
    await bob.slash(ch, "discard", tile="6-4")
    assert since_your_last_turn(last_dm(alice)) == (
        "**bob**: took your `5-2`, discarded `6-3`, drew a tile, discarded `6-4`"
    )


async def test_the_others_moves_never_show_a_hidden_tile(world: World) -> None:
    """Three members and a computer play Kap Tai Shap by their turn timers (a draw and a
    discard each): after every turn, no member's "since your last turn" names a tile that is
    in another player's hand and was never face up."""
    env, ch = world.env, world.channel
    alice, bob, carol = world.members[:3]
    players = [alice, bob, carol]
    r = await alice.slash(ch, "table new", game="kap-tai-shap", seats=4, timer=30)
    await bob.click(r.response.message, label="Join")
    await carol.click(r.response.message, label="Join")
    await add_ai(alice, r.response.message)
    await alice.click(r.response.message, label="Start")
    table = table_of(world)
    told = 0
    for _ in range(14):
        await env.advance_time(table.turn_seconds + 1)
        if not table.running or table.state is None:
            break
        face_up = {m.tile for m in table.state.history if m.tile is not None}
        for member in players:
            text = since_your_last_turn(last_dm(member))
            if text is None:
                continue
            told += 1
            named = {Tile(int(a), int(b)) for a, b in TILE.findall(text)}
            hidden = {t for other in players if other is not member for t in hand_of(world, other)}
            assert not named & (hidden - face_up), (member.name, text)
            assert "drew `" not in text
        await assert_hands_hidden(world, players)
    assert told >= 10


# ---------------------------------------------------------------------------- tiles on a phone

# A tile's notation with a plain ASCII hyphen, standing alone (a phone may wrap after it).
BREAKABLE = re.compile(r"(?<![0-9A-Za-z_-])[1-6]-[1-6](?![0-9A-Za-z_-])")
WJ = "\u2060"


def raw_text(message: discord.Message) -> str:
    """What a message displays, as sent (no joiner removed): content and embed text."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.description or ""] + [f.value or "" for f in embed.fields]
    return "\n".join(parts)


def parsed_parts(message: discord.Message) -> list[str]:
    """What is read back or stays machine-facing: custom ids, labels, descriptions, files."""
    out = [c for c in custom_ids(message)]
    out += labels(message)
    out += [a.description or "" for a in message.attachments]
    out += [a.filename for a in message.attachments]
    return out


async def test_tiles_stay_whole_at_phone_width_and_copy_back(world: World, deal: None) -> None:
    env, ch = world.env, world.channel
    alice, bob = world.members[:2]
    await alice.slash(ch, "table new", game="kap-shap")
    await bob.slash(ch, "table join")
    await alice.slash(ch, "table start")
    r = await alice.slash(ch, "discard", tile="5-2")
    reply = r.response.content
    r = await alice.slash(ch, "draw")
    reply += r.response.content
    await env.advance_time(2)
    shown_messages = [*ch.history(), last_dm(alice), last_dm(bob)]
    texts = [reply] + [raw_text(m) for m in shown_messages]
    # Every tile on display is joined to its hyphen: none can break after it.
    assert all(BREAKABLE.findall(text) == [] for text in texts), texts
    assert f"`5{WJ}-{WJ}2`" in reply and f"`2{WJ}-{WJ}2`" in reply
    assert any(f"5{WJ}-{WJ}2" in text for text in texts[1:])
    # What is parsed or kept stays ASCII: ids, labels, descriptions, autocomplete, records.
    assert not any(WJ in part for m in shown_messages for part in parsed_parts(m))
    offered = await alice.autocomplete(ch, "discard", "tile", "")
    assert "2-2" in [c["value"] for c in offered]
    assert not any(WJ in c["name"] + c["value"] for c in offered)

    # A tile copied from a message reads back: joiners, backticks, a non-breaking hyphen.
    copied = f"2{WJ}-{WJ}2"
    offered = await alice.autocomplete(ch, "discard", "tile", copied)
    assert offered == [{"name": "2-2 Bench 板凳", "value": "2-2"}]
    r = await alice.slash(ch, "discard", tile=copied)
    assert shown(r.response.content).startswith("You discarded `2-2` Bench 板凳.")
    r = await bob.slash(ch, "take", tile="`5-2`")
    assert shown(r.response.content).startswith("You took `5-2` Seven 雜七 discarded by alice.")
    r = await bob.slash(ch, "discard", tile="6\u20113")
    assert shown(r.response.content).startswith("You discarded `6-3` Nine 雜九.")
    async with world.bot.services.db.read() as tx:
        rows = await tx.fetchall("SELECT notation FROM game_actions ORDER BY seq")
    notations = [row["notation"] for row in rows]
    assert "discard 2-2" in notations and "discard 6-3" in notations
    assert all(n.isascii() for n in notations), notations
