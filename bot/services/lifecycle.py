"""A process that stops cleanly: the actions in flight, and the refusal of new ones.

On SIGTERM (a service manager's stop, a rolling restart) the bot stops taking actions, lets
those in flight finish, and only then closes (``bot.app.KapBot.shutdown``). :class:`InFlight`
is the count it waits on: every action runs inside :meth:`InFlight.action` (on Discord, the
body of ``cogs.common.guarded``), and once :meth:`InFlight.stop` is called a new one is refused
with :class:`Restarting`, a short "try again in a moment" in the member's language. The member's
next try reaches another process (or this one, restarted): nothing was applied, and every
action is idempotent by its interaction id anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Iterator

from bot.locale import N_
from bot.services.errors import UserError

__all__ = ["RESTARTING", "InFlight", "Restarting"]

RESTARTING = N_("The bot is restarting; try again in a moment.")


class Restarting(UserError):
    """This process is stopping: the action was not applied; another try will be served."""

    def __init__(self) -> None:
        """The one refusal."""
        super().__init__(RESTARTING)


class InFlight:
    """The actions this process is running, and whether it still takes new ones."""

    def __init__(self) -> None:
        """Taking actions, none running."""
        self.stopping = False
        self._running: dict[int, str] = {}
        self._numbers = itertools.count()
        self._idle = asyncio.Event()
        self._idle.set()

    def stop(self) -> None:
        """Take no new action from now on (those running go on)."""
        self.stopping = True

    def check(self) -> None:
        """Refuse a new action when stopping (:class:`Restarting`)."""
        if self.stopping:
            raise Restarting

    @contextlib.contextmanager
    def action(self, what: str) -> Iterator[None]:
        """Count the block as an action in flight, named ``what`` (said when a stop runs out
        of time). It is not refused here: the caller decided to run it."""
        number = next(self._numbers)
        self._running[number] = what
        self._idle.clear()
        try:
            yield
        finally:
            del self._running[number]
            if not self._running:
                self._idle.set()

    def running(self) -> list[str]:
        """The actions in flight, oldest first."""
        return list(self._running.values())

    async def finished(self, timeout: float) -> list[str]:
        """Wait until no action is in flight, at most ``timeout`` seconds; the actions still
        running then (empty: all finished)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), max(timeout, 0.0))
        return self.running()
