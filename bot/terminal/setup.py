"""``kapshap play --setup`` (or a terminal with no option): the set-up questions. The game and
the computer level are every game's; the game's family asks the rest (opponents, rule set)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TextIO

from bot.games import find, games
from bot.locale import LOCALES
from bot.locale import t as tr
from bot.locale.levels import level_name
from bot.terminal.console import isatty, one_line
from bot.terminal.family import GameTerminal, terminal_of

__all__ = ["Setup", "default_level", "playable"]


def playable() -> dict[str, GameTerminal]:
    """The games the terminal plays (those whose family gives a terminal facet), in the
    registry's order, with their facets."""
    out: dict[str, GameTerminal] = {}
    for info in games():
        facet = terminal_of(info.name)
        if facet is not None:
            out[info.name] = facet
    return out


def default_level(game: str) -> str:
    """The game's weakest level (the novice or the beginner): what a newcomer is suggested on
    Discord too (the terminal keeps no rating)."""
    return _facet(game).levels(game)[0]


def _facet(game: str) -> GameTerminal:
    facet = terminal_of(game)
    if facet is None:  # pragma: no cover - the parser offers only games with a terminal
        raise ValueError(f"the game '{game}' cannot be played in the terminal")
    return facet


class Setup:
    """Asks game, the game's own questions and level, with the current options as defaults."""

    def __init__(self, args: argparse.Namespace, inp: TextIO, out: TextIO) -> None:
        self.args = args
        self.inp = inp
        self.out = out
        self.echo = not isatty(inp)
        self.locale: str = args.lang

    def lt(self, msgid: str, **values: Any) -> str:
        """``msgid`` in the language of ``--lang``."""
        return tr(self.locale, msgid, **values)

    def run(self) -> bool:
        """Fill the namespace from the answers; False when input ends."""
        self.out.write(self.lt("New game (press Enter to keep the default in brackets).") + "\n")
        game = self.ask(self.lt("Game: {games}", games=self._games()), self.args.game, self._game)
        if game is None:
            return False
        self.args.game = game
        chosen = {"opponents": self.args.opponents, "rules": self.args.rules}
        answers = _facet(game).setup(game, self.ask, self.locale, chosen)
        if answers is None:
            return False
        for option, value in answers.items():
            setattr(self.args, option, value)
        return self._ask_level(game)

    def _games(self) -> str:
        """The games to choose from: their names (what a player types), in Chinese after
        their titles (``夾十（'kap-shap'）、…或爭十（'tsung-shap'）``)."""
        if self.locale == "en":
            names = list(playable())
        else:
            names = [
                self.lt("{name} ('{code}')", name=self.lt(find(game).title), code=game)
                for game in playable()
            ]
        if len(names) == 1:
            return names[0]
        joined = (", " if self.locale == "en" else "、").join(names[:-1])
        return self.lt("{games} or {last}", games=joined, last=names[-1])

    def _ask_level(self, game: str) -> bool:
        known = _facet(game).levels(game)
        # A level is typed by its code (as --ai takes it) or by its name in any language.
        names = {
            name.casefold(): level
            for level in known
            for locale in LOCALES
            for name in (level, level_name(locale, level))
        }
        # Each level by its name with the code to type: 普通（'greedy'）, Normal ('greedy').
        shown = (", " if self.locale == "en" else "、").join(
            self.lt("{name} ('{code}')", name=level_name(self.locale, level), code=level)
            for level in known
        )

        def check(text: str) -> str:
            level = names.get(text.strip().casefold())
            if level is None:
                raise ValueError(self.lt("choose one of {options}", options=shown))
            return level

        level = self.ask(
            self.lt("Computer level: {levels}", levels=shown),
            self.args.ai or default_level(game),
            check,
        )
        if level is None:
            return False
        self.args.ai = level
        return True

    def _game(self, text: str) -> str:
        known = playable()
        aliases = {alias: info.name for info in games() for alias in info.aliases}
        name = aliases.get(text.lower(), text.lower())
        if name not in known:
            options = ", ".join(known)
            raise ValueError(self.lt("choose one of {options}", options=options))
        return name

    def ask(self, question: str, default: str, check: Callable[[str], str]) -> str | None:
        """Ask until ``check`` takes the answer (see :data:`bot.terminal.family.Asker`)."""
        # In Chinese the default is quoted: it is a word the player could type.
        shown = default if self.locale == "en" else f"'{default}'"
        while True:
            self.out.write(f"{question} [{shown}]: ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                return None
            answer = line.strip()
            if self.echo:
                self.out.write(answer + "\n")
            if not answer:
                return default
            try:
                return check(answer)
            except ValueError as error:
                line = one_line(str(error))
                self.out.write(f"! {line[:1].upper()}{line[1:]}\n")
