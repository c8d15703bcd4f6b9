"""`/tournament export`, the history of every place and the organiser's tools (issue 23).

A knockout of five members is played to the end; anyone in the server then gets the whole
event as JSON, two CSV sheets and a zip of the game records, privately. An event of seventeen
keeps all seventeen places in its stored results (only the top 16 were kept before), and an
event stored the old way gets its full order back from its stored state.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

from bot.engine.record import parse_record
from bot.storage.tournaments import TournamentsRepo
from cogs.tournaments import export_files
from tests.discord.conftest import GUILD_ID, World
from tests.discord.tables_kit import (
    message_text,
    no_incidents,  # noqa: F401  (autouse: no error logged)
    resign,
)
from tests.discord.test_tournaments import (
    START,
    check_chips,
    declare_all,
    quick_any,  # noqa: F401  (fixture)
    running_tables,
    service,
    thread_of,
)

pytestmark = pytest.mark.both_backends


async def test_export_of_a_finished_knockout_has_every_part(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    members = world.members
    actors = {m.id: m for m in members}
    await admin.slash(ch, "tournament new", name="Knockout", format="single-elimination", buy_in=20)
    signup = ch.history()[-1]
    # Before any result there is nothing to export: a short private refusal.
    r = await members[0].slash(ch, "tournament export")
    assert r.ephemeral and "no results to export yet" in r.response.content
    assert not r.response.attachments
    for member in members:
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    for _ in range(5):
        await declare_all(world, actors)
    view = await service(world).current(GUILD_ID, 1)
    assert view.record.status == "finished" and view.event is not None
    # Any member (not the organiser) may export.
    r = await members[3].slash(ch, "tournament export", event=view.id)
    assert r.ephemeral
    files = {a.filename: await a.read() for a in r.response.attachments}
    n = view.id
    assert sorted(files) == sorted(
        [
            f"event-{n}.json",
            f"event-{n}-standings.csv",
            f"event-{n}-matches.csv",
            f"event-{n}-records.zip",
        ]
    )
    data = json.loads(files[f"event-{n}.json"])
    ranking = view.event.ranking()
    assert [row["id"] for row in data["standings"]] == ranking
    assert [row["place"] for row in data["standings"]] == [1, 2, 3, 4, 5]
    assert {e["id"] for e in data["entrants"]} == {m.id for m in members}
    assert data["standings"][0]["prize"] == 100 and data["pool"] == 100
    played = [m for r in data["rounds"] for m in r["matches"] if len(m["players"]) == 2]
    assert len(played) == 4 and all(m["result"]["winner"] is not None for m in played)
    games = [g for m in played for g in m["games"]]
    assert len(games) == 4
    with zipfile.ZipFile(io.BytesIO(files[f"event-{n}-records.zip"])) as archive:
        assert sorted(archive.namelist()) == sorted(f"{g}.txt" for g in games)
        for name in archive.namelist():
            record = parse_record(archive.read(name).decode())
            assert record.tags["Id"] == name.removesuffix(".txt")
    assert "4 finished games" in r.response.content
    standings = list(csv.DictReader(io.StringIO(files[f"event-{n}-standings.csv"].decode())))
    assert [int(row["id"]) for row in standings] == ranking
    assert {"place", "name", "seed", "wins", "losses", "prize"} <= set(standings[0])
    matches = list(csv.DictReader(io.StringIO(files[f"event-{n}-matches.csv"].decode())))
    assert sorted(g for row in matches for g in row["game_ids"].split()) == sorted(games)
    await check_chips(world)

    # Past the server's upload limit the records are left out and the answer says so.
    found = await service(world).export(view.id, GUILD_ID)
    kept, text = export_files(
        found, "en", 1 + sum(len(b) for k, b in files.items() if "zip" not in k)
    )
    assert [f.filename for f in kept] == [
        f"event-{n}.json",
        f"event-{n}-standings.csv",
        f"event-{n}-matches.csv",
    ]
    assert "/replay" in text


async def test_history_keeps_every_place_of_seventeen(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    alice = world.members[0]
    await admin.slash(ch, "tournament new", name="Big", rounds=1, seats=32)
    signup = ch.history()[-1]
    await alice.click(signup, label="Join")
    await admin.slash(ch, "tournament fill", count=16, level="random")
    await admin.slash(ch, "tournament start")
    tournaments = service(world)
    for _ in range(10):
        tables = running_tables(world)
        if not tables:
            break
        await resign(alice, thread_of(world, tables[0]))
    view = await tournaments.current(GUILD_ID, 1)
    assert view.record.status == "finished" and view.event is not None
    full = [[p, view.event.player(p).name] for p in view.event.ranking()]
    assert len(full) == 17
    # Stored as they are: every place.
    assert view.record.results is not None and view.record.results["ranking"] == full

    # An event stored when only the top 16 were kept gets every place back from its state.
    db = world.bot.services.db
    repo = TournamentsRepo()
    async with db.transaction() as tx:
        record = await repo.get(tx, view.id)
        assert record is not None and record.results is not None
        record.results["ranking"] = record.results["ranking"][:16]
        await repo.update(tx, record)
    [past] = await tournaments.history(GUILD_ID)
    assert past.results is not None and past.results["ranking"] == full
    r = await alice.slash(ch, "tournament history")
    assert "1. " in r.response.content


async def test_the_organiser_removes_an_entrant_before_the_start(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob, carol = world.members[:3]
    chips = world.bot.services.chips
    await admin.slash(ch, "tournament new", name="Trim", buy_in=30)
    signup = ch.history()[-1]
    for member in (alice, bob):
        await member.click(signup, label="Join")
    # Not the organiser: refused, nothing changes.
    r = await bob.slash(ch, "tournament remove", member=alice)
    assert r.ephemeral and "Only the organiser" in r.response.content
    # Not entered: refused.
    r = await admin.slash(ch, "tournament remove", member=carol)
    assert r.ephemeral and "not entered" in r.response.content
    tournaments = service(world)
    view = await tournaments.current(GUILD_ID)
    assert len(view.entries) == 2 and view.pool == 60
    r = await admin.slash(ch, "tournament remove", member=alice)
    assert r.ephemeral and "no longer entered in **Trim**" in r.response.content
    view = await tournaments.current(GUILD_ID)
    assert [e.user_id for e in view.entries] == [bob.id] and view.pool == 30
    assert await chips.balance(GUILD_ID, alice.id) == START
    [dm] = alice.user.dm_channel.history()
    assert "took you out of the tournament **Trim**" in dm.content and "30 chips" in dm.content
    await check_chips(world)
    # After the start: refused.
    await admin.slash(ch, "tournament fill", count=1)
    await admin.slash(ch, "tournament start")
    r = await admin.slash(ch, "tournament remove", member=bob, event=view.id)
    assert r.ephemeral and "closed" in r.response.content
    view = await tournaments.view(view.id)
    assert view.event is not None and bob.id in [p.id for p in view.event.players]
    await check_chips(world)


async def test_the_organiser_seeds_entrants_by_hand(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob, carol, dave = world.members[:4]
    await admin.slash(ch, "tournament new", name="Seeded")
    signup = ch.history()[-1]
    for member in (alice, bob, carol):
        await member.click(signup, label="Join")
    tournaments = service(world)
    refusals = [
        (bob, f"{carol.mention} {bob.mention}", "Only the organiser"),
        (admin, "carol first", "seed order as mentions"),
        (admin, f"{carol.mention} {dave.mention}", "not entered"),
        (admin, f"{carol.mention} {carol.mention}", "each entrant once"),
    ]
    for who, order, said in refusals:
        r = await who.slash(ch, "tournament seed", order=order)
        assert r.ephemeral and said in r.response.content, r.response.content
        view = await tournaments.current(GUILD_ID)
        assert "seeds" not in view.record.options  # nothing stored
    r = await admin.slash(ch, "tournament seed", order=f"{carol.mention} {bob.mention}")
    assert r.ephemeral and "1. carol, 2. bob" in r.response.content, r.response.content
    await admin.slash(ch, "tournament start")
    view = await tournaments.current(GUILD_ID)
    assert view.event is not None
    assert [p.id for p in view.event.players] == [carol.id, bob.id, alice.id]
    r = await admin.slash(ch, "tournament seed", order=alice.mention)
    assert r.ephemeral and "closed" in r.response.content
    await check_chips(world)


async def test_the_organiser_edits_the_settings_before_the_start(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    alice, bob = world.members[:2]
    await admin.slash(ch, "tournament new", name="Edit me")
    signup = ch.history()[-1]
    tournaments = service(world)
    before = await tournaments.current(GUILD_ID)
    refusals = [
        (bob, {"best_of": 3}, "Only the organiser"),
        (admin, {"prize_split": "half"}, "60/30/10"),
        (admin, {"best_of": 2}, "odd"),
    ]
    for who, options, said in refusals:
        r = await who.slash(ch, "tournament edit", **options)
        assert r.ephemeral and said in r.response.content, r.response.content
        view = await tournaments.current(GUILD_ID)
        assert view.record.settings == before.record.settings  # nothing applied
    r = await admin.slash(
        ch, "tournament edit", best_of=3, buy_in=15, prize_split="70/30", timer=60
    )
    assert r.ephemeral and "new settings" in r.response.content, r.response.content
    view = await tournaments.current(GUILD_ID)
    assert (view.settings.best_of, view.settings.buy_in) == (3, 15)
    assert view.settings.prize_split == (70, 30) and view.record.options["turn_seconds"] == 60
    assert view.settings.game == before.settings.game  # what was not given stays
    [board] = [m for m in ch.history() if m.id == signup.id]
    assert "70/30" in message_text(board).replace(" ", "") or "70%" in message_text(board)
    # Members in: the buy-in they paid cannot change, the seats not go below them.
    for member in (alice, bob):
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament fill", count=1)
    r = await admin.slash(ch, "tournament edit", buy_in=5)
    assert r.ephemeral and "buy-in cannot change" in r.response.content
    r = await admin.slash(ch, "tournament edit", seats=2)
    assert r.ephemeral and "3 players are already entered" in r.response.content
    r = await admin.slash(ch, "tournament edit", seats=3, best_of=5)
    assert r.ephemeral and "new settings" in r.response.content
    view = await tournaments.current(GUILD_ID)
    assert (view.settings.buy_in, view.settings.best_of, view.settings.seats_limit) == (15, 5, 3)
    assert view.pool == 30
    await check_chips(world)


async def test_the_organiser_enters_and_corrects_a_result_with_a_reason(
    world: World,
    quick_any: None,  # noqa: F811
) -> None:
    ch, admin = world.channel, world.admin
    members = world.members[:4]
    actors = {m.id: m for m in members}
    await admin.slash(ch, "tournament new", name="Fix", buy_in=10, rounds=2)
    signup = ch.history()[-1]
    for member in members:
        await member.click(signup, label="Join")
    await admin.slash(ch, "tournament start")
    tournaments = service(world)
    view = await tournaments.current(GUILD_ID)
    assert view.event is not None and view.event.current_round is not None
    first, second = view.event.current_round.matches
    high, low = first.players
    outsider = next(p for p in second.players)
    why = "the table froze"
    refusals = [
        (members[0] if members[0].id != admin.id else members[1], {"winner": actors[low]}, "Only"),
        (admin, {"match": "Z9-9", "winner": actors[low]}, "no match Z9-9"),
        (admin, {"winner": actors[outsider]}, "did not play"),
        (admin, {}, "Name the winner"),
        (admin, {"winner": actors[low], "reason": "x"}, "reason of 3 to 300"),
    ]
    for who, options, said in refusals:
        r = await who.slash(
            ch, "tournament result", **{"match": first.id, "reason": why, **options}
        )
        assert r.ephemeral and said in (
            r.followups[-1].content if r.followups else r.response.content
        )
        now = await tournaments.view(view.id)
        assert now.event is not None and now.event.find(first.id)[1].result is None
    # Entered while the match's game is still being played: its table ends, the match is decided.
    r = await admin.slash(ch, "tournament result", match=first.id, winner=actors[low], reason=why)
    now = await tournaments.view(view.id)
    assert now.event is not None
    result = now.event.find(first.id)[1].result
    assert result is not None and result.winner == low and result.how.value == "organiser"
    assert f"result of match **{first.id}**" in ch.history()[-1].content
    assert why in ch.history()[-1].content
    assert [m.id for m in now.event.open_matches()] == [second.id]
    # Corrected (the round is not done yet): the standings follow.
    await admin.slash(ch, "tournament result", match=first.id, winner=actors[high], reason="typo")
    now = await tournaments.view(view.id)
    assert now.event is not None
    standing = {s.player: s for s in now.event.pair_standings()}
    assert standing[high].wins == 1 and standing[low].wins == 0
    assert [c["reason"] for c in now.record.options["corrections"]] == [why, "typo"]
    await check_chips(world)
    # The round done, the next is paired on these results: round 1 can no longer change.
    await declare_all(world, actors)
    r = await admin.slash(ch, "tournament result", match=first.id, winner=actors[low], reason=why)
    said = r.followups[-1].content if r.followups else r.response.content
    assert r.ephemeral and "not in the current round" in said
    exported = await tournaments.export(view.id, GUILD_ID)
    assert len(exported.data["corrections"]) == 2
    await check_chips(world)
