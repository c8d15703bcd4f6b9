"""What every game's table in the terminal shares: the seats, the streams, the prompt, and the
client's own lines (refusals, the legal moves, a turn's head)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from bot.engine.deal import Deal
from bot.engine.family import engine_of
from bot.locale import recognize
from bot.locale import t as tr
from bot.locale.levels import level_name

__all__ = [
    "LEGAL_PREFIX",
    "PROMPT",
    "Console",
    "Leave",
    "isatty",
    "level_names",
    "one_line",
]

PROMPT = "> "
LEGAL_PREFIX = "Legal: "


def one_line(text: str) -> str:
    """``text`` with its runs of white space (new lines too) made single spaces."""
    return " ".join(text.split())


def isatty(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (False for anything that cannot say)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def level_names(locale: str, levels: str) -> str:
    """The computer seats' levels (codes, ``greedy, expert``) as a player reads them: their
    names (``Normal``, ``普通``), never their codes."""
    names = [level_name(locale, code.strip()) for code in levels.split(",")]
    return (", " if locale == "en" else "、").join(names)


@dataclass(frozen=True)
class Leave:
    """The player leaves: ``quit`` or end of input."""

    message: str


class Console:
    """What every game's terminal table shares: the seats, the streams and the prompt."""

    def __init__(
        self,
        rules: Any,
        deal: Deal,
        names: list[str],
        human: int,
        rng: random.Random,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        self.rules = rules
        self.deal = deal
        self.finished = False  # the game reached its end (not left)
        self.names = names
        self.human = human
        self.rng = rng
        self.inp = inp
        self.out = out
        self.echo = not isatty(inp)
        self.locale = "en"  # --lang: the language of the table's words (bot.locale)

    def lt(self, msgid: str, **values: Any) -> str:
        """``msgid`` in the table's language."""
        return tr(self.locale, msgid, **values)

    def refusal(self, text: str, hint: str, typed: str | None = None) -> None:
        """An engine refusal or notation error (English, lower case) with ``hint`` after it:
        as it is in English, else recognized and worded in the table's language (or, when
        not recognized, a general line quoting what was ``typed`` for a notation error)."""
        if self.locale == "en":
            self.error(f"{text} ({hint})")
            return
        line = one_line(text)
        sentence = line[:1].upper() + line[1:] + ("" if line.endswith((".", "!", "?")) else ".")
        known = recognize(sentence, engine_of(self.rules.game).refusals)
        if known is not None:
            reason = known.localized(self.locale)
        elif typed is not None:
            reason = self.lt("Cannot read '{text}' as a move or a tile.", text=typed)
        else:
            reason = self.lt("That move cannot be played now.")
        self.say("! " + self.lt("{reason} ({hint})", reason=reason, hint=self.lt(hint)))

    def legal_line(self, legal: Sequence[Any]) -> None:
        """The legal actions in notation (quoted in Chinese: they are what the player types)."""
        if self.locale == "en":
            self.say(LEGAL_PREFIX + ", ".join(str(a) for a in legal))
            return
        moves = "、".join(f"'{a}'" for a in legal)
        self.say(self.lt("Legal moves: {moves}", moves=moves))

    def fallback(self, seat: int, action: object, error: Exception, fallback: object) -> None:
        """A computer player's refused choice (a bug in it, shown rather than hidden)."""
        if self.locale == "en":
            self.say(f"({self.names[seat]} tried '{action}': {error}; playing '{fallback}'.)")
            return
        self.say(
            self.lt(
                "({name} tried '{action}', which is not allowed; playing '{fallback}'.)",
                name=self.names[seat],
                action=action,
                fallback=fallback,
            )
        )

    def say(self, text: str = "") -> None:
        """Print one line."""
        self.out.write(text + "\n")

    def error(self, text: str) -> None:
        """A refusal on one line, as a sentence after ``!``."""
        line = one_line(text)
        # Engine refusals are written lower case (to follow other words); a reply is a sentence.
        self.say(f"! {line[:1].upper()}{line[1:]}")

    def turn_header(self, seat: int, turn: int) -> None:
        """A blank line, then whose turn it is (the engine's English line for another seat's
        turn is this catalogue line's English)."""
        self.say()
        if seat == self.human:
            self.say(self.lt("=== Turn {turn}: your turn ===", turn=turn))
        else:
            self.say(self.lt("Turn {turn}: {name} to play.", turn=turn, name=self.names[seat]))

    def read(self) -> str | None:
        """One line typed at the prompt, stripped (echoed when input is not a terminal);
        None at the end of input."""
        self.out.write(PROMPT)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        text = line.strip()
        if self.echo:
            self.say(text)
        return text
