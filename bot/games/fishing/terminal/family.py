"""The terminal facet of Tsung Shap: no set-up question of its own (two players, one rule set),
its levels, and its table (:mod:`bot.games.fishing.terminal.table`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai.family import ai_of
from bot.games.fishing.terminal.table import FishingTable
from bot.locale import N_
from bot.terminal.family import Asker, Console, GameTerminal, TableHooks

__all__ = ["FACET", "FishingTerminal"]


class FishingTerminal:
    """Tsung Shap for the terminal client."""

    def levels(self, game: str) -> tuple[str, ...]:
        """Every level, weakest first."""
        return ai_of(game).levels(game)

    def unknown_level(self, game: str) -> str:
        """The refusal of an unknown ``--ai``."""
        return N_("unknown AI level '{level}' for tsung-shap: choose one of {known}")

    def rule_sets(self, game: str) -> tuple[str, ...]:
        """None: the variants are ``--rule`` flags."""
        return ()

    def setup(
        self, game: str, ask: Asker, locale: str, chosen: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """Nothing to ask: one opponent, no rule set."""
        return {"opponents": 1, "rules": None}

    def hooks(self, console: Console, state: Any, human: int) -> TableHooks:
        """The table of one game (:class:`FishingTable`)."""
        return FishingTable(console, state, human)


FACET: GameTerminal = FishingTerminal()
"""The terminal facet of Tsung Shap (``terminal_of("tsung-shap")``)."""
