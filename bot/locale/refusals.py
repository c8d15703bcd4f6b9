"""The engine's refusals as message ids, for the terminal client and the simulator: the engine
speaks English, and a program that shows its refusals recognizes them here
(:func:`bot.locale.recognize`) to word them in the player's language.

:data:`ENGINE_REFUSALS` repeats the refusals of a play that ``bot.services.tables`` recognizes for
Discord (the terminal may not import the services); tests/locale/test_zh_terminal.py checks
that each of them is one the bot knows too (one wording for both).
"""

from __future__ import annotations

from bot.locale import N_

__all__ = ["ENGINE_REFUSALS", "RULES_ERRORS"]

#: The engine's refusals of a play, as sentences (a capital, a full stop).
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
)

#: The engine's refusals of the rules asked for on a command line (``kapshap play``, ``kapshap
#: sim``), as the engine words them (no full stop).
RULES_ERRORS = (
    N_("Kap Shap is for exactly 2 players, not {n}"),
    N_("Kap Tai Shap takes 2 to {most} players, not {n}"),
    N_("Tsung Shap is for exactly 2 players, not {n}"),
    N_("Tsung Shap is played with exactly one set"),
    N_(
        "Tsung Shap has no rule set '{name}': its only rule set is '{only}'; choose variants "
        "with flags (e.g. auto_capture=true)"
    ),
    N_("unknown rule flag '{name}': known flags are {known}"),
    N_("{name} must be one of {choices}, not '{value}'"),
    N_("{name} must be true or false, not '{value}'"),
    N_("{name} must be a whole number, not '{value}'"),
    N_("{name} must be between {low} and {high}, not {value}"),
    N_("settle_rate must be at least 1 chip per point, not {value}"),
)
