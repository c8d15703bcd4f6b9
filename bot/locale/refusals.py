"""The engine's refusals as message ids: the engine speaks English (stdlib only), and every
program that shows its refusals (the Discord services, the terminal client, the simulator)
recognizes them here (:func:`bot.locale.recognize`) to word them in its reader's language.
One list for all, so a refusal reads the same wherever it is met;
tests/locale/test_engine_refusals.py walks the engine's source so that a new refusal missing
here fails.
"""

from __future__ import annotations

from bot.locale import N_

__all__ = ["ENGINE_REFUSALS", "NOTATION_WORDS", "RULES_ERRORS", "RULES_REFUSALS"]

#: The engine's refusals of a play, as sentences (a capital, a full stop): the catalogue
#: translates those it recognizes; any other stays English.
ENGINE_REFUSALS = (
    N_("You do not hold {tile}."),
    N_("Your hand is not a winning hand (an eye and ten-pairs)."),
    N_("You can only declare when you hold a full hand."),
    N_("You just took {tile}: discard a different tile."),
    N_("You must take a discard or draw from the wall first."),
    N_("You must draw from the wall now."),
    N_("You hold a full hand: discard a tile (or declare) first."),
    N_("You hold a full hand: discard a tile (or declare)."),
    N_("The wall is empty: you may take {tile} only if it wins."),
    N_("The wall is empty."),
    N_(
        "{n} turns in a row took a discard without a draw: you may take {tile} only if it "
        "wins, else draw from the wall."
    ),
    N_(
        "{n} turns in a row took a discard without a draw: you must draw from the wall (a take "
        "is allowed only if it wins)."
    ),
    N_("Only the most recent discard ({last}) may be taken, not {tile}."),
    N_("You may not take back your own discard {tile}."),
    N_("{tile} is not among the face-up discards."),
    N_("There is no discard you may take."),
    N_("You may not take that tile."),
    N_("'{action}' is not allowed now."),
    N_("The game is over."),
    # Tsung Shap
    N_("Turn over your next tile first ('draw')."),
    N_("You have already claimed one missed combination this turn."),
    N_("There is no missed capture to claim."),
    N_("{name} did not miss a {kind} at {end}: you may claim {could}."),
    N_("You have turned over {tile} already: capture with it or place it."),
    N_("Missed captures are claimed at the start of a turn, before turning over."),
    N_("Auto_capture: you must take the best capture ({best})."),
    N_("Auto_capture: only the best capture may be taken ({best})."),
    N_("{tile} is not identical to the {end} end tile {other}."),
    N_("A triplet needs two tiles on the row."),
    N_(
        "With triplet_both_ends_only a triplet is the turned tile with both end tiles "
        "('capture triplet ends')."
    ),
    N_("{tile} + {a} + {b} total {total}, not a multiple of ten."),
    N_("'{action}' is not a Tsung Shap action."),
    N_("'{action}' is not a {game} action."),
    # Notation a member types in a play command's option (bot.engine.tiles, .actions). The
    # specific texts come before "Not {what}" which would match them too.
    N_("Empty tile: write a tile like 6-5, 65 or Axe."),
    N_("Not a tile: {text}; write it as pips (6-5, 65, [6:5]) or by name (Axe, 斧頭)."),
    N_("Not a tile: {text}, pips run from 1 to 6."),
    N_("Not a tile: {text}, there is no {high}-{low} in the set."),
    N_("There is no {high}-{low} tile in the set."),
    N_("Two tiles are called {text}: write {options}."),
    N_("Empty action: write one of {verbs}."),
    N_("Unknown action {text}: write one of {verbs}."),
    N_("Discard needs a tile, e.g. 'discard 3-1'."),
    N_("{verb} takes no tile: write just '{word}'."),
    N_("Draw takes nothing after it: write just 'draw'."),
    N_("Write 'place left' or 'place right'."),
    N_("Write '{verb} pair left|right' or '{again} triplet left|right|ends'."),
    N_("A pair is at the left or the right end: '{usage}'."),
    N_("A tile is placed at the left or the right end, not at 'ends'."),
    N_("Not {what}: {text}; {usage}."),
)

#: The engine's refusals of a table's settings (bot.engine.rules) as it words them: for
#: "Those settings don't work: …" (``TableService.check_options``) and for the options of a
#: command line (``kapshap play``, ``kapshap sim``).
RULES_REFUSALS = (
    N_("Kap Shap is for exactly 2 players, not {players}"),
    N_("Tsung Shap is for exactly 2 players, not {players}"),
    N_("Kap Tai Shap takes 2 to {most} players, not {players}"),
    N_("the game takes 2 to {most} players, not {players}"),
    N_("unknown rule set '{name}': choose one of {names}"),
    N_("unknown game '{name}': choose one of {names}"),
    N_("unknown rule flag '{name}': known flags are {names}"),
    N_("unknown rule flag(s): {names}"),
    N_(
        "Tsung Shap has no rule set '{name}': its only rule set is '{only}'; choose variants "
        "with flags (e.g. auto_capture=true)"
    ),
    N_("{name} must be true or false, not '{value}'"),
    N_("{name} must be a whole number, not '{value}'"),
    N_("{name} must be one of {names}, not '{value}'"),
    N_("{name} must be between {low} and {high}, not {value}"),
    N_("settle_rate must be at least 1 chip per point, not {value}"),
    N_("Kap Shap is played with exactly one set"),
    N_("Tsung Shap is played with exactly one set"),
    N_("sets must be between 1 and {most}, not {value}"),
    N_(
        "{sets} set(s) hold {tiles} tiles, too few to deal {dealt} to {players} players and "
        "keep a wall: use at least {need} sets"
    ),
    N_("exclude_own_discards applies only when any discard may be taken"),
    N_("rake_percent must be between 0 and 50, not {value}"),
    N_("max_turns must be between 1 and 100000, not {value}"),
)

#: Words the engine puts inside a notation refusal ("Not {what}: …; {usage}"), told in a
#: member's language through the ``term`` context (Message.localized looks values up there).
NOTATION_WORDS = (
    N_("an end"),
    N_("pair or triplet"),
    N_("left, right or ends"),
    N_("write 'place left' or 'place right'"),
    N_("write 'capture pair left|right' or 'capture triplet left|right|ends'"),
    N_("write 'claim pair left|right' or 'claim triplet left|right|ends'"),
)

#: The name the terminal client and the simulator know them by.
RULES_ERRORS = RULES_REFUSALS
