"""The engine's refusals of a table's settings as message ids: the engine speaks English
(stdlib only), and every program that shows them (the Discord services, the terminal client,
the simulator) recognizes them here (:func:`bot.locale.recognize`) to word them in its
reader's language. One list for all, so a refusal reads the same wherever it is met;
tests/locale/test_engine_refusals.py walks the engine's source so that a new refusal missing
here fails. The refusals of a play are the game's own: its engine facet lists them
(:attr:`bot.engine.family.RuleBook.refusals`, ``bot/games/<family>/engine/refusals.py``).
"""

from __future__ import annotations

from bot.locale import N_

__all__ = ["RULES_REFUSALS"]

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
