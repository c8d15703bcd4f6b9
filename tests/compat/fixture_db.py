"""The fixture database: made once by today's services, read by the compatibility tests.

:func:`build` plays a scripted afternoon on a real SQLite file through the services the bot
builds (:class:`~bot.services.tables.TableService` with chips, ratings and the server's
settings, a :class:`~bot.services.clock.ManualClock`, seeded randomness) and a small
tournament through :class:`~bot.services.tournaments.TournamentService`. It leaves every kind of
row today's code writes: finished games of all three games (won, drawn by the wall, Tsung Shap
settled by the pot and by the point difference, resigned, a carried pot collected with rake),
games still running (Kap Shap, Tsung Shap by difference, Kap Tai Shap with a computer seat and
a member who timed out), a lobby, a cancelled lobby, gifts and daily claims, ratings, and the
finished event.

The tests copy the file, open it as a fresh bot would (:func:`open_services`, migrations
applied, :meth:`TableService.restore`), check ``kapshap db check``'s invariant, export every
stored game as a record, play the running games on to their end with fixed choices
(:func:`play_on`) and compare everything with the pins (:func:`dump`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.ai.levels import player_for
from bot.engine import legal_actions, view
from bot.services.chips import ChipsDefaults, ChipsService
from bot.services.clock import ManualClock
from bot.services.ratings import RatingService
from bot.services.replays import ReplayService
from bot.services.server import ServerService
from bot.services.tables import Outcome, Table, TableDefaults, TableService
from bot.storage.db import Database
from bot.storage.games import GamesRepo
from bot.storage.integrity import find_problems

__all__ = [
    "GUILD",
    "build",
    "check_invariant",
    "dump",
    "examine",
    "exports",
    "fixture_clock",
    "open_services",
    "play_on",
    "restore",
    "with_db",
]

GUILD = 1000000000000000001
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "阿明", DAVE: "Dave"}
ORGANISER = 99
START = datetime(2026, 11, 20, 14, 0, tzinfo=UTC)
"""When the fixture's afternoon starts (the clock only moves when the script says)."""
SEED = 19


def open_services(db: Database, clock: ManualClock, seed: int = SEED) -> TableService:
    """The table service as the bot builds it (chips, ratings, server settings; ante 10, a
    60 s turn timer, the random player standing in for a member who runs out of time)."""
    chips = ChipsService(db, clock, ChipsDefaults(starting_chips=1000, daily_amount=100))
    return TableService(
        GamesRepo(db),
        chips,
        clock,
        TableDefaults(ante=10, turn_seconds=60, timeout_ai_level="random"),
        random.Random(seed),
        ServerService(db),
        RatingService(db, clock, provisional_games=2),
    )


async def _greedy(service: TableService, table: Table, rng: random.Random, moves: int | None,
                  *, declare: bool = True) -> None:  # fmt: skip
    """Members play greedy choices (``declare`` False: never a winning declaration, so the
    wall runs out) for ``moves`` moves or to the end."""
    played = 0
    while table.running and (moves is None or played < moves):
        state = table.state
        assert state is not None
        seat = state.current
        user = table.seats[seat].user_id
        assert user is not None, "a computer seat waits: the service plays those"
        legal = legal_actions(state)
        if declare:
            action = player_for(table.game, "greedy").choose(view(state, seat), legal, rng)
        else:
            action = rng.choice([a for a in legal if str(a) != "declare"] or legal)
        await service.act(table.channel_id, user, action, version=table.version)
        played += 1


async def _table(
    service: TableService,
    channel: int,
    members: Sequence[int],
    *,
    ai: Sequence[str] = (),
    **options: Any,
) -> Table:
    host = members[0]
    table = await service.open_table(
        guild_id=GUILD, channel_id=channel, host_id=host, host_name=NAMES[host], **options
    )
    for member in members[1:]:
        await service.join(channel, member, NAMES[member])
    for level in ai:
        await service.add_ai(channel, host, level)
    return table


class _Host:
    """The Discord side of a tournament, reduced to what the service needs: thread ids from a
    counter, no posts; a finished table carries its event on."""

    def __init__(self) -> None:
        self.service: Any = None
        self._threads = itertools.count(900)

    async def open_thread(self, record: Any, match_id: str, title: str) -> int:
        return next(self._threads)

    async def show_table(self, outcome: Outcome) -> None:
        if outcome.finished:
            await self.service.game_ended(outcome)

    async def post(self, record: Any, text: str, *, pictures: bool = False) -> None:
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

    async def refresh(self, record: Any) -> None:
        return None


async def _tournament(db: Database, service: TableService, clock: ManualClock) -> None:
    """A Kap Shap Swiss event of four members, two rounds, buy-in 25, played to its end."""
    from bot.services.tournaments import TournamentService, settings_from_options

    host = _Host()
    events = TournamentService(db, service._chips, service, clock, rng=random.Random(SEED))
    host.service = events
    events.host = host
    service.end_listeners.append(events.game_ended)
    settings = settings_from_options(
        game="kap-shap", format=None, best_of=1, rounds=2, buy_in=25, prize_split="70/30",
        seats_limit=8,
    )  # fmt: skip
    event = await events.create(
        guild_id=GUILD, channel_id=500, organiser_id=ORGANISER, name="Cup", settings=settings
    )
    for member in (ALICE, BOB, CAROL, DAVE):
        await events.join(event.id, member, NAMES[member])
    await events.start(event.id, ORGANISER, manager=True)
    rng = random.Random(5)
    for _ in range(40):
        if (await events.view(event.id)).record.status == "finished":
            break
        playing = [t for t in service.tables() if t.running and t.channel_id >= 900]
        if not playing:
            await events.advance(event.id)
            continue
        for table in playing:
            state = table.state
            assert state is not None
            seat = state.current
            user = table.seats[seat].user_id
            assert user is not None
            action = player_for(table.game, "greedy").choose(
                view(state, seat), legal_actions(state), rng
            )
            outcome = await service.act(table.channel_id, user, action)
            if outcome.finished:
                await service.notify_ended(outcome)
            clock.advance(timedelta(seconds=20))
    assert (await events.view(event.id)).record.status == "finished"
    service.end_listeners.remove(events.game_ended)


async def build(path: Path) -> datetime:
    """Write the fixture database at ``path`` (a new file); the clock's time at the end."""
    import bot.storage.games as games_module

    # Game ids are random in the bot; numbered here so that making the fixture again gives the
    # same ids (and the same pins) when nothing changed.
    numbers = itertools.count(1)
    original_id = games_module.new_game_id
    games_module.new_game_id = lambda: f"c0de{next(numbers):08x}"
    clock = ManualClock(START)
    db = await Database.open(path)
    try:
        service = open_services(db, clock)
        chips = service._chips
        await service.restore()
        rng = random.Random(SEED)
        minutes = _minutes(clock)
        for member in (ALICE, BOB, CAROL, DAVE):
            await chips.daily(GUILD, member)
        await chips.give(GUILD, ALICE, BOB, 7, "interaction:1")
        await chips.give(GUILD, CAROL, DAVE, 30, "interaction:2")

        # Kap Shap won; a rematch in the same channel is resigned after two moves.
        table = await _table(service, 101, (ALICE, BOB))
        await service.start(101, ALICE)
        await _greedy(service, table, rng, None)
        minutes(7)
        await service.rematch(101, ALICE)
        rematch = service.require(101)
        await service.start(101, ALICE)
        await _greedy(service, rematch, rng, 2)
        await service.resign(101, BOB)
        minutes(5)

        # Kap Shap drawn (the wall runs out) with its pot carried over and a rake: the next game
        # in the channel collects the carried pot.
        variants = {"pot_carries_over": "true", "rake_percent": "10"}
        table = await _table(service, 102, (BOB, CAROL), rule_set="classic", variants=variants)
        await service.start(102, BOB)
        await _greedy(service, table, rng, None, declare=False)
        minutes(6)
        table = await _table(service, 102, (BOB, CAROL), rule_set="classic", variants=variants)
        await service.start(102, BOB)
        await _greedy(service, table, rng, None)
        minutes(4)

        # Kap Tai Shap for four, two computer seats (greedy and expert), finished.
        table = await _table(
            service, 103, (ALICE, CAROL), ai=("greedy", "expert"), game="kap-tai-shap", seats=4
        )
        await service.start(103, ALICE)
        await _greedy(service, table, rng, None)
        minutes(9)

        # Tsung Shap with a pot, and Tsung Shap settled by the point difference (rate 2).
        table = await _table(service, 104, (CAROL, DAVE), game="tsung-shap")
        await service.start(104, CAROL)
        await _greedy(service, table, rng, None)
        minutes(12)
        table = await _table(
            service, 105, (ALICE, DAVE), game="tsung-shap", settlement="difference", settle_rate=2
        )
        await service.start(105, ALICE)
        await _greedy(service, table, rng, None)
        minutes(12)

        # A lobby cancelled by its host.
        await _table(service, 106, (DAVE,), ai=("random",))
        await service.cancel(106, DAVE)
        minutes(1)

        # The event, on threads of its own.
        await _tournament(db, service, clock)
        minutes(3)

        # Games left running: Kap Shap mid-way; Tsung Shap by difference mid-way; Kap Tai Shap
        # for three with a computer seat, in which a member ran out of time once.
        table = await _table(service, 201, (ALICE, BOB), variants={"four_two_value": "wild"})
        await service.start(201, ALICE)
        await _greedy(service, table, rng, 5)
        minutes(2)
        table = await _table(service, 202, (BOB, CAROL), game="tsung-shap", settlement="difference")
        await service.start(202, BOB)
        await _greedy(service, table, rng, 9)
        minutes(2)
        table = await _table(
            service, 203, (CAROL, DAVE), ai=("greedy",), game="kap-tai-shap", seats=3,
            rule_set="last-draw",
        )  # fmt: skip
        await service.start(203, CAROL)
        await _greedy(service, table, rng, 3)
        if table.running and table.current_seat is not None and not table.current_seat.is_ai:
            clock.advance(timedelta(seconds=61))
            await service.expire_due()
        minutes(1)

        # A lobby waiting for its players (a member and a computer seat have joined).
        await _table(service, 204, (DAVE, ALICE), ai=("expert",), game="kap-tai-shap", seats=4)
        minutes(1)
        return clock.now()
    finally:
        games_module.new_game_id = original_id
        await db.close()


def _minutes(clock: ManualClock) -> Callable[[int], None]:
    def advance(n: int) -> None:
        clock.advance(timedelta(minutes=n))

    return advance


async def check_invariant(db: Database) -> list[str]:
    """``kapshap db check``: the invariant's violations, in words (none when it holds)."""
    async with db.read() as tx:
        problems, totals = await find_problems(tx)
    out = [str(p) for p in problems]
    if not totals.ok:
        out.append(f"the chip totals do not add up: {totals}")
    return out


async def exports(db: Database) -> dict[str, str]:
    """Every stored game that has a deal, written as a record (what ``kapshap record export``
    writes), by game id."""
    replays = ReplayService(GamesRepo(db))
    async with db.read() as tx:
        rows = await tx.fetchall(
            "SELECT id, guild_id FROM games WHERE deal_json IS NOT NULL ORDER BY created_at, id"
        )
    out = {}
    for game_id, guild_id in rows:
        loaded = await replays.load(str(game_id), int(guild_id), finished=False)
        out[str(game_id)] = loaded.text
    return out


async def restore(service: TableService) -> dict[str, Any]:
    """Rebuild the tables as a starting bot does (:meth:`TableService.restore`, which repairs
    first), and let computer seats play; what the service holds then."""
    await service.restore()
    tables = sorted(service.tables(), key=lambda t: t.channel_id)
    for table in tables:
        await service.resume_ai(table)
    return {
        "repairs": list(service.repairs),
        "quarantined": [str(q) for q in service.quarantined],
        "tables": [_table_facts(t) for t in tables],
    }


def _table_facts(table: Table) -> dict[str, Any]:
    state: Any = table.state
    return {
        "id": table.id,
        "channel": table.channel_id,
        "game": str(table.game),
        "status": str(table.status),
        "version": table.version,
        "seats": [s.to_json() for s in table.seats],
        "ante": table.ante,
        "pot": table.pot,
        "settlement": table.settlement,
        "settle_rate": table.settle_rate,
        "variants": table.variants,
        "timeouts": {str(k): v for k, v in sorted(table.timeouts.items())},
        "current": None if state is None else state.current,
        "turn": None if state is None else state.turn,
        "legal": [] if state is None else [str(a) for a in table.legal()],
    }


async def play_on(service: TableService) -> list[str]:
    """Play every running game of a restored service to its end, members always choosing the
    first legal action (computer seats play as the service has them play); the ids of the
    games played on."""
    tables = sorted(service.tables(), key=lambda t: t.channel_id)
    played = []
    for table in tables:
        if not table.running:
            continue
        played.append(table.id)
        while table.running:
            current = table.current_seat
            assert current is not None and current.user_id is not None
            await service.act(
                table.channel_id, current.user_id, table.legal()[0], version=table.version
            )
    return played


_DUMP: dict[str, str] = {
    "games": "SELECT id, channel_id, status, game, version, host_id, ante, turn_seconds, "
    "winner_seat, settled, broken_reason, rules_json, seats_json FROM games ORDER BY id",
    "actions": "SELECT game_id, COUNT(*), MAX(seq) FROM game_actions GROUP BY game_id "
    "ORDER BY game_id",
    "accounts": "SELECT guild_id, user_id, balance FROM accounts ORDER BY guild_id, user_id",
    "ledger": "SELECT id, user_id, delta, balance_after, kind, idem_key, game_id, actor_id, note "
    "FROM ledger ORDER BY id",
    "pots": "SELECT game_id, channel_id, status, carried_in, settled_amount, winner_id, rake "
    "FROM pots ORDER BY game_id",
    "escrow": "SELECT game_id, user_id, amount FROM escrow ORDER BY game_id, user_id",
    "carried_pots": "SELECT guild_id, channel_id, amount FROM carried_pots ORDER BY channel_id",
    "seat_state": "SELECT game_id, seat, timeouts, out FROM seat_state ORDER BY game_id, seat",
    "recorded_games": "SELECT game_id, game, outcome, rated FROM recorded_games ORDER BY seq",
    "game_results": "SELECT game_id, seat, game, user_id, ai_level, name, position, result, "
    "arrangement, eye, score, captures, sweeps, claims, mu, sigma, rating FROM game_results "
    "ORDER BY seq, seat",
    "member_ratings": "SELECT game, user_id, games, wins, draws, rated_games, mu, sigma, rating "
    "FROM member_ratings ORDER BY game, user_id",
    "tournaments": "SELECT id, status, settings_json, state_json, results_json FROM tournaments",
    "tournament_matches": "SELECT tournament_id, match_id, round, game_ids, games_json "
    "FROM tournament_matches ORDER BY tournament_id, round, match_id",
}
"""What :func:`dump` reads: every table the games and the chips write, without times (the
clock of a test is not the fixture's) and without row ids that only count."""


async def dump(db: Database) -> dict[str, list[list[Any]]]:
    """The database's games, chips, ratings and event rows, as JSON values."""
    out: dict[str, list[list[Any]]] = {}
    async with db.read() as tx:
        for name, query in _DUMP.items():
            out[name] = [list(row) for row in await tx.fetchall(query)]
    return out


async def with_db(path: Path, work: Callable[[Database], Awaitable[Any]]) -> Any:
    """Open the database at ``path`` (migrating it), run ``work`` on it, close it."""
    db = await Database.open(path)
    try:
        return await work(db)
    finally:
        await db.close()


def fixture_clock() -> datetime:
    """The fixture database's last moment (its clock when it was made, pinned)."""
    from tests.compat.pinning import read_json_pin

    return datetime.fromisoformat(read_json_pin("db/fixture.json")["clock"])


async def examine(path: Path, now: datetime) -> dict[str, Any]:
    """Everything the tests compare, from a copy of the fixture at ``path`` opened at time
    ``now`` (the fixture's last moment): the restored tables, the invariant before and after,
    every stored game's record, the games played on, their final records, and the rows."""

    async def work(db: Database) -> dict[str, Any]:
        service = open_services(db, ManualClock(now), seed=SEED + 1)
        restored = await restore(service)
        problems = await check_invariant(db)
        stored = await exports(db)
        played = await play_on(service)
        problems_after = await check_invariant(db)
        finished = await exports(db)
        return {
            "restored": restored,
            "problems": problems,
            "exports": stored,
            "played": played,
            "problems_after": problems_after,
            "final": {game_id: finished[game_id] for game_id in played},
            "dump": await dump(db),
        }

    return dict(await with_db(path, work))
