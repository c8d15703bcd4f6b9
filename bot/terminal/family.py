"""What a family of games gives the terminal client (its *terminal facet*), and the one
accessor that fetches it: :func:`terminal_of`.

The client's generic part asks the set-up questions every game has (the game, the level, the
seed), runs the loop (a computer seat's move, the human's prompt, ``help``, ``quit``, end of
input) and hands the rest to the game's hooks: its own questions, what the table looks like
before a move, the shortcuts a player may type, the play-by-play and the end. A family may
leave the role out: :func:`terminal_of` is then None and ``kapshap play`` refuses the game
(until issue 19 step 11 the client plays only the built-in families, with its own code).

A family's facet is the ``FACET`` of the module its descriptor names for the role ``terminal``
(``bot/games/<family>/terminal/family.py``); that module belongs to this layer (standard
library, ``bot.engine``, ``bot.ai``, ``bot.locale``). See docs/architecture.md, "Games: one
place per game".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from bot.games import load

__all__ = ["Asker", "Console", "GameTerminal", "TableHooks", "terminal_of"]

Asker = Callable[[str, str, Callable[[str], str]], "str | None"]
"""``ask(question, default, check)``: the answer (``check`` turns it into a value or raises
ValueError, and the question is asked again), the default for an empty line, None at the end of
input."""


class Console(Protocol):
    """What every game's table in the terminal shares: the streams, the language, the seats."""

    @property
    def locale(self) -> str:
        """The language of the table's words (``--lang``)."""
        ...

    @property
    def names(self) -> Sequence[str]:
        """The seats' names."""
        ...

    @property
    def human(self) -> int:
        """The human player's seat."""
        ...

    def lt(self, msgid: str, **values: Any) -> str:
        """A message in the table's language."""
        ...

    def say(self, text: str = "") -> None:
        """Print one line."""
        ...


class TableHooks(Protocol):
    """A game's part of one game in the terminal."""

    def announce(self, level: str, seed: int | None) -> None:
        """The opening lines: the rules, the deal, who plays first."""
        ...

    def status(self, seen: Any, legal: Sequence[Any]) -> None:
        """What the human sees before his move (hand, discards, row, scores)."""
        ...

    def interpret(self, line: str, seen: Any, legal: Sequence[Any]) -> Any | str | None:
        """A line typed at the prompt: an action, a refusal to print, or None when the line
        is not the game's (``help``, ``quit``, ``?`` are the client's)."""
        ...

    def narrate(self, events: Sequence[Any]) -> None:
        """The play-by-play of some events."""
        ...

    def game_over(self, result: Any) -> None:
        """The end: the winning arrangement or the scores, and the chips."""
        ...

    def help(self) -> str:
        """The game's part of ``help``."""
        ...


class GameTerminal(Protocol):
    """Everything a family gives the terminal client."""

    def setup(self, game: str, ask: Asker) -> dict[str, Any]:
        """The game's own set-up questions (opponents, rule set); the answers are arguments
        of the engine facet's ``make_rules``."""
        ...

    def hooks(self, console: Console, state: Any, human: int) -> TableHooks:
        """The game's hooks for one game at a table."""
        ...


def terminal_of(game: str) -> GameTerminal | None:
    """The terminal facet of a game's family; None when the family gives none (UnknownGame
    for a name no family registered)."""
    return cast("GameTerminal | None", load(game, "terminal"))
