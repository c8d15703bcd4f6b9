"""``kapshap play``: a game of the registry against computer players, in a terminal.

The client drives the engine only through the game's engine facet (``new_game``,
``legal_actions``, ``apply``, ``view``). What it prints comes from the human seat's view (or
from events described for that seat), so another seat's hand is never shown; computer seats
choose from their own views.

Input is read line by line from ``stdin``, so a game can be scripted: every prompt shows the legal
actions in notation (``take 6-5``, ``draw``, ``discard 3-1``, ``declare``; ``capture pair left``,
``place right`` in Tsung Shap), and bad input gets a one-line explanation and the prompt again,
never a traceback.

The package, by responsibility: :mod:`~bot.terminal.cli` (the options and their checks, games
one after another), :mod:`~bot.terminal.setup` (the set-up questions), :mod:`~bot.terminal.console`
(the streams, the prompt, the client's own lines), :mod:`~bot.terminal.table` (the game loop)
and :mod:`~bot.terminal.family` (what a game's family gives the client: its set-up questions and
its table's hooks, ``bot/games/<family>/terminal/``).
"""

from __future__ import annotations

from bot.locale.refusals import RULES_REFUSALS
from bot.terminal.cli import PROG, build_parser, main
from bot.terminal.console import LEGAL_PREFIX, PROMPT
from bot.terminal.table import run_game

__all__ = [
    "LEGAL_PREFIX",
    "PROG",
    "PROMPT",
    "RULES_REFUSALS",
    "build_parser",
    "main",
    "run_game",
]
