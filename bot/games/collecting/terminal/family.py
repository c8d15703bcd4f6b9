"""The terminal facet of the collecting games, Kap Shap and Kap Tai Shap: their set-up questions
(opponents, rule set), their levels as the client lists them, and their table
(:mod:`bot.games.collecting.terminal.table`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai.family import ai_of
from bot.engine import make_rules
from bot.games import find
from bot.games.collecting.terminal.table import CollectingTable
from bot.locale import N_
from bot.locale import t as tr
from bot.terminal.family import Asker, Console, GameTerminal, TableHooks

__all__ = ["FACET", "RULE_SETS", "CollectingTerminal"]

RULE_SETS = ("culin", "classic", "last-draw")
"""The rule sets ``--rules`` and the set-up offer."""

# What a player may type at the set-up for a rule set besides its name (both scripts).
_RULE_SET_ALIASES: dict[str, str] = {
    "古林": "culin",
    "傳統": "classic",
    "传统": "classic",
    "吃後摸": "last-draw",
    "吃后摸": "last-draw",
}


class CollectingTerminal:
    """Kap Shap and Kap Tai Shap for the terminal client."""

    def levels(self, game: str) -> tuple[str, ...]:
        """Every level the game offers, weakest first."""
        return ai_of(game).levels(game)

    def unknown_level(self, game: str) -> str:
        """The refusal of an unknown ``--ai``."""
        return N_("unknown AI level '{level}': choose one of {known}")

    def rule_sets(self, game: str) -> tuple[str, ...]:
        """``culin``, ``classic``, ``last-draw``."""
        return RULE_SETS

    def setup(
        self, game: str, ask: Asker, locale: str, chosen: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """The opponents (a game for more than two players only), then the rule set."""

        def lt(msgid: str, **values: Any) -> str:
            return tr(locale, msgid, **values)

        def opponents_of(text: str) -> str:
            if not text.isdigit() or not 1 <= int(text) <= 27:
                raise ValueError(lt("answer a number from 1 to 27"))
            return text

        def rule_set_of(text: str) -> str:
            name = _RULE_SET_ALIASES.get(text, text.lower())
            if name not in RULE_SETS:
                raise ValueError(lt("choose one of {options}", options=", ".join(RULE_SETS)))
            return name

        info = find(game)
        if info.players[0] == info.players[1]:
            opponents = info.players[0] - 1
        else:
            default = chosen["opponents"] or info.default_seats - 1
            answer = ask(lt("Opponents (1 to 27)"), str(default), opponents_of)
            if answer is None:
                return None
            opponents = int(answer)
        default_set = chosen["rules"] or make_rules(game, opponents + 1).rule_set_name
        rule_set = ask(lt("Rule set: culin, classic or last-draw"), default_set, rule_set_of)
        if rule_set is None:
            return None
        return {"opponents": opponents, "rules": rule_set}

    def hooks(self, console: Console, state: Any, human: int) -> TableHooks:
        """The table of one game (:class:`CollectingTable`)."""
        return CollectingTable(console, state, human)


FACET: GameTerminal = CollectingTerminal()
"""The terminal facet of the collecting games (``terminal_of("kap-shap")``)."""
