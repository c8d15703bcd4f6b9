"""The bot's log lines: one per event, as text or JSON, with the ids of what it is about, and
never a secret.

**Context ids.** Where work begins (an interaction in ``cogs.common.guarded``, a table's step in
the table service's lock, a tournament's step, a turn timer firing) the code says what it is
about with :func:`bound` (``server``, ``channel``, ``table``, ``game``, ``tournament``,
``incident``, ``shard``). They live in a :mod:`contextvars` variable, so every log line written
inside, by any module (the storage's, discord.py's), carries them: asyncio copies the context
into each task, and :func:`bound` restores the outer ids when its block ends.

**Formats** (``KAPSHAP_LOG_FORMAT``): ``text``, the line the bot always wrote (``time LEVEL
logger: message``) with the known ids at the end in brackets; ``json``, one object per line:
``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, each known id as a field, and
``exception`` (the traceback as one string) when there is one.

**Secrets.** :class:`Redactor` masks the bot's token and the database's password wherever they
appear (the message, its arguments, a traceback), and the password of any URL written in a line
(with the storage's own mask, passed in by the caller). It works on the finished text, so a
secret that reached a line by any path is caught.

The standard library's ``logging`` does it all (a Filter and two Formatters): a JSON line is
``json.dumps`` of a dict, which needs no library (python-json-logger would add a dependency for
the same twenty lines, and its own field names).
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import TextIO
from urllib.parse import quote, unquote, urlsplit

__all__ = [
    "CONTEXT_IDS",
    "ContextFilter",
    "JsonFormatter",
    "Redactor",
    "TextFormatter",
    "bound",
    "configure",
    "current_ids",
    "secrets_of",
]

CONTEXT_IDS: tuple[str, ...] = (
    "server",
    "channel",
    "table",
    "game",
    "tournament",
    "incident",
    "shard",
)
"""The ids a log line may carry, in the order the text format writes them."""

_IDS: contextvars.ContextVar[Mapping[str, object] | None] = contextvars.ContextVar(
    "kapshap_log_ids", default=None
)

MASK = "***"

#: A secret shorter than this is masked only inside URLs: masking every "abc" of every line
#: would garble the log and tell which three letters the password is.
_MIN_SECRET = 4

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s'\"<>]+")

HANDLER_NAME = "kapshap"
"""The name of the handler :func:`configure` installs."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""The text line (the bot's format before the JSON one existed)."""


class bound:
    """Within the block (``with`` or ``async with``), every log line carries ``ids`` besides
    the ids bound outside it; None values are left out."""

    def __init__(self, **ids: object) -> None:
        """The ids of the block: names of :data:`CONTEXT_IDS`."""
        self._ids = {name: value for name, value in ids.items() if value is not None}
        unknown = set(self._ids) - set(CONTEXT_IDS)
        if unknown:
            raise ValueError(f"unknown log context ids: {', '.join(sorted(unknown))}")
        self._tokens: list[contextvars.Token[Mapping[str, object] | None]] = []

    def __enter__(self) -> None:
        self._tokens.append(_IDS.set({**(_IDS.get() or {}), **self._ids}))

    def __exit__(self, *exc: object) -> None:
        _IDS.reset(self._tokens.pop())

    async def __aenter__(self) -> None:
        self.__enter__()

    async def __aexit__(self, *exc: object) -> None:
        self.__exit__()


def current_ids() -> dict[str, object]:
    """The ids bound here, in :data:`CONTEXT_IDS` order."""
    ids = _IDS.get() or {}
    return {name: ids[name] for name in CONTEXT_IDS if name in ids}


class ContextFilter(logging.Filter):
    """Puts the ids bound where a record is made on it (``record.kapshap_ids``); passes every
    record. On the handler, so records of every logger get them."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Attach the ids (a record that already has them, from another handler, keeps its own)."""
        if not hasattr(record, "kapshap_ids"):
            record.kapshap_ids = current_ids()
        return True


def secrets_of(token: str | None, database_url: str | None) -> list[str]:
    """What must never appear in a log line: the token, the database's password (as written
    in the URL and decoded)."""
    found: list[str] = []
    if token:
        found.append(token)
    if database_url:
        try:
            password = urlsplit(database_url).password
        except ValueError:
            password = None
        if password:
            found += [password, unquote(password), quote(unquote(password), safe="")]
    return found


class Redactor:
    """Masks secrets in text: each of ``secrets`` anywhere, and every URL through ``mask_url``
    (the storage's mask of a URL's password)."""

    def __init__(self, secrets: Iterable[str], mask_url: Callable[[str], str]) -> None:
        """``secrets``: literal strings to mask (the short ones only inside URLs)."""
        # Longest first: a password that contains another secret is masked whole.
        self._secrets = sorted({s for s in secrets if len(s) >= _MIN_SECRET}, key=len, reverse=True)
        self._mask_url = mask_url

    def __call__(self, text: str) -> str:
        """``text`` without any secret."""
        text = _URL.sub(lambda match: self._mask_url(match.group(0)), text)
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        return text


def _plain(text: str) -> str:
    return text


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: message [server=… channel=… table=…]``, secrets masked."""

    def __init__(self, redact: Callable[[str], str] = _plain) -> None:
        """``redact``: applied to the whole line, traceback included."""
        super().__init__(TEXT_FORMAT)
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        """The line (and its traceback's lines, as the standard formatter writes them)."""
        text = super().format(record)
        ids: Mapping[str, object] = getattr(record, "kapshap_ids", {})
        if ids:
            head, newline, rest = text.partition("\n")
            suffix = " [" + " ".join(f"{name}={value}" for name, value in ids.items()) + "]"
            text = head + suffix + newline + rest
        return self._redact(text)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the known ids, exception."""

    def __init__(self, redact: Callable[[str], str] = _plain) -> None:
        """``redact``: applied to the message and the traceback before they are encoded."""
        super().__init__()
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        """The line (JSON escapes the newlines of a message or a traceback)."""
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": self._redact(record.getMessage()),
        }
        line.update(getattr(record, "kapshap_ids", {}))
        if record.exc_info:
            line["exception"] = self._redact(self.formatException(record.exc_info))
        elif record.exc_text:
            line["exception"] = self._redact(record.exc_text)
        if record.stack_info:
            line["stack"] = self._redact(self.formatStack(record.stack_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(
    level: int,
    log_format: str,
    redact: Callable[[str], str] = _plain,
    stream: TextIO | None = None,
) -> logging.Handler:
    """Send every log line to ``stream`` (stderr) in ``log_format`` (``text`` or ``json``),
    with the context ids and ``redact`` applied: a handler of the root logger (one set up
    here before is replaced; another's, such as a test runner's, stays). Returns it."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.addFilter(ContextFilter())
    formatter = JsonFormatter(redact) if log_format == "json" else TextFormatter(redact)
    handler.setFormatter(formatter)
    handler.set_name(HANDLER_NAME)
    root = logging.getLogger()
    for old in list(root.handlers):
        if old.get_name() == HANDLER_NAME:
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
