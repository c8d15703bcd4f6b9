"""Whole tournaments through simcord, from sign-up to payout (docs/tournaments.md).

Games are kept short with an exact deal: the first seat (the higher seed of a two-player match)
is dealt a winning hand and may declare at once; the test declares for some players, lets
others time out (a no-show forfeits by the table's timeout rules), and restarts the bot in the
middle of a round. Chips are checked against the invariant at the end.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import simcord

from bot.app import KapBot
from bot.engine import Deal, Game, deal_from_tiles, parse_tiles
from bot.engine.tiles import KINDS, PIECE_KINDS, PIECES_PER_SET
from bot.services.tables import Table
from bot.services.tournaments import TournamentService
from bot.storage.integrity import find_problems
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    deal_every_table,
    exact_deal,
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    resign,
)

pytestmark = pytest.mark.both_backends

# The first seat is dealt a winning hand: eye 6-6 6-6, 4-4+1-1, 3-1+3-3, 6-5+5-4.
WINNING = "6-6 6-6 4-4 1-1 3-1 3-3 6-5 5-4"
OTHER = "5-5 6-1 4-1 3-2 6-2 6-3 4-2"
WALL = "2-2 6-4 5-1 5-1 6-1 2-1 5-3 5-2 4-3 3-3 2-2 1-1 4-4 5-5 6-4"
START = 1000  # the test settings' starting chips


@pytest.fixture
def quick_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    exact_deal(monkeypatch, Game.KAP_SHAP, [WINNING, OTHER], WALL, dice=(1, 1, 2, 2))


def service(world: World) -> TournamentService:
    # discord.py loads an extension as its own module object: compare by name, not class.
    found = world.bot.get_cog("Tournaments")
    assert found is not None
    tournaments = found.service  # type: ignore[attr-defined]
    assert isinstance(tournaments, TournamentService)
    return tournaments


def more_members(world: World, names: list[str]) -> list[simcord.MemberActor]:
    return [world.guild.add_member(world.env.create_user(name)) for name in names]


def running_tables(world: World) -> list[Table]:
    """The tournament's tables being played (in threads of the game channel)."""
    threads = {t.id for t in world.channel.threads}
    return [t for t in world.bot.services.tables.tables() if t.running and t.channel_id in threads]


def thread_of(world: World, table: Table) -> simcord.ChannelHandle:
    [thread] = [t for t in world.channel.threads if t.id == table.channel_id]
    return thread


async def declare_all(
    world: World, actors: dict[int, simcord.MemberActor], *, limit: int | None = None
) -> int:
    """The player to act at each running table declares his winning hand; how many did."""
    done = 0
    for table in running_tables(world):
        if limit is not None and done >= limit:
            break
        assert table.state is not None
        seat = table.seats[table.state.current]
        assert seat.user_id is not None
        r = await actors[seat.user_id].slash(thread_of(world, table), "declare")
        assert "You declared a winning hand" in r.response.content, r.response.content
        done += 1
    return done


async def check_chips(world: World) -> None:
    async with world.bot.services.db.read() as tx:
        problems, totals = await find_problems(tx)
    assert problems == [], [str(p) for p in problems]
    assert totals.ok


async def test_a_swiss_event_of_eight_members_from_sign_up_to_payout(
    world: World,
    quick_deal: None,
    restart: Callable[[], Awaitable[KapBot]],
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    members = world.members + more_members(world, ["frank", "grace", "heidi"])
    actors = {m.id: m for m in members}

    # The organiser creates the event; the sign-up message has Join / Leave.
    r = await admin.slash(
        ch,
        "tournament new",
        name="Club Swiss",
        buy_in=50,
        prize_split="60/30/10",
        timer=30,
        round_minutes=60,
    )
    assert "Club Swiss" in r.response.content
    signup = ch.history()[-1]
    # A member without the organiser role may not create one.
    r = await members[0].slash(ch, "tournament new", name="Mine")
    assert r.ephemeral and "organiser role" in r.response.content

    for member in members:
        r = await member.click(signup, label="Join")
        assert r.ephemeral and "You are in" in r.response.content
    r = await members[0].click(signup, label="Join")
    assert r.ephemeral and "already entered" in r.response.content
    # Leave before the start refunds the buy-in; joining again takes a fresh one.
    r = await members[1].click(signup, label="Leave")
    assert "refunded" in r.response.content
    chips = world.bot.services.chips
    assert await chips.balance(GUILD_ID, members[1].id) == START
    await members[1].click(signup, label="Join")
    assert await chips.balance(GUILD_ID, members[1].id) == START - 50
    await check_chips(world)

    view = await service(world).current(GUILD_ID)
    assert view.pool == 400 and len(view.entries) == 8
    r = await members[0].slash(ch, "tournament start")
    assert r.ephemeral and "organiser" in r.response.content
    await admin.slash(ch, "tournament start")

    # Round 1: four threads, four tables; every first seat declares.
    assert len(ch.threads) == 4 and len(running_tables(world)) == 4
    assert any("round 1" in m.content for m in ch.history())
    assert await declare_all(world, actors) == 4
    assert any("standings after round 1" in m.content for m in ch.history())

    # Round 2: two matches are played, then the bot restarts in the middle of the round.
    assert len(running_tables(world)) == 4
    assert await declare_all(world, actors, limit=2) == 2
    await restart()
    world_bot = env.bot
    assert isinstance(world_bot, KapBot)
    assert len(running_tables(world)) == 2
    assert await declare_all(world, actors) == 2
    assert any("standings after round 2" in m.content for m in ch.history())

    # Round 3: three first seats declare; at the fourth table nobody moves, and the timeouts
    # decide it (the table's forfeit rule).
    assert len(running_tables(world)) == 4
    assert await declare_all(world, actors, limit=3) == 3
    [idle] = running_tables(world)
    for _ in range(10):
        if not idle.running:
            break
        await env.advance_time(31)
    assert not idle.running

    # The end: results name the prize winners; the pool is paid 240 / 120 / 40.
    view = await service(world).view(view.id)
    assert view.record.status == "finished"
    results = [m for m in ch.history() if "is over" in m.content]
    assert results, [m.content for m in ch.history()[-5:]]
    assert results[-1].attachments  # the standings picture
    chips = world.bot.services.chips  # the restarted bot's
    paid = {m.id: await chips.balance(GUILD_ID, m.id) - (START - 50) for m in members}
    assert sorted(paid.values(), reverse=True)[:4] == [240, 120, 40, 0]
    assert sum(paid.values()) == 400
    await check_chips(world)

    # History and rules.
    r = await members[2].slash(ch, "tournament history")
    assert "Club Swiss" in r.response.content
    r = await members[2].slash(ch, "tournament rules", event=view.id)
    assert r.ephemeral and "Swiss" in r.response.content


def quick_deal_for(rules: Any, rng: Any, thrower: int = 0) -> Deal:
    """A deal of any size in which the first seat holds a winning hand (and acts first)."""
    winning = parse_tiles(WINNING + (" 5-5 5-5" if rules.hand_size == 10 else ""))
    left: Counter[int] = Counter(PIECE_KINDS[p % PIECES_PER_SET] for p in range(rules.tile_count))
    for tile in winning:
        left[tile.index] -= 1
    rest = [KINDS[k] for k in sorted(left) for _ in range(left[k])]
    hands = [winning]
    for _ in range(1, rules.players):
        hands.append(rest[: rules.hand_size - 1])
        rest = rest[rules.hand_size - 1 :]
    deal = deal_from_tiles(rules, hands, rest[:10])
    total = next(t for t in range(4, 25) if t % rules.players == 0)
    dice = (1, 1, 1, total - 3) if total - 3 <= 6 else (6, 6, 6, total - 18)
    return dataclasses.replace(deal, thrower=0, dice=dice)


@pytest.fixture
def quick_any(monkeypatch: pytest.MonkeyPatch) -> None:
    deal_every_table(monkeypatch, quick_deal_for)


async def test_a_swiss_event_of_five_gives_byes_takes_a_drop_and_pauses(
    world: World, quick_any: None
) -> None:
    ch, admin = world.channel, world.admin
    members = world.members
    actors = {m.id: m for m in members}
    await admin.slash(ch, "tournament new", name="Five", buy_in=10, timer=30)
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    tournaments = service(world)
    view = await tournaments.current(GUILD_ID)
    await admin.slash(ch, "tournament start")

    # Round 1: two matches and a bye (a win without games).
    assert len(running_tables(world)) == 2
    view = await tournaments.view(view.id)
    assert view.event is not None and view.event.current_round is not None
    byes = [m for m in view.event.current_round.matches if m.is_bye]
    assert len(byes) == 1
    await declare_all(world, actors)

    # Round 2: the organiser pauses; a game ended during the pause is counted on resume.
    r = await members[0].slash(ch, "tournament pause")
    assert r.ephemeral and "organiser" in r.response.content
    await admin.slash(ch, "tournament pause")
    assert len(running_tables(world)) == 2
    await declare_all(world, actors)
    assert len(running_tables(world)) == 0  # paused: round 3 waits
    await admin.slash(ch, "tournament resume")
    assert len(running_tables(world)) == 2

    # Round 3: a player at a table drops: his match is forfeited to his opponent.
    table = running_tables(world)[0]
    dropper = next(s.user_id for s in table.seats if s.user_id is not None)
    r = await actors[dropper].slash(ch, "tournament drop")
    assert r.ephemeral and "Your results so far stand" in r.response.content
    await declare_all(world, actors)

    view = await tournaments.view(view.id)
    assert view.record.status == "finished" and view.event is not None
    # Every player had exactly one bye over the three rounds at most, and one had one a round.
    bye_players = [m.players[0] for r in view.event.rounds for m in r.matches if m.is_bye]
    assert len(bye_players) == 3 and len(set(bye_players)) == 3
    r = await members[1].slash(ch, "tournament show", event=view.id)
    assert "standings.png" in [a.filename for a in r.response.attachments]
    await check_chips(world)
    chips = world.bot.services.chips
    total = sum([await chips.balance(GUILD_ID, m.id) for m in members])
    assert total == 5 * START  # the pool went back to the players, none lost


async def test_a_table_rounds_event_of_thirteen_with_a_final_table(
    world: World, quick_any: None
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    names = [f"player{i}" for i in range(8)]
    members = world.members + more_members(world, names)
    assert len(members) == 13
    actors = {m.id: m for m in members}
    await admin.slash(
        ch,
        "tournament new",
        name="Big Table",
        game="kap-tai-shap",
        buy_in=20,
        prize_split="50/30/20",
        rounds=2,
        games_per_table=1,
        final_table=4,
        timer=600,
        round_minutes=5,
    )
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")

    # Round 1: 13 players at tables of 5, 4 and 4; every table's first seat declares.
    sizes = sorted(len(t.seats) for t in running_tables(world))
    assert sizes == [4, 4, 5]
    await declare_all(world, actors)

    # Round 2: two tables declare; nobody moves at the third, and the round's time runs out.
    assert len(running_tables(world)) == 3
    await declare_all(world, actors, limit=2)
    [idle] = running_tables(world)
    await env.advance_time(5 * 60 + 31)
    assert not idle.running
    assert any("its time ran out" in m.content for m in ch.history())

    # The final table of four plays its three games; during the second, one of its players
    # drops out of the event: his seat folds, and the third game seats the other three.
    [final] = running_tables(world)
    assert len(final.seats) == 4
    await declare_all(world, actors)
    [final] = running_tables(world)
    dropper = final.seats[1].user_id
    assert dropper is not None
    await actors[dropper].slash(ch, "tournament drop")
    assert final.out == {1: "resigned"}
    await declare_all(world, actors)
    [final] = running_tables(world)
    assert len(final.seats) == 3 and dropper not in {s.user_id for s in final.seats}
    await declare_all(world, actors)
    view = await service(world).current(GUILD_ID, 1)
    assert view.record.status == "finished"
    assert view.pool == 0 or view.record.results is not None
    chips = world.bot.services.chips
    paid = sorted(
        [await chips.balance(GUILD_ID, m.id) - (START - 20) for m in members], reverse=True
    )
    assert paid[:4] == [130, 78, 52, 0] and sum(paid) == 260
    await check_chips(world)


async def test_fillers_and_a_cancel_refund_every_buy_in(world: World, quick_any: None) -> None:
    ch, admin = world.channel, world.admin
    alice, bob = world.members[:2]
    await admin.slash(ch, "tournament new", name="Short", buy_in=30)
    signup = ch.history()[-1]
    for member in (alice, bob):
        await member.click(signup, label="Join")
    r = await alice.slash(ch, "tournament fill", count=2)
    assert r.ephemeral and "organiser" in r.response.content
    await admin.slash(ch, "tournament fill", count=2, level="random")
    view = await service(world).current(GUILD_ID)
    assert len(view.entries) == 4 and view.pool == 60  # fillers pay nothing
    await admin.slash(ch, "tournament start")
    assert running_tables(world)
    await admin.slash(ch, "tournament cancel")
    view = await service(world).view(view.id)
    assert view.record.status == "cancelled" and not running_tables(world)
    chips = world.bot.services.chips
    assert [await chips.balance(GUILD_ID, m.id) for m in (alice, bob)] == [START, START]
    await check_chips(world)
    r = await alice.slash(ch, "tournament join")
    assert r.ephemeral and "no tournament open" in r.response.content.lower()


async def test_check_in_drops_and_refunds_who_does_not_check_in(
    world: World, quick_any: None
) -> None:
    env, ch, admin = world.env, world.channel, world.admin
    alice, bob, carol = world.members[:3]
    await admin.slash(ch, "tournament new", name="Checked", buy_in=40, checkin=10)
    signup = ch.history()[-1]
    for member in (alice, bob, carol):
        await member.click(signup, label="Join")
    r = await admin.slash(ch, "tournament start")
    # The organiser is told check-in opened, not that the event started.
    assert r.ephemeral and "it starts when check-in closes" in r.response.content  # type: ignore[union-attr]
    assert not any("has started" in m.content for m in ch.history())
    assert any("Check-in for **Checked** is open" in m.content for m in ch.history())
    signup = next(m for m in ch.history() if m.id == signup.id)
    r = await alice.click(signup, label="Check in")
    assert r.ephemeral and "checked in" in r.response.content
    await bob.click(signup, label="Check in")
    assert "Join" not in message_text(signup)  # sign-up is over
    r = await world.members[3].slash(ch, "tournament join")
    assert r.ephemeral and "closed" in r.response.content
    assert not running_tables(world)

    # The window closes: carol is dropped and refunded; the event starts with alice and bob.
    await env.advance_time(10 * 60 + 31)
    assert any("1 dropped and refunded" in m.content for m in ch.history())
    chips = world.bot.services.chips
    assert await chips.balance(GUILD_ID, carol.id) == START
    [table] = running_tables(world)
    assert {s.user_id for s in table.seats} == {alice.id, bob.id}
    await check_chips(world)


async def test_tsung_shap_by_points_with_computer_fillers(world: World) -> None:
    ch, admin = world.channel, world.admin
    alice = world.members[0]
    await admin.slash(
        ch,
        "tournament new",
        name="Fishing",
        game="tsung-shap",
        best_of=3,
        decide_by="points",
        rounds=1,
        buy_in=10,
    )
    signup = ch.history()[-1]
    await alice.click(signup, label="Join")
    await admin.slash(ch, "tournament fill", count=3, level="random")
    await admin.slash(ch, "tournament start")
    tournaments = service(world)
    view = await tournaments.current(GUILD_ID)
    assert view.event is not None and view.event.current_round is not None
    # The computer players' match plays its three games at once, scored in points.
    computers = [m for m in view.event.current_round.matches if all(p < 0 for p in m.players)]
    assert len(computers) == 1 and computers[0].result is not None
    assert computers[0].result.games_played == 3 and computers[0].result.points
    # alice resigns her three games: her computer opponent wins the match.
    for _ in range(3):
        [table] = running_tables(world)
        r = await resign(alice, thread_of(world, table))
        assert r.response.content.startswith("🏳️ You resigned")
    view = await tournaments.view(view.id)
    assert view.record.status == "finished"
    # Computer players never win money: the whole pool goes back to alice, the only member.
    assert await world.bot.services.chips.balance(GUILD_ID, alice.id) == START
    await check_chips(world)


async def test_single_elimination_of_five_with_a_bracket_picture(
    world: World, quick_any: None
) -> None:
    ch, admin = world.channel, world.admin
    members = world.members
    actors = {m.id: m for m in members}
    await admin.slash(ch, "tournament new", name="Knockout", format="single-elimination", buy_in=20)
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    tournaments = service(world)
    # Five players in an eight-slot draw: byes to the top three seeds; four matches in all
    # (every match eliminates one player), each played as soon as both its players are known.
    played = 0
    for _ in range(5):
        played += await declare_all(world, actors)
    assert played == 4
    view = await tournaments.current(GUILD_ID, 1)
    assert view.record.status == "finished" and view.event is not None
    r = await members[0].slash(ch, "tournament show", event=view.id)
    names = [a.filename for a in r.response.attachments]
    assert names == ["standings.png", "bracket.png"]
    chips = world.bot.services.chips
    champion = view.event.ranking()[0]
    assert await chips.balance(GUILD_ID, champion) == START - 20 + 100
    await check_chips(world)


async def test_a_refused_start_announces_nothing(world: World) -> None:
    """Starting with one entrant is refused privately, and nothing public says it started."""
    ch, admin, alice = world.channel, world.admin, world.members[0]
    await admin.slash(ch, "tournament new", name="Lonely", buy_in=0)
    await alice.click(ch.history()[-1], label="Join")
    before = len(ch.history())
    r = await admin.slash(ch, "tournament start")
    assert r.ephemeral and "at least two players" in r.response.content  # type: ignore[union-attr]
    assert len(ch.history()) == before
    assert not any("has started" in m.content for m in ch.history())
