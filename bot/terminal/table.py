"""The generic game loop of ``kapshap play``: a computer seat's move, the human's prompt, the
client's commands (``help``, ``?``, ``look``, ``quit``) and the end; everything a game shows or
reads of its own is asked of its family's hooks (:class:`bot.terminal.family.TableHooks`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from bot.ai.base import AnyPlayer
from bot.ai.family import ai_of
from bot.engine.deal import Deal
from bot.engine.errors import IllegalAction, NotationError
from bot.engine.family import engine_of
from bot.locale import N_
from bot.locale import t as tr
from bot.terminal.console import Console, Leave
from bot.terminal.family import TableHooks, terminal_of

__all__ = ["COMMANDS", "Table", "play", "run_game"]

# Words the prompt understands besides a game's moves and commands (and a few in Chinese).
COMMANDS: dict[str, str] = {
    "幫助": "help",
    "帮助": "help",
    "走法": "legal",
    "牌局": "look",
    "離開": "quit",
    "离开": "quit",
    "help": "help",
    "h": "help",
    "legal": "legal",
    "?": "legal",
    "moves": "legal",
    "look": "look",
    "status": "look",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
}


class Table(Console):
    """One game in progress, seen from the human seat; the game's hooks show it."""

    def __init__(
        self,
        rules: Any,
        deal: Deal,
        names: list[str],
        human: int,
        players: Mapping[int, AnyPlayer],
        rng: random.Random,
        inp: TextIO,
        out: TextIO,
        locale: str = "en",
    ) -> None:
        super().__init__(rules, deal, names, human, rng, inp, out)
        self.locale = locale
        self.players = players
        self.engine = engine_of(rules.game)
        self.state: Any = self.engine.new_game(rules, names, deal)
        terminal = terminal_of(rules.game)
        if terminal is None:  # pragma: no cover - the parser offers only games with a terminal
            raise ValueError(f"the game '{rules.game}' cannot be played in the terminal")
        self.hooks: TableHooks = terminal.hooks(self, self.state, human)

    def play(self, level: str, seed: int | None) -> None:
        """Play to the end (``finished``), or until the player quits or input ends."""
        self.hooks.announce(level, seed)
        self.turn_header(self.deal.first_seat, 1)
        while True:
            seen = self.engine.view(self.state, self.human)
            if seen.result is not None:
                self.hooks.game_over(seen)
                self.finished = True
                return
            if seen.my_turn:
                leave = self.human_step(seen)
                if leave is not None:
                    self.say(leave.message)
                    return
            else:
                self.computer_step(seen.current)

    def computer_step(self, seat: int) -> None:
        """A computer seat's move (its first legal action if it chose an illegal one)."""
        legal = self.engine.legal_actions(self.state)
        action = self.players[seat].choose(self.engine.view(self.state, seat), legal, self.rng)
        try:
            self.state, events = self.engine.apply(self.state, action)
        except IllegalAction as error:
            fallback = legal[0]
            self.fallback(seat, action, error, fallback)
            self.state, events = self.engine.apply(self.state, fallback)
        self.hooks.narrate(events)

    def human_step(self, seen: Any) -> Leave | None:
        """Prompt until one legal action is played (None) or the player leaves."""
        legal = self.engine.legal_actions(self.state)
        self.hooks.status(seen, legal)
        while True:
            line = self.read()
            if line is None:
                return Leave(
                    self.lt("End of input: you leave the table and the game is abandoned.")
                )
            try:
                reply = self.interpret(" ".join(line.split()), seen, legal)
            except NotationError as error:
                self.refusal(str(error), N_("type 'help' for the notation"), " ".join(line.split()))
                continue
            if isinstance(reply, Leave):
                return reply
            if isinstance(reply, str):
                if reply:
                    self.error(reply)
                continue
            try:
                self.state, events = self.engine.apply(self.state, reply)
            except IllegalAction as error:
                self.refusal(str(error), N_("type '?' for your legal moves"))
                continue
            self.hooks.narrate(events)
            return None

    def interpret(self, text: str, seen: Any, legal: Sequence[Any]) -> Any:
        """An action to play, a message to show ('' for none) or a request to leave.

        The client's commands are carried out here, the rest is the game's. Raises
        NotationError for unreadable tiles and actions.
        """
        if not text:
            if len(legal) == 1:
                return legal[0]
            return self.lt("type a move, or '?' for the legal moves")
        command = COMMANDS.get(text.lower())
        if command == "quit":
            return Leave(self.lt("You leave the table; the game is abandoned."))
        if command == "help":
            self.say(self.hooks.help())
            return ""
        if command == "legal":
            self.legal_line(legal)
            return ""
        if command == "look":
            self.hooks.status(seen, legal)
            return ""
        return self.hooks.interpret(text, seen, legal)


def run_game(
    rules: Any,
    deal: Deal,
    *,
    names: Sequence[str],
    human: int,
    ai_level: str | Mapping[int, AnyPlayer],
    rng: random.Random,
    stdin: TextIO,
    stdout: TextIO,
    seed: int | None = None,
    locale: str = "en",
) -> int:
    """Play one game on an exact ``deal`` with the human at seat ``human``; returns 0.

    ``ai_level`` is a level name for every computer seat, or the players by seat. ``rng`` drives
    the computer players. Tests pass a deal built with :func:`bot.engine.deal_from_tiles`, or
    :func:`bot.engine.deal_from_piles` for Tsung Shap. ``locale``: the language of the table
    (``--lang``).
    """
    play(
        rules,
        deal,
        names=names,
        human=human,
        ai_level=ai_level,
        rng=rng,
        stdin=stdin,
        stdout=stdout,
        seed=seed,
        locale=locale,
    )
    return 0


def play(
    rules: Any,
    deal: Deal,
    *,
    names: Sequence[str],
    human: int,
    ai_level: str | Mapping[int, AnyPlayer],
    rng: random.Random,
    stdin: TextIO,
    stdout: TextIO,
    seed: int | None = None,
    locale: str = "en",
) -> bool:
    """Play one game (see :func:`run_game`); True when it reached its end, False when the
    player left."""
    game: str = rules.game
    _warm_searchers(game, ai_level, stdout, locale)
    if isinstance(ai_level, str):
        ai = ai_of(game)
        players: dict[int, AnyPlayer] = {
            seat: ai.player(game, ai_level) for seat in range(rules.players) if seat != human
        }
        level = ai_level
    else:
        players = dict(ai_level)
        level = ", ".join(sorted({p.level for p in players.values()}))
    table = Table(rules, deal, list(names), human, players, rng, stdin, stdout, locale)
    table.play(level, seed)
    return table.finished


def _warm_searchers(
    game: str, ai_level: str | Mapping[int, AnyPlayer], out: TextIO, locale: str
) -> None:
    """A master at the table compiles its kernel now, not at its first move, and says so
    when it really compiles (on a fresh machine; later its kernel loads from the disk cache
    in a moment)."""
    levels = {ai_level} if isinstance(ai_level, str) else {p.level for p in ai_level.values()}
    ai = ai_of(game)
    if not any(ai.searching(level) for level in levels):
        return
    from bot.ai.warm import announcing, warm_master

    def announce() -> None:
        out.write(tr(locale, "compiling the simulation kernel once (about 15 s)…") + "\n")
        out.flush()

    with announcing(announce):
        warm_master(game)
