"""The refusals both domino families' engines share, as English templates (message ids): a
move at the wrong moment, a finished game, and tile notation. Each family's engine facet adds
its own (:attr:`bot.engine.family.RuleBook.refusals`); the services and the terminal client
recognize a refusal among its game's templates (:func:`bot.locale.recognize`) to word it in a
reader's language. Written as sentences (a capital, a full stop), as a reader is told them.
"""

from __future__ import annotations

from bot.games import N_

__all__ = ["REFUSALS"]

REFUSALS = (
    N_("'{action}' is not allowed now."),
    N_("The game is over."),
    # Tile notation (bot.engine.tiles). A family's "Not {what}" usage line comes after these:
    # it would match "Not a tile: …; write it as pips …" too.
    N_("Empty tile: write a tile like 6-5, 65 or Axe."),
    N_("Not a tile: {text}; write it as pips (6-5, 65, [6:5]) or by name (Axe, 斧頭)."),
    N_("Not a tile: {text}, pips run from 1 to 6."),
    N_("Not a tile: {text}, there is no {high}-{low} in the set."),
    N_("There is no {high}-{low} tile in the set."),
    N_("Two tiles are called {text}: write {options}."),
)
"""What every domino family refuses alike (its own refusals come before these)."""
