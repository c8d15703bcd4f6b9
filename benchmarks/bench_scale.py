"""The whole bot at scale: SQLite with one process, PostgreSQL with one or several processes.

    .venv/bin/python benchmarks/bench_scale.py --tables 300                     # SQLite
    .venv/bin/python benchmarks/bench_scale.py --tables 300 --postgres           # PostgreSQL
    .venv/bin/python benchmarks/bench_scale.py --tables 1000 --postgres --processes 2
    .venv/bin/python benchmarks/bench_scale.py --tables 300 --database-url postgresql://…

Each process is a whole bot (every cog, the scheduler, the pictures) on its own simcord, the
in-memory Discord of the tests, playing the same loop as ``bench_discord.py``: its share of the
``--tables`` Kap Shap tables is opened and started (the virtual clock moving ``--step`` seconds
after each, so that the tables' messages do not fall due in one burst), then its share of
``--actions`` human actions is played round-robin across them, half with a DM button and half
with a slash command, the clock moving ``--step`` seconds after each. With ``--processes N``
the processes are separate OS processes on one PostgreSQL database, started together (each
with its own connections, its own servers and channels), their play loops started together
once every one has opened its tables, and the figures are pooled.

Several processes are the cluster of docs/processes.md: process ``i`` of ``N`` runs shard ``i`` of
``N`` (its claim is the database's advisory lock), its server's id falls on that shard, and the
start-up repair runs once for all. Each process has its own simcord, so the snowflakes of process
``i`` are drawn from its own part of each millisecond's sequence (no id is shared in the one
database), and the events without a server (the DM clicks), which Discord sends to shard 0, reach
the process's own shard: each process serves its own tables' actions, as one bot process would
whichever process Discord handed them to (the multi-process tests cover that case).

The harness is simcord as the tests use it, made cheap where it scaled with the work rather than
with the bot (docs/benchmarks.md, "Several processes on PostgreSQL"): its settling decides the
same things but reads each timer once (:func:`cheap_settling`), the real-clock fallbacks of
timers the bot cancelled are cancelled too (:func:`sweep_orphan_timers`), and asyncpg's two
300-second housekeeping timers are off (:func:`no_real_time_pool_timers`), so that no real-clock
fallback moves the virtual clock in the middle of a run.

``--postgres`` starts a throwaway PostgreSQL server for the run (``tests/postgres.py``: the
binaries of Debian's ``postgresql`` package, as the ``postgres`` user under root) and removes it
after.

Reported: actions per second (all processes together, wall time of the play loops); p50 / p99
from interaction to the first response and until idle; the event loop thread's CPU time from
interaction to the first response (``time.thread_time``: the latency on an idle core, the waits
for the database apart); Discord API calls per action; processor milliseconds per action in the
bot processes (``time.process_time``: the bot and its simcord, which runs in the same process)
and, for PostgreSQL, in the database server (the user and system time of the server's
processes, read from ``/proc`` before and after the play loops); the load average (1 minute) at
the start and end of the play loops.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import asyncpg
import discord
import simcord
import simcord.gateway
from bench_discord import TimedLog, choose, kind_of, label_of, pct
from simcord import _dpy_internals, _settlement

from bot.app import KapBot, create_bot
from bot.config import Settings
from bot.storage.db import Database

GUILD_BASE = 1_000_000_000_000_000_001

SETTLE_TIMEOUT = 120.0
"""Real seconds one settle may take before simcord gives up (its default is 5)."""


class CpuTimedLog(TimedLog):
    """simcord's HTTP log with the real time and the main thread's CPU time of each request."""

    def __init__(self, entries: list[Any]) -> None:
        super().__init__(entries)
        self.cpu: list[float] = [0.0] * len(entries)

    def append(self, entry: Any) -> None:
        """Record an entry, when it was made and the CPU the event loop's thread had used."""
        self.cpu.append(time.thread_time())
        super().append(entry)


def settings_for(
    directory: str, url: str | None, guild_id: int, index: int = 0, processes: int = 1
) -> Settings:
    """The bot's settings for process ``index`` of ``processes``: shard ``index`` of as many
    shards as processes (simcord needs the count discord.py would ask Discord for)."""
    extra: dict[str, Any] = {"database_url": url} if url else {}
    return Settings(
        discord_token=None,
        db_path=Path(directory) / "bench.sqlite3",
        default_ante=10,
        starting_chips=10**9,
        daily_amount=100,
        turn_seconds=600,
        dev_guild_id=guild_id,
        shard_count=processes,
        shard_ids=(index,),
        **extra,
    )


def guild_of(index: int, processes: int) -> int:
    """A server id that Discord's rule ``(id >> 22) % shards`` puts on shard ``index``."""
    millisecond = GUILD_BASE >> 22
    return (millisecond - millisecond % processes + index) << 22 | 1


class _SequenceFrom(dict[int, int]):
    """simcord's next sequence number per millisecond, starting at ``start`` instead of 0."""

    def __init__(self, start: int) -> None:
        super().__init__()
        self.start = start

    def get(self, key: int, default: int | None = None) -> int:  # type: ignore[override]
        """The next sequence of ``key``'s millisecond (``start`` for a new one)."""
        return super().get(key, self.start)


def separate_process(env: simcord.Env, index: int) -> None:
    """Make process ``index``'s simcord a part of one Discord shared with the other processes:
    its snowflakes from its own quarter of each millisecond's sequence (every process's virtual
    clock starts at the same instant), and the events without a server (DMs) to its own shard."""
    env.backend._sequences = _SequenceFrom(index << 20)  # type: ignore[attr-defined]
    own = env._shard_ids[0]  # type: ignore[attr-defined]
    original = simcord.gateway.ShardRouter._event_shard_id

    def event_shard(router: Any, event: str, payload: Any) -> int:
        if payload.get("guild_id") is None and event not in GUILD_EVENTS:
            return int(own)
        return int(original(router, event, payload))

    simcord.gateway.ShardRouter._event_shard_id = event_shard  # type: ignore[method-assign]


class Transactions:
    """How many write and read transactions the bot opens (``Database.transaction`` / ``read``)."""

    writes = 0
    reads = 0

    @classmethod
    def count(cls) -> None:
        """Count every transaction of this process from now on."""
        write, read = Database.transaction, Database.read

        def transaction(db: Database) -> Any:
            cls.writes += 1
            return write(db)

        def read_only(db: Database) -> Any:
            cls.reads += 1
            return read(db)

        Database.transaction = transaction  # type: ignore[method-assign]
        Database.read = read_only  # type: ignore[method-assign]


GUILD_EVENTS = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}


def sweep_orphan_timers(loop: asyncio.AbstractEventLoop) -> int:
    """Cancel the real-clock fallbacks of simcord's virtual timers that the bot already cancelled.

    simcord 3.2.1 gives every virtual timer the bot schedules a real-clock fallback (``run_real``),
    and does not cancel it when the bot cancels the timer: the fallback stays in the event loop's
    heap until its real instant comes and then does nothing. asyncpg reschedules a timer at every
    release of a pooled connection (``max_inactive_connection_lifetime``, 300 s), so on
    PostgreSQL hundreds of dead fallbacks pile up, and simcord's settling scans the whole heap
    for every task it checks (``is_sleep_waiter``), many times per action: most of the harness's
    cost. Cancelling them changes nothing they would do (each one checks that its timer is still
    live before acting) and lets asyncio drop them from the heap. Returns how many it cancelled.
    """
    cancelled = 0
    for handle in list(getattr(loop, "_scheduled", ())):
        callback = getattr(handle, "_callback", None)
        if handle.cancelled() or getattr(callback, "__name__", "") != "run_real":
            continue
        cells = dict(zip(callback.__code__.co_freevars, callback.__closure__ or (), strict=True))
        record = cells["record"].cell_contents if "record" in cells else None
        virtual = getattr(record, "handle", None)
        if virtual is not None and virtual.cancelled():
            handle.cancel()
            cancelled += 1
    return cancelled


_FACTS: dict[int, tuple[Any, bool, frozenset[int], Any, Any]] = {}


def _facts_of(handle: Any) -> tuple[Any, bool, frozenset[int], Any, Any]:
    """What a timer handle can wake, read once per handle (its callback and arguments are fixed):
    (the handle, whether it is ``asyncio.sleep``'s wake-up, the ids of its arguments, its
    callback's ``__self__``, and that object again if it is an ``asyncio.timeouts`` expiry).
    The entry holds the handle, so the ids stay those of live objects."""
    facts = _FACTS.get(id(handle))
    if facts is not None and facts[0] is handle:
        return facts
    if len(_FACTS) > 50_000:
        _FACTS.clear()
    callback = _dpy_internals._original_callback(getattr(handle, "_callback", None))
    owner = getattr(callback, "__self__", None)
    name = getattr(callback, "__name__", "")
    expiry = (
        owner
        if name == "_on_timeout" and getattr(type(owner), "__module__", "") == "asyncio.timeouts"
        else None
    )
    sleep = name == "_set_result_unless_cancelled"
    facts = (handle, sleep, frozenset(map(id, getattr(handle, "_args", ()))), owner, expiry)
    _FACTS[id(handle)] = facts
    return facts


def _timer_records_waking(state: Any, task: asyncio.Task[Any], waiter: Any) -> list[Any]:
    """simcord's ``_settlement._timer_records_waking`` with each timer's facts read once."""
    found = []
    waiter_id = id(waiter)
    for record in state.work.callbacks:
        handle = record.handle
        if record.when is None or handle is None or handle.cancelled():
            continue
        if record.when <= state.virtual_time:
            continue
        _, _, args, owner, expiry = _facts_of(handle)
        if (waiter is not None and (waiter_id in args or owner is waiter)) or (
            expiry is not None and getattr(expiry, "_task", None) is task
        ):
            found.append(record)
    return found


def _is_virtual_sleep_waiter(state: Any, waiter: Any, deadline: float) -> bool:
    """simcord's ``_settlement._is_virtual_sleep_waiter`` with each timer's facts read once."""
    if waiter is None or waiter.done():
        return False
    waiter_id = id(waiter)
    for record in state.work.callbacks:
        handle = record.handle
        if record.when is None or handle is None or handle.cancelled():
            continue
        _, sleep, args, _, _ = _facts_of(handle)
        if not sleep or waiter_id not in args:
            continue
        if _settlement._callback_fire_time(state, record) > deadline:
            return True
    return False


def _is_sleep_waiter(waiter: Any, loop: Any, deadline: float) -> bool:
    """simcord's ``_dpy_internals.is_sleep_waiter`` with each timer's facts read once."""
    if waiter is None or waiter.done():
        return False
    waiter_id = id(waiter)
    for handle in getattr(loop, "_scheduled", ()):
        if handle.cancelled():
            continue
        _, sleep, args, _, _ = _facts_of(handle)
        if sleep and waiter_id in args and handle.when() > deadline:
            return True
    return False


def no_real_time_pool_timers() -> None:
    """Open the bot's asyncpg pools and connections without their 300-second housekeeping timers.

    asyncpg closes a connection idle for ``max_inactive_connection_lifetime`` and forgets a
    prepared statement after ``max_cached_statement_lifetime`` (both 300 s), with one
    ``call_later`` per release of a connection and per cached statement. Under simcord every
    timer the bot schedules also gets a real-clock fallback: 300 real seconds into a run (a
    long set-up at 1,000 tables), those fallbacks fire and move the virtual clock 300 seconds at
    once, firing every table's timers in one settle (which outlasts it: "bot did not settle while
    advancing time") and changing the workload being measured. Neither timer does any work
    per action, so the figures are those of the bot with them; the pool and its statement cache
    are the same (10 connections, 1,000 statements)."""
    create_pool = asyncpg.create_pool

    def create_pool_without_timers(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("max_inactive_connection_lifetime", 0)
        kwargs.setdefault("max_cached_statement_lifetime", 0)
        return create_pool(*args, **kwargs)

    connect = asyncpg.connect

    def connect_without_timers(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("max_cached_statement_lifetime", 0)
        return connect(*args, **kwargs)

    asyncpg.create_pool = create_pool_without_timers
    asyncpg.connect = connect_without_timers


def cheap_settling(env: simcord.Env) -> None:
    """simcord's settling as the tests use it (``idle`` 1 ms), made cheap without changing what
    it decides: each settle starts with :func:`sweep_orphan_timers`, and the three scans it
    repeats for every task at every turn (which timer wakes which wait) read each timer's
    callback and arguments once instead of at every scan (:func:`_facts_of`). simcord 3.2.1
    is pinned, so these private names are stable."""
    _settlement._timer_records_waking = _timer_records_waking
    _settlement._is_virtual_sleep_waiter = _is_virtual_sleep_waiter
    _dpy_internals.is_sleep_waiter = _is_sleep_waiter
    settle = functools.partial(env._settle_internal, idle=0.001)  # type: ignore[attr-defined]

    async def settle_swept(**kwargs: Any) -> None:
        assert env._loop is not None  # type: ignore[attr-defined]
        sweep_orphan_timers(env._loop)  # type: ignore[attr-defined]
        await settle(**kwargs)

    env._settle_internal = settle_swept  # type: ignore[method-assign]


def barrier(directory: Path | None, index: int, processes: int) -> None:
    """Wait until every process has opened its tables, so that the play loops run together."""
    if directory is None or processes == 1:
        return
    (directory / f"ready-{index}").touch()
    # A blocking wait: the bot has nothing to do while the virtual clock stands still.
    while len(list(directory.glob("ready-*"))) < processes:
        time.sleep(0.02)


async def worker(
    index: int,
    processes: int,
    tables: int,
    actions: int,
    step: float,
    url: str | None,
    data_dir: Path | None,
    meeting: Path | None = None,
) -> dict[str, Any]:
    """One bot process: open its tables, play its actions, return its raw figures."""
    rng = random.Random(2026 + index)
    guild_id = guild_of(index, processes)
    with tempfile.TemporaryDirectory() as directory:
        settings = settings_for(directory, url, guild_id, index, processes)
        if url:
            no_real_time_pool_timers()
        bot = create_bot(settings, rng=random.Random(index))
        # Only shard 0's process publishes the commands; the others' simcord (one Discord in
        # truth) takes them as published.
        # A settle may take longer than simcord's 5 real seconds on a loaded machine (a burst of
        # table-message edits at 1,000 tables): the ceiling is real time, not the bot's clock.
        env = simcord.Env(bot, strict_sync=index == 0, settle_timeout=SETTLE_TIMEOUT)
        separate_process(env, index)
        Transactions.count()
        await env.start()
        cheap_settling(env)
        try:
            return await play(
                env, bot, guild_id, tables, actions, step, rng, data_dir, meeting, index, processes
            )
        finally:
            await env.shutdown()
            await bot.close()


async def play(
    env: simcord.Env,
    bot: KapBot,
    guild_id: int,
    n_tables: int,
    n_actions: int,
    step: float,
    rng: random.Random,
    data_dir: Path | None,
    meeting: Path | None = None,
    index: int = 0,
    processes: int = 1,
) -> dict[str, Any]:
    """Open the tables, then the measured loop (as bench_discord.play)."""
    guild = env.create_guild(f"Bench {guild_id}", id=guild_id)
    channels = [guild.create_text_channel(f"table-{i}") for i in range(n_tables)]
    members = [
        guild.add_member(env.create_user(f"p{guild_id % 100}-{i}")) for i in range(2 * n_tables)
    ]
    await env.settle()
    seats: dict[int, list[simcord.MemberActor]] = {}
    set_up = time.perf_counter()
    for i, channel in enumerate(channels):
        host, guest = members[2 * i], members[2 * i + 1]
        await host.slash(channel, "table new")
        await guest.slash(channel, "table join")
        await host.slash(channel, "table start")
        seats[channel.id] = [host, guest]
        # The tables open over time, as on a real bot: all at one instant, their table
        # messages' coalesced edits would fall due together, hundreds in one burst.
        await env.advance_time(step)
    await env.advance_time(2)
    set_up = time.perf_counter() - set_up
    barrier(meeting, index, processes)

    log = CpuTimedLog(list(env.backend.http_requests))
    env.backend.http_requests = log
    latencies: list[float] = []
    cpu_latencies: list[float] = []
    totals: list[float] = []
    calls: Counter[str] = Counter()
    done = errors = 0
    writes0, reads0 = Transactions.writes, Transactions.reads
    db0 = server_cpu_seconds(data_dir)
    load0 = os.getloadavg()[0]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    turn = 0
    while done < n_actions:
        channel = channels[turn % n_tables]
        turn += 1
        table = bot.services.tables.get(channel.id)
        if table is None or not table.running:
            host = seats[channel.id][0]
            await host.click(channel.history()[-1], label="Rematch")
            await host.slash(channel, "table start")
            continue
        state = table.state
        assert state is not None
        member = next(m for m in seats[channel.id] if m.id == table.seats[state.current].user_id)
        notation = choose(table, rng)
        before = len(log)
        c0 = time.thread_time()
        t0 = time.perf_counter()
        if rng.random() < 0.5:
            dm = member.user.dm_channel.history()[-1]
            labels = {getattr(c, "label", None) for row in dm.components for c in row.children}
            if label_of(notation) in labels:
                await member.user.click(dm, label=label_of(notation))
            else:
                choice = f"kap:{table.id}:{table.version}:choose-take"
                await member.user.select(dm, [notation.split()[1]], custom_id=choice)
        else:
            verb, _, tile = notation.partition(" ")
            await (member.slash(channel, verb, tile=tile) if tile else member.slash(channel, verb))
        t1 = time.perf_counter()
        c1 = time.thread_time()
        first = next((i for i in range(before, len(log)) if log[i].path.startswith("/inter")), None)
        answered, answered_cpu = (t1, c1) if first is None else (log.times[first], log.cpu[first])
        latencies.append((answered - t0) * 1000)
        cpu_latencies.append((answered_cpu - c0) * 1000)
        totals.append((t1 - t0) * 1000)
        done += 1
        await env.advance_time(step)
        for entry in log[before:]:
            calls[kind_of(entry.method, entry.path)] += 1
    errors = len(env.errors)
    return {
        "actions": done,
        "latencies": latencies,
        "cpu_latencies": cpu_latencies,
        "totals": totals,
        "calls": dict(calls),
        "wall": time.perf_counter() - wall0,
        "cpu": time.process_time() - cpu0,
        "errors": errors,
        "started": wall0,
        "set_up": set_up,
        "writes": Transactions.writes - writes0,
        "reads": Transactions.reads - reads0,
        "db_cpu": (db0, server_cpu_seconds(data_dir)),
        "load": (load0, os.getloadavg()[0]),
    }


def server_cpu_seconds(data_dir: Path | None) -> float:
    """User + system seconds used so far by the PostgreSQL server's processes (0 without one)."""
    if data_dir is None:
        return 0.0
    try:
        postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == postmaster or ppid == postmaster:
            # utime, stime, cutime, cstime: fields 14-17 of stat (11-14 after the name).
            total += sum(int(f) for f in fields[11:15])
    return total / tick


def run_processes(
    args: argparse.Namespace, url: str | None, data_dir: Path | None
) -> list[dict[str, Any]]:
    """Start the worker processes together and collect their JSON figures."""
    n = args.processes
    if n == 1:
        return [asyncio.run(worker(0, 1, args.tables, args.actions, args.step, url, data_dir))]
    meeting = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    procs = []
    outputs: list[Any] = []
    for i in range(n):
        argv = [
            sys.executable,
            __file__,
            "--worker",
            str(i),
            "--processes",
            str(n),
            "--meeting",
            str(meeting),
            "--tables",
            str(args.tables // n),
            "--actions",
            str(args.actions // n),
            "--step",
            str(args.step),
        ]
        if url:
            argv += ["--database-url", url]
        if data_dir is not None:
            argv += ["--pg-data", str(data_dir)]
        # Each worker's figures go to a file: a pipe nobody reads while it runs could fill up.
        outputs.append((meeting / f"figures-{i}.json").open("w+"))
        procs.append(subprocess.Popen(argv, stdout=outputs[-1], text=True))
    try:
        # A worker that fails ends the run: the others would wait for it at the barrier.
        while any(proc.poll() is None for proc in procs):
            if any(proc.returncode not in (None, 0) for proc in procs):
                raise SystemExit("bench_scale: a worker failed (its error is above)")
            time.sleep(0.2)
        if any(proc.returncode != 0 for proc in procs):
            raise SystemExit("bench_scale: a worker failed (its error is above)")
        results = []
        for out in outputs:
            out.seek(0)
            results.append(json.loads(out.read().strip().splitlines()[-1]))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for out in outputs:
            out.close()
        shutil.rmtree(meeting, ignore_errors=True)
    return results


def report(results: list[dict[str, Any]], args: argparse.Namespace, backend: str) -> None:
    """Print the pooled figures as a Markdown table."""
    actions = sum(r["actions"] for r in results)
    latencies = [x for r in results for x in r["latencies"]]
    totals = [x for r in results for x in r["totals"]]
    calls: Counter[str] = Counter()
    for r in results:
        calls.update(r["calls"])
    # The loops overlap: the wall time is from the first start to the last end.
    wall = max(r["started"] + r["wall"] for r in results) - min(r["started"] for r in results)
    if args.processes == 1:
        wall = results[0]["wall"]
    bot_cpu = sum(r["cpu"] for r in results)
    # The server's time from the first play loop's start to the last one's end.
    db_cpu = max(r["db_cpu"][1] for r in results) - min(r["db_cpu"][0] for r in results)
    print()
    print(
        f"| {backend}, {args.processes} process(es), {args.tables} tables, "
        f"{actions} actions | value |"
    )
    print("|---|---:|")
    load0 = max(r["load"][0] for r in results)
    load1 = max(r["load"][1] for r in results)
    print(f"| load average (1 min) at the play loop's start -> end | {load0:.1f} -> {load1:.1f} |")
    print(f"| errors raised in the bots | {sum(r['errors'] for r in results)} |")
    set_up = max(r["set_up"] for r in results)
    print(f"| set-up (tables opened and started), slowest process | {set_up:.0f} s |")
    print(f"| actions per second (wall, all processes) | {actions / max(wall, 1e-9):.0f} |")
    print(
        f"| interaction -> response, p50 / p99 | {pct(latencies, 50):.1f} / "
        f"{pct(latencies, 99):.1f} ms |"
    )
    cpu_latencies = [x for r in results for x in r["cpu_latencies"]]
    print(
        f"| CPU of the event loop's thread, interaction -> response, p50 / p99 | "
        f"{pct(cpu_latencies, 50):.1f} / {pct(cpu_latencies, 99):.1f} ms |"
    )
    print(f"| until idle, p50 / p99 | {pct(totals, 50):.1f} / {pct(totals, 99):.1f} ms |")
    print(f"| Discord API calls per action | {sum(calls.values()) / actions:.2f} |")
    writes = sum(r.get("writes", 0) for r in results) / actions
    reads = sum(r.get("reads", 0) for r in results) / actions
    print(f"| write / read transactions per action | {writes:.2f} / {reads:.2f} |")
    print(f"| CPU per action in the bot processes | {1000 * bot_cpu / actions:.2f} ms |")
    if backend.startswith("PostgreSQL"):
        print(f"| CPU per action in the database server | {1000 * db_cpu / actions:.2f} ms |")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--step", type=float, default=0.05, help="virtual seconds per action")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="a PostgreSQL URL (default SQLite)")
    parser.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--pg-data", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--meeting", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    discord.utils.setup_logging(level=40)
    if args.worker is not None:
        figures = asyncio.run(
            worker(
                args.worker,
                args.processes,
                args.tables,
                args.actions,
                args.step,
                args.database_url,
                args.pg_data,
                args.meeting,
            )
        )
        print(json.dumps(figures))
        return 0
    server = None
    url = args.database_url
    data_dir: Path | None = None
    if args.postgres:
        from tests.postgres import start

        started = start()
        if isinstance(started, str):
            raise SystemExit(f"bench_scale: {started}")
        server = started
        server.psql("CREATE DATABASE bench")
        url = server.url_of("bench")
        data_dir = server.root / "data"
    if args.processes > 1 and not url:
        raise SystemExit("bench_scale: several processes need PostgreSQL (--postgres or a URL)")
    try:
        results = run_processes(args, url, data_dir)
    finally:
        if server is not None:
            server.stop()
    backend = "PostgreSQL" if url else "SQLite"
    report(results, args, backend)
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
