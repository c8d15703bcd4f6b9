"""A Swiss event of High Pair through the tournament service: four members buy in, two rounds
are paired and played at the table service, the prizes are paid and the chips add up. The
service reads the toy's ``GameInfo`` (format, players) and its engine's standing, nothing more.

Every game is dealt so that its first seat holds two nines and shows them at once: the first
seat wins each match (a match never ends drawn)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bot.engine import Deal
from bot.games import registered
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.tables import Outcome, Table, TableDefaults, TableService
from bot.services.tournaments import TournamentRecord, TournamentService, settings_from_options
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.storage.integrity import find_problems
from tests.games.toy import TOY
from tests.games.toy.engine import ToyEngine, ToyRules, deal_from_cards

GUILD, ORGANISER = 1, 99
USERS = (11, 12, 13, 14)
START = 1000


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def quick(self: ToyEngine, rules: ToyRules, rng: Any, thrower: int = 0) -> Deal:
        first = rng.randrange(rules.players)
        hands = [[2, 3, 4], [2, 3, 4]]
        hands[first] = [9, 9, 1]
        return deal_from_cards(rules, hands, [5], first=first)

    monkeypatch.setattr(ToyEngine, "deal", quick)
    with registered(TOY):
        yield


class Host:
    """The Discord side, reduced to what the service needs."""

    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self._ids = iter(range(10_000, 20_000))

    async def open_thread(self, record: TournamentRecord, match_id: str, title: str) -> int:
        return next(self._ids)

    async def show_table(self, outcome: Outcome) -> None:
        if outcome.finished:
            await self.service.game_ended(outcome)

    async def post(self, record: TournamentRecord, text: str, *, pictures: bool = False) -> None:
        return None

    async def say(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        mentions: Sequence[int],
        *,
        ready: int | None = None,
    ) -> None:
        return None

    async def table_stopped(self, table: Table) -> None:
        return None

    async def refresh(self, record: TournamentRecord) -> None:
        return None


async def test_a_swiss_event_of_four_members(db: Database) -> None:
    clock = ManualClock()
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=START, daily_amount=100))
    tables = TableService(
        GamesRepo(db), chips, clock, TableDefaults(ante=0, turn_seconds=60), random.Random(1)
    )
    service = TournamentService(db, chips, tables, clock, rng=random.Random(7))
    service.host = Host(service)
    tables.end_listeners.append(service.game_ended)
    settings = settings_from_options(
        game="high-pair",
        format=None,
        best_of=1,
        rounds=2,
        buy_in=25,
        prize_split="70/30",
        seats_limit=8,
    )
    assert settings.format.value == "swiss"  # the toy's GameInfo says Swiss
    view = await service.create(
        guild_id=GUILD, channel_id=5, organiser_id=ORGANISER, name="Pair Cup", settings=settings
    )
    for user in USERS:
        await service.join(view.id, user, f"member{user}")
    assert [await chips.balance(GUILD, u) for u in USERS] == [START - 25] * 4
    await service.start(view.id, ORGANISER)
    games = 0
    for _ in range(50):
        if (await service.view(view.id)).record.status == "finished":
            break
        playing = [t for t in tables.tables() if t.running]
        if not playing:
            await service.advance(view.id)
            continue
        for table in playing:
            assert table.state is not None and table.rules is not None
            assert table.rules.game == "high-pair"
            while table.running:
                seat = table.current_seat
                assert seat is not None and seat.user_id is not None
                legal = [str(a) for a in table.legal()]
                notation = "show" if "show" in legal else legal[0]
                outcome = await tables.act(table.channel_id, seat.user_id, notation)
            games += 1
            if outcome.finished:
                await tables.notify_ended(outcome)
    final = await service.view(view.id)
    assert final.record.status == "finished"
    assert games == 4  # two rounds of two matches
    balances = [await chips.balance(GUILD, u) for u in USERS]
    assert sum(balances) == 4 * START
    assert sorted(b - (START - 25) for b in balances) == [0, 0, 30, 70]
    async with db.read() as tx:
        problems, totals = await find_problems(tx)
    assert problems == [] and totals.ok
