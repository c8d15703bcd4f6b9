"""Bounds shared by the settings, the services and the commands, and Discord's size limits.

One module so that a value ``.env`` accepts is always one the commands accept: ``bot.config``
validates ``KAPSHAP_DEFAULT_ANTE`` with :data:`MAX_ANTE`, ``TableService.open_table`` refuses the
same range, and ``/table new`` offers the same range as its option's bounds.

Standard library only, and nothing else in the project: every layer, the engine included, may
import it (the engine quotes user input in its notation errors with :func:`quote_input`).
"""

from __future__ import annotations

__all__ = [
    "MAX_AMOUNT",
    "MAX_ANTE",
    "MAX_BALANCE",
    "MAX_POSITION_CHARS",
    "MAX_RECORD_BYTES",
    "MAX_ROLLOUTS",
    "MAX_SEED",
    "MAX_SETTLE_RATE",
    "MAX_TURN_SECONDS",
    "MESSAGE_LIMIT",
    "MIN_ROLLOUTS",
    "MIN_TURN_SECONDS",
    "QUOTE_LIMIT",
    "fit_message",
    "format_duration",
    "quote_input",
]

#: Largest ante of one table, in chips. A full Kap Tai Shap table (28 seats) then holds a pot of
#: 2.8e10 chips, far below :data:`MAX_AMOUNT` and SQLite's 64-bit integers.
MAX_ANTE = 1_000_000_000

#: Largest amount of one chip operation (gift, grant, daily claim, starting balance).
MAX_AMOUNT = 10**12

#: Largest balance a gift, grant or daily claim may produce: far from the 64-bit limit (2^63).
MAX_BALANCE = 10**15

#: Largest Tsung Shap settlement rate (chips per point of difference).
MAX_SETTLE_RATE = 1_000_000

#: Turn timer bounds, in seconds (10 s to one day).
MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 86_400

#: Largest record (or position) file the record tools read, in bytes. A whole game of 20 seats
#: is about 6 KB, and even a game that ran to a 28-seat table's turn limit stays under 300 KB;
#: anything bigger is not a record (``kapshap replay /dev/zero`` must not read for ever).
MAX_RECORD_BYTES = 1_000_000

#: Longest position typed on the command line (``kapshap analyse -p``), in characters: a
#: position is one short line (a hand, the discards, a few known tiles).
MAX_POSITION_CHARS = 4_000

#: Bounds of a review's or an analysis's play-outs per decision (``--rollouts``,
#: ``KAPSHAP_REVIEW_ROLLOUTS``): fewer than the minimum cannot compare two moves; the maximum
#: keeps one decision within minutes, not days.
MIN_ROLLOUTS = 10
MAX_ROLLOUTS = 100_000

#: Largest random seed a command accepts (``--seed``): a 64-bit unsigned number.
MAX_SEED = 2**64 - 1

#: Discord's limit on a message's content (and an ephemeral reply), in characters.
MESSAGE_LIMIT = 2000

#: How much of a user's own input a reply or a log line quotes back.
QUOTE_LIMIT = 40


def quote_input(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` in single quotes, cut to its first ``limit`` characters (``'abc…'``).

    Used wherever user input is echoed (error replies, log lines), so a 1,900-character option
    can never push a reply past :data:`MESSAGE_LIMIT` or flood a log. Line breaks and other
    control characters become spaces, so one quote is one line.
    """
    flat = "".join(" " if not char.isprintable() else char for char in text)
    if len(flat) > limit:
        flat = flat[: max(limit - 1, 0)].rstrip() + "…"
    return f"'{flat}'"


def fit_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters (ending in ``…`` when cut): a last guard so
    a reply is never refused by Discord for its length."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


_UNITS = ((86_400, "day"), (3_600, "h"), (60, "min"), (1, "s"))


def format_duration(seconds: int) -> str:
    """A turn timer for people: ``120`` -> ``"2 min"``, ``86400`` -> ``"1 day"``,
    ``90`` -> ``"1 min 30 s"``, ``45`` -> ``"45 s"``, ``172800`` -> ``"2 days"``."""
    seconds = max(int(seconds), 0)
    if seconds == 0:
        return "0 s"
    parts: list[str] = []
    for size, unit in _UNITS:
        count, seconds = divmod(seconds, size)
        if count:
            name = unit + ("s" if unit == "day" and count != 1 else "")
            parts.append(f"{count:,} {name}")
    return " ".join(parts)
