"""The table service: one class, :class:`TableService`, built in layers.

Each layer is a module you can read whole and stands on the one before it, so that a method
calls only what is defined below it (no module imports a later one):

* :mod:`~bot.services.tables.core`: the state, lookups (``get``, ``require``, ``tables``), the
  checks of where a table is, and turn deadlines;
* :mod:`~bot.services.tables.store`: seats and lobby settings saved, seat states, the server's
  play settings; the tables as a cache of their rows (``lookup``, ``by_id``, ``of_player``,
  the version check before every action, a table rebuilt by replaying its log);
* :mod:`~bot.services.tables.settlement`: settling a game's chips, forfeits, rating;
* :mod:`~bot.services.tables.play`: ``start``, ``act``, ``resume_ai`` and applying actions;
* :mod:`~bot.services.tables.lobby`: ``open_table``, ``check_options``, ``join``, ``leave``,
  ``add_ai``, ``cancel``, ``set_message``, ``edit_turn``, ``drew``, ``rematch``,
  ``open_seated``, ``expire_lobbies``;
* :mod:`~bot.services.tables.recovery`: ``restore``, ``repair``, ``unreplayable``,
  ``quarantine``, ``quarantine_record``, ``stopping``;
* :mod:`~bot.services.tables.timers`: ``expire_due``, ``next_deadline``, ``resign``, timeouts;
* this module: ``notify_ended`` (the game-end listeners).

Beside them, :mod:`~bot.services.tables.model` holds the values (``Table``, ``Outcome`` …) and
:mod:`~bot.services.tables.words` what members are told.
"""

from __future__ import annotations

import logging

from bot.services.tables.model import Outcome
from bot.services.tables.timers import TableTimers

__all__ = ["TableService"]

log = logging.getLogger(__name__)


class TableService(TableTimers):
    """Open, fill, start and play tables; settle their pots; rebuild them after a restart."""

    async def notify_ended(self, outcome: Outcome) -> None:
        """Tell the listeners (a tournament) that a game ended; called once the end is shown.

        A failing listener is logged and never undoes or blocks the game's own end."""
        for listener in list(self.end_listeners):
            try:
                await listener(outcome)
            except Exception:
                log.exception("table %s: a game-end listener failed", outcome.table.id)
