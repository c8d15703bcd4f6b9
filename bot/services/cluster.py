"""Several bot processes on one database: the shards each one runs, and the named locks that
keep two processes from running the same shard, or the start-up repair, at the same time.

A process claims every shard it runs with the lock ``shard:<id>`` (:func:`claim_shards`) and holds
the claims until it stops; a second process claiming one of them is refused with
:class:`ShardClaimed`, one line naming the shard. The start-up repair runs under the lock
``repair`` (:func:`repair_once`): a process that finds it held waits until the holder is done
and then skips the repair, which that holder has just run.

The locks are anything with :class:`NamedLocks`' one method. On PostgreSQL that is the
database's session-level advisory locks (``Database.hold``, one key per name:
:mod:`bot.storage.advisory`); they die with the process's connection, so a crash never leaves a
shard claimed. On SQLite the file lock already makes the process the only one on its database,
so :class:`LocalLocks` (names held within this process) is all that is needed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import ClassVar, Protocol

__all__ = [
    "REPAIR_LOCK",
    "REPAIR_POLL_SECONDS",
    "HeldLock",
    "LocalLocks",
    "NamedLocks",
    "ShardClaimed",
    "claim_shards",
    "repair_once",
    "shard_lock_name",
    "shard_ranges",
]

REPAIR_LOCK = "repair"
"""The lock the start-up repair runs under."""

REPAIR_POLL_SECONDS = 1.0
"""How often a process waiting for another's start-up repair asks whether it is done."""


class HeldLock(Protocol):
    """A named lock this process holds."""

    async def release(self) -> None:
        """Give the lock up (safe to call twice)."""


class NamedLocks(Protocol):
    """Locks named by strings, each held by at most one process at a time."""

    async def hold(self, name: str) -> HeldLock | None:
        """Take the lock ``name`` without waiting: the held lock, or None when another process
        (or another holder in this one) has it."""


class _LocalLock:
    def __init__(self, held: set[str], name: str) -> None:
        self._held: set[str] | None = held
        self.name = name

    async def release(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            held.discard(self.name)


class LocalLocks:
    """Named locks within this process, one set of names per ``scope`` (a database).

    For SQLite, whose file lock (:mod:`bot.storage.lock`) already refuses a second process on
    the database: then every claim of the one process is granted, unless it claims a name twice.
    Two :class:`LocalLocks` of the same scope share their names, as two processes on one
    PostgreSQL database share its advisory locks.
    """

    _scopes: ClassVar[dict[str, set[str]]] = {}

    def __init__(self, scope: str) -> None:
        """Locks of ``scope`` (the database's path or URL)."""
        self._held = self._scopes.setdefault(scope, set())

    async def hold(self, name: str) -> HeldLock | None:
        """The lock ``name``, or None while another holder of this scope has it."""
        if name in self._held:
            return None
        self._held.add(name)
        return _LocalLock(self._held, name)


class ShardClaimed(Exception):
    """Another process runs a shard this one was told to run."""

    def __init__(self, shard: int) -> None:
        """``shard``: the first shard found claimed."""
        super().__init__(
            f"shard {shard} is run by another bot process on this database: give each process "
            "its own KAPSHAP_SHARD_IDS (docs/processes.md)"
        )
        self.shard = shard


def shard_lock_name(shard: int) -> str:
    """The lock a process holds while it runs ``shard``."""
    return f"shard:{shard}"


async def claim_shards(locks: NamedLocks, shards: Iterable[int]) -> list[HeldLock]:
    """Claim every shard of ``shards``, or none: :class:`ShardClaimed` names the first one
    another process holds (the claims taken before it are given back)."""
    held: list[HeldLock] = []
    for shard in shards:
        lock = await locks.hold(shard_lock_name(shard))
        if lock is None:
            for claim in held:
                await claim.release()
            raise ShardClaimed(shard)
        held.append(lock)
    return held


async def repair_once(
    locks: NamedLocks,
    repair: Callable[[], Awaitable[object]],
    sleep: Callable[[float], Awaitable[None]],
    poll_seconds: float = REPAIR_POLL_SECONDS,
) -> bool:
    """Run ``repair`` under the lock :data:`REPAIR_LOCK`; whether this process ran it.

    The lock free: this process repairs, holding it. The lock held: another process is
    repairing right now, so this one waits (``sleep``, asking again every ``poll_seconds``)
    until that repair is done, and skips its own: the database has just been repaired, and two
    repairs never run at once.
    """
    lock = await locks.hold(REPAIR_LOCK)
    if lock is not None:
        try:
            await repair()
        finally:
            await lock.release()
        return True
    while lock is None:
        await sleep(poll_seconds)
        lock = await locks.hold(REPAIR_LOCK)
    await lock.release()
    return False


def shard_ranges(shards: Sequence[int]) -> str:
    """``[0, 1, 2, 3, 6]`` -> ``"0-3,6"``: the form ``KAPSHAP_SHARD_IDS`` is written in."""
    parts: list[str] = []
    ordered = sorted(shards)
    start = 0
    for index in range(1, len(ordered) + 1):
        if index == len(ordered) or ordered[index] != ordered[index - 1] + 1:
            first, last = ordered[start], ordered[index - 1]
            parts.append(str(first) if first == last else f"{first}-{last}")
            start = index
    return ",".join(parts)
