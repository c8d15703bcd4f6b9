"""PostgreSQL session-level advisory locks by name: the SQL and the key of each name.

``Database.hold(name)`` (bot/storage/db.py, PostgreSQL) takes a lock with :data:`TRY_LOCK_SQL`
on a connection it keeps for the lock's life (a session lock belongs to its connection: taken
from a pool and returned, it would stay held by whoever borrows the connection next), and gives
it back with :data:`UNLOCK_SQL`. The server releases every lock of a connection that closes,
so a process that dies never leaves a lock behind. :mod:`bot.services.cluster` names the locks
(``shard:<id>``, ``repair``).

The key is the first 8 bytes of SHA-256 of ``kapshap:<name>``, a signed 64-bit number: stable
across processes, Python versions and machines (unlike ``hash()``) and across PostgreSQL
versions (unlike ``hashtext()``), and the prefix keeps it apart from other applications' keys
on a shared server. A collision with another name (or with the fixed key of the write
transactions' ``pg_advisory_xact_lock``) is a 1 in 2**64 chance.
"""

from __future__ import annotations

import hashlib

__all__ = ["TRY_LOCK_SQL", "UNLOCK_SQL", "advisory_key"]

TRY_LOCK_SQL = "SELECT pg_try_advisory_lock($1)"
"""True when the lock of key ``$1`` is now held by this connection, False when another has it."""

UNLOCK_SQL = "SELECT pg_advisory_unlock($1)"
"""Gives the lock of key ``$1`` back (True when this connection held it)."""


def advisory_key(name: str) -> int:
    """The advisory-lock key of the lock ``name``."""
    digest = hashlib.sha256(f"kapshap:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)
