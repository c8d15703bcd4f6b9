"""A process's cache of database rows that stays right when other processes change them.

Several bot processes share one PostgreSQL database (docs/architecture.md, "Storage"), so a row
one process caches may be changed through another: a manager's ``/kapadmin config`` served by
process A must reach the tables process B runs. A :class:`SharedCache` is kept right three ways:

* the writer's transaction reports the change (``tx.changed(topic, key)``), which the other
  processes hear when it commits (PostgreSQL ``LISTEN``/``NOTIFY``, :meth:`Database.watch`) and
  drop the entry;
* while the listening connection is down (or before it is up) nothing is cached, and its loss
  and its return drop everything, since a change may have gone unheard then;
* on PostgreSQL an entry also expires after :data:`CACHE_SECONDS`, for a loss not yet noticed.

A read that raced a change (it began before the change was heard or written by this process)
is not kept: each read takes a :meth:`SharedCache.token` first, and any change moves it on.

On SQLite (one process) entries never expire and nothing is heard: a lookup is one dictionary
read, as before.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from bot.storage.db import Database

__all__ = ["CACHE_SECONDS", "SharedCache"]

#: How long an entry is trusted on PostgreSQL without hearing of a change (a lost notification
#: that its connection's loss did not reveal yet).
CACHE_SECONDS = 10.0

V = TypeVar("V")


class SharedCache(Generic[V]):
    """Values by id (a server's, a member's) under one ``topic`` of change notifications."""

    def __init__(
        self, db: Database, topic: str, *, now: Callable[[], float] = time.monotonic
    ) -> None:
        """Cache rows of ``db``; changes are reported under ``topic``. ``now`` times the expiry
        (PostgreSQL only)."""
        self._db = db
        self.topic = topic
        self._entries: dict[int, V] = {}
        self._kept_at: dict[int, float] = {}  # only when entries expire
        self._generation = 0
        self._expires = db.shared
        self._now = now
        db.watch(topic, self._changed)

    def get(self, key: int) -> V | None:
        """The cached value, or None (not cached, or expired)."""
        value = self._entries.get(key)
        if value is None or not self._expires:
            return value  # SQLite: one dictionary read, as before
        if self._now() - self._kept_at.get(key, -math.inf) > CACHE_SECONDS:
            self._forget(key)
            return None
        return value

    def token(self) -> int:
        """Take before reading (or writing) the row: a change heard meanwhile makes
        :meth:`keep` and :meth:`wrote` drop the value instead of caching it."""
        return self._generation

    def keep(self, key: int, value: V, token: int) -> None:
        """Cache a value just read, unless a change was heard since ``token`` was taken or
        changes cannot be heard now."""
        if token == self._generation and self._db.watching:
            self._store(key, value)

    def wrote(self, key: int, value: V, token: int) -> None:
        """This process committed ``value`` (its transaction reported the change to the others):
        reads of this process still in flight are out of date."""
        current = token == self._generation
        self._generation += 1
        if current and self._db.watching:
            self._store(key, value)
        else:
            self._forget(key)

    def _store(self, key: int, value: V) -> None:
        self._entries[key] = value
        if self._expires:
            self._kept_at[key] = self._now()

    def _changed(self, key: str | None) -> None:
        self._generation += 1
        if key is None:
            self._forget_all()
        else:
            try:
                self._forget(int(key))
            except ValueError:  # not one of ours: to be safe, forget everything
                self._forget_all()

    def _forget(self, key: int) -> None:
        self._entries.pop(key, None)
        self._kept_at.pop(key, None)

    def _forget_all(self) -> None:
        self._entries.clear()
        self._kept_at.clear()
