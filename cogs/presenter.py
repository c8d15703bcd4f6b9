"""What players see: the public table message, private hands by DM, the end-of-game reveal.

**One table message per table**, edited as the game moves. Edits are coalesced: a change marks
the table *dirty*; the message is edited at once if its last edit is at least
:data:`EDIT_INTERVAL` old, otherwise by the bot's one scheduler tick (the play cog's
``tasks.loop``), so a burst of changes makes one edit and a channel sees at most about one edit
per second. Times come from the injected clock (virtual under simcord).

**Private hands.** Every human player has one live DM per game, edited when what it shows
changes: his hand, whether it is his turn, and (on his turn) the buttons, which carry the table's
version. Each DM's last *signature* is kept, so a change elsewhere at the table never touches it.
The DM's id is kept in the database, so after a restart the bot goes on editing the same message.

**Turn notices.** Discord does not notify an edit, so when a player's turn starts his hand DM is
sent again as a *new* message that starts with "🀄 Your turn at #channel — time runs out in 2
minutes" (a Discord timestamp, live and in the reader's language; a *new* message, which Discord
notifies) and the previous one is deleted: his DMs hold exactly one message per game, at
the bottom, and the notice line goes away when his turn ends. A player whose DMs are closed (or
every player, when the server chose channel notices) is mentioned in the table's channel instead:
one line, deleted when his turn ends. A member who turned notices off (``/settings``) gets his DM
edited in place. The player who just acted is not notified of his own next turn.

**Tsung Shap** has no hand: its table message shows everything (the row as a picture, scores,
piles, the turned tile, missed captures) with the current player's action buttons, and the DM is
a short status (your turn, not your turn, game over), with the same notices.

What is the game's own (its words, fields and pictures) comes from its family's render facet
(:func:`bot.render.family.render_of`); this code tells no game from another.

Only :meth:`Presenter.hand_payload` ever reads a hand, and only the requesting seat's, from
``table.view_for(user_id)``; everything public is drawn from the spectator view
``table.view_for(None)``, which holds no hand at all.

The parts: :mod:`cogs.sheets` (what every message shares), :mod:`cogs.table_message` (the table
message, its coalesced edits, the end), :mod:`cogs.hand_dm` (the hand DMs, notices and mention
lines), :mod:`cogs.presenter_base` (state and languages); this module joins them.
"""

from __future__ import annotations

from cogs.hand_dm import HAND_FILE, MAX_OTHER_EVENTS, HandMessages, HandPayload
from cogs.presenter_base import HAND_REPLY_SECONDS
from cogs.sheets import (
    COLOUR,
    aborted_text,
    field_text,
    jump_url,
    lobby_rules,
    seat_labels,
    stakes_text,
    time_runs_out,
    unbroken_embed,
)
from cogs.table_message import EDIT_INTERVAL, FLUSH_CONCURRENCY, TableMessages

__all__ = [
    "COLOUR",
    "EDIT_INTERVAL",
    "FLUSH_CONCURRENCY",
    "HAND_FILE",
    "HAND_REPLY_SECONDS",
    "MAX_OTHER_EVENTS",
    "HandPayload",
    "Presenter",
    "aborted_text",
    "field_text",
    "jump_url",
    "lobby_rules",
    "seat_labels",
    "stakes_text",
    "time_runs_out",
    "unbroken_embed",
]


class Presenter(TableMessages, HandMessages):
    """Renders tables and hands and keeps the table messages and DMs up to date."""

    def prune(self, live: set[str]) -> None:
        """Drop what is kept for tables that are gone (replaced by a rematch or a new table)."""
        for table_id in {k for k in self._messages if k not in live}:
            self._messages.pop(table_id, None)
        for key in [k for k in self._dms if k[0] not in live]:
            del self._dms[key]
        for key in [k for k in self._hand_replies if k[0] not in live]:
            del self._hand_replies[key]

    def forget(self, table_id: str) -> None:
        """Drop what is kept for a table that is gone."""
        self._messages.pop(table_id, None)
        for key in [k for k in self._dms if k[0] == table_id]:
            del self._dms[key]
        for key in [k for k in self._hand_replies if k[0] == table_id]:
            del self._hand_replies[key]
