"""What the two domino families' tables in the terminal share: the console's seats and words,
tiles named in the table's language, and the rules in one line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.rules import RuleSet
from bot.engine.tiles import Tile
from bot.engine.variants import chosen_variants
from bot.locale import nt, tile_name
from bot.terminal.family import Console

__all__ = ["DominoTable", "tile_count"]


def tile_count(count: int, locale: str = "en") -> str:
    """``3 tiles`` in ``locale``."""
    return nt(locale, "{n} tile", "{n} tiles", count)


class DominoTable:
    """The shared half of a domino family's hooks (:class:`bot.terminal.family.TableHooks`)
    for one game: the console's seats and words at hand, and what both families word alike."""

    def __init__(self, console: Console, state: Any, human: int) -> None:
        self.console = console
        self.state = state  # as dealt
        self.rules: RuleSet = state.rules
        self.human = human

    @property
    def locale(self) -> str:
        """The table's language."""
        return self.console.locale

    @property
    def names(self) -> Sequence[str]:
        """The seats' names."""
        return self.console.names

    @property
    def deal(self) -> Any:
        """The deal played."""
        return self.console.deal

    def lt(self, msgid: str, **values: Any) -> str:
        """``msgid`` in the table's language."""
        return self.console.lt(msgid, **values)

    def say(self, text: str = "") -> None:
        """Print one line."""
        self.console.say(text)

    def show_legal(self, legal: Sequence[Any]) -> None:
        """The legal actions in notation."""
        self.console.legal_line(legal)

    def label(self, tile: Tile) -> str:
        """``6-5 Axe 斧頭``, or ``6-5 斧头`` in Chinese (the name in the locale's script)."""
        if self.locale == "en":
            return tile.label
        return f"{tile} {tile_name(self.locale, tile.english, tile.chinese)}"

    def rules_line(self) -> str:
        """The rules in one line: the engine's English summary, or in the table's language
        the same words as the bot's table message, with any flag set by ``--rule``."""
        if self.locale == "en":
            return self.rules.describe()
        chosen = chosen_variants(self.rules)
        return self.rules_words() + "".join(f" · {k}={v}" for k, v in chosen.items())

    def rules_words(self) -> str:
        """The rule set's words in the table's language (not English), without the flags."""
        raise NotImplementedError
