"""Tournaments run by the bot: sign-up, buy-ins, rounds of tables, results, prizes.

The formats themselves are the pure package :mod:`bot.tournament`; this service stores an event
(:mod:`bot.storage.tournaments`), moves its chips through :class:`ChipsService` and plays its
matches as ordinary tables of :class:`TableService`, one thread per match. Discord is reached
only through a :class:`TournamentHost` the cog provides (open a thread, show a table, post).

**Restarts.** Every step is stored before the next begins: the event's state (``Event.to_dict``)
and the match rows (which thread plays which match, the ids of the games it opened and the
games it finished) are written in one transaction. :meth:`TournamentService.advance` is the one
loop that carries an event on from whatever is stored — a game finished but not yet counted, a
match decided, a round done, the next game or round to open — so after a restart
:meth:`resume_all` calls it for every running event and the rounds carry on; the tables
themselves are rebuilt by the table service's own restore.

**Chips.** Buy-ins are held in the pot ``tournament:{id}`` (ordinary escrow rows, so the
conservation check counts them); a member who leaves before the start is refunded from it; the
end pays the split from it (``payout:tournament:{id}:{user}``), or refunds every buy-in when the
event is cancelled. Computer fillers pay no buy-in and never win money
(:meth:`bot.tournament.Event.payouts` passes them over).

The service is a package of modules you can read whole (the layers of
:mod:`~bot.services.tournaments.service`, plus :mod:`~bot.services.tournaments.words` for what it
says, :mod:`~bot.services.tournaments.host` for what its parts share and
:mod:`~bot.services.tournaments.options` for ``/tournament new``'s options); this module
re-exports their public names.
"""

from bot.services.tournaments.board import BoardTurn
from bot.services.tournaments.host import (
    AI_LEVELS,
    FORMATS,
    MAX_OPEN,
    MAX_STEPS,
    OPEN_STATUSES,
    EventExport,
    OrganiserRoles,
    RatingLookup,
    TournamentHost,
    TournamentView,
    pot_id,
)
from bot.services.tournaments.options import settings_from_options
from bot.services.tournaments.service import TournamentService
from bot.services.tournaments.words import (
    REFUSALS,
    TEXT,
    Worded,
    board_shows_standings,
    board_text,
    computer_name,
    refusal,
    say_in,
)
from bot.storage.tournaments import TournamentRecord
from bot.tournament import explain_rules
from bot.tournament.describe import standings_text

__all__ = [
    "AI_LEVELS",
    "FORMATS",
    "MAX_OPEN",
    "MAX_STEPS",
    "OPEN_STATUSES",
    "REFUSALS",
    "TEXT",
    "BoardTurn",
    "EventExport",
    "OrganiserRoles",
    "RatingLookup",
    "TournamentHost",
    "TournamentRecord",
    "TournamentService",
    "TournamentView",
    "Worded",
    "board_shows_standings",
    "board_text",
    "computer_name",
    "explain_rules",
    "pot_id",
    "refusal",
    "say_in",
    "settings_from_options",
    "standings_text",
]
