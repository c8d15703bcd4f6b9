"""Tables: one lobby or game per channel, driven through the engine, persisted after every action.

The Discord cogs call this service and nothing else for play. Every change is committed to the
database before the call returns, so what a player is shown has always been saved. A restart
rebuilds each unfinished table by replaying its action log (:meth:`TableService.restore`).

Concurrency: every table has one :class:`asyncio.Lock`; every mutating call takes it, and a call
that names the version it was drawn for (a button) is refused as out of date if the table moved
on, so a doubled click never acts twice.

The service is a package of modules you can read whole (the layers of
:mod:`~bot.services.tables.service`, plus :mod:`~bot.services.tables.model` for the values it
hands out and :mod:`~bot.services.tables.words` for what it tells members); this module
re-exports the names its users import.
"""

from bot.locale.refusals import RULES_REFUSALS as RULES_REFUSALS
from bot.services.tables.model import (
    EXPIRY_CONCURRENCY,
    FAILURE_LIMIT,
    MAX_RECENT,
    MAX_SETTLE_RATE,
    QUARANTINE_NOTICE,
    RESTORE_FLOOR_SECONDS,
    RETRY_SECONDS,
    ActListener,
    Listener,
    Outcome,
    Quarantined,
    SeatInfo,
    Step,
    Table,
    TableDefaults,
    TableStatus,
)
from bot.services.tables.play import _ai_choice as _ai_choice
from bot.services.tables.service import TableService
from bot.services.tables.store import _apply as _apply
from bot.services.tables.words import _refusal as _refusal
from bot.services.tables.words import _rules_refusal as _rules_refusal
from bot.services.tables.words import _sentence as _sentence
from bot.services.tables.words import engine_refusal

__all__ = [
    "EXPIRY_CONCURRENCY",
    "FAILURE_LIMIT",
    "MAX_RECENT",
    "MAX_SETTLE_RATE",
    "QUARANTINE_NOTICE",
    "RESTORE_FLOOR_SECONDS",
    "RETRY_SECONDS",
    "ActListener",
    "Listener",
    "Outcome",
    "Quarantined",
    "SeatInfo",
    "Step",
    "Table",
    "TableDefaults",
    "TableService",
    "TableStatus",
    "engine_refusal",
]
