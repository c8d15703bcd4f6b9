"""What a family of games gives the terminal client (its *terminal facet*), and the one
accessor that fetches it: :func:`terminal_of`.

The client's generic part (:mod:`bot.terminal.cli`, :mod:`bot.terminal.setup`,
:mod:`bot.terminal.table`) asks the set-up questions every game has (the game, the level), checks
the options, runs the loop (a computer seat's move, the human's prompt, ``help``, ``?``,
``look``, ``quit``, end of input) and hands the rest to the game's hooks: its own set-up
questions, what the table looks like before a move, the shortcuts a player may type, the
play-by-play and the end. A family may leave the role out: :func:`terminal_of` is then None and
``kapshap play`` does not offer the game.

A family's facet is the ``FACET`` of the module its descriptor names for the role ``terminal``
(``bot/games/<family>/terminal/family.py``); that module belongs to this layer (standard
library, ``bot.engine``, ``bot.ai``, ``bot.locale``). See docs/architecture.md, "Games: one
place per game".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from bot.games import load

if TYPE_CHECKING:
    from bot.engine.deal import Deal

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

    @property
    def deal(self) -> Deal:
        """The deal being played (its first seat, its dice)."""
        ...

    def lt(self, msgid: str, **values: Any) -> str:
        """A message in the table's language."""
        ...

    def say(self, text: str = "") -> None:
        """Print one line."""
        ...

    def legal_line(self, legal: Sequence[Any]) -> None:
        """Print the legal actions in notation."""
        ...

    def turn_header(self, seat: int, turn: int) -> None:
        """Print the head of a turn (a blank line, then whose turn it is)."""
        ...


class TableHooks(Protocol):
    """A game's part of one game in the terminal."""

    def announce(self, level: str, seed: int | None) -> None:
        """The opening lines: the rules, the deal, who plays first (``level``: the computer
        seats' levels, codes joined by ``, ``)."""
        ...

    def status(self, seen: Any, legal: Sequence[Any]) -> None:
        """What the human sees before his move (hand, discards, row, scores) and the legal
        actions; also the client's ``look``."""
        ...

    def interpret(self, text: str, seen: Any, legal: Sequence[Any]) -> Any:
        """A line typed at the prompt that is none of the client's commands (``help``, ``?``,
        ``look``, ``quit``; the line is not empty): an action to play, or a ``str`` to show
        ('' for nothing: a command of the game's that printed its answer). Raises
        :class:`bot.engine.NotationError` for unreadable input."""
        ...

    def narrate(self, events: Sequence[Any]) -> None:
        """The play-by-play of some events (a turn's start through ``Console.turn_header``)."""
        ...

    def game_over(self, seen: Any) -> None:
        """The end (``seen.result``): the winning arrangement or the scores, and the chips."""
        ...

    def help(self) -> str:
        """The answer to ``help``: the rules in force, the notation, the commands (lines)."""
        ...


class GameTerminal(Protocol):
    """Everything a family gives the terminal client."""

    def levels(self, game: str) -> tuple[str, ...]:
        """The computer levels the client offers, in the order it lists them."""
        ...

    def unknown_level(self, game: str) -> str:
        """Message id of the refusal of an unknown ``--ai`` level (values ``level``, the
        level typed, and ``known``, the levels quoted)."""
        ...

    def rule_sets(self, game: str) -> tuple[str, ...]:
        """The rule sets ``--rules`` names for the game (empty: the option is not the
        game's)."""
        ...

    def setup(
        self, game: str, ask: Asker, locale: str, chosen: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """The game's own set-up questions (``--setup``) after the game is chosen, in
        ``locale``; ``chosen`` holds the options given so far (``opponents``, ``rules``).
        Returns the options answered (``opponents``, ``rules``), or None when input ends."""
        ...

    def hooks(self, console: Console, state: Any, human: int) -> TableHooks:
        """The game's hooks for one game at a table (``state`` as dealt)."""
        ...


def terminal_of(game: str) -> GameTerminal | None:
    """The terminal facet of a game's family; None when the family gives none (UnknownGame
    for a name no family registered)."""
    return cast("GameTerminal | None", load(game, "terminal"))
