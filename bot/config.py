"""Settings from the environment and an optional ``.env`` file.

Every setting is an environment variable; ``.env.example`` lists them all with their defaults.
Values come from, in order of precedence:

1. the process environment (a variable that is present wins, even when it is empty),
2. the ``.env`` file, if there is one (parsed here, no extra dependency),
3. the defaults below.

An empty value (``KAPSHAP_TURN_SECONDS=``) means "use the default". An invalid value raises
:class:`ConfigError`, one line naming the variable and what was expected. Numbers are plain ASCII
digits and must lie in the range the commands accept (``bot.limits``), so no value that loads
can make a command fail later.

This module imports only the standard library, so every entry point may use it.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from bot import limits
from bot.limits import quote_input

__all__ = [
    "DEFAULTS",
    "LOG_FORMATS",
    "LOG_LEVELS",
    "MAX_SHARDS",
    "MAX_SHUTDOWN_SECONDS",
    "ConfigError",
    "Settings",
    "database_target",
    "load_settings",
    "parse_dotenv",
    "read_dotenv",
]

LOG_LEVELS: tuple[str, ...] = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

LOG_FORMATS: tuple[str, ...] = ("text", "json")
"""``KAPSHAP_LOG_FORMAT``: ``text`` (a line for a reader) or ``json`` (one object per line)."""

#: The longest ``KAPSHAP_SHUTDOWN_SECONDS``: a service manager kills a process that takes longer
#: (systemd's default is 90 s, Docker's 10 s unless told), so more would only hide a hang.
MAX_SHUTDOWN_SECONDS = 600

# Defaults as they are written in the environment (and in .env.example).
DEFAULTS: dict[str, str] = {
    "DISCORD_TOKEN": "",
    "KAPSHAP_DB_PATH": "data/kapshap.sqlite3",
    "DATABASE_URL": "",
    "KAPSHAP_LOG_LEVEL": "INFO",
    "KAPSHAP_DEFAULT_ANTE": "10",
    "KAPSHAP_STARTING_CHIPS": "1000",
    "KAPSHAP_DAILY_AMOUNT": "100",
    "KAPSHAP_TURN_SECONDS": "120",
    "KAPSHAP_DEV_GUILD_ID": "",
    "KAPSHAP_OWNER_IDS": "",
    "KAPSHAP_PROVISIONAL_GAMES": "10",
    "KAPSHAP_REVIEW_PUBLIC": "false",
    "KAPSHAP_REVIEW_ROLLOUTS": "",
    "KAPSHAP_MAX_REVIEWS": "2",
    "KAPSHAP_SHARD_COUNT": "",
    "KAPSHAP_SHARD_IDS": "",
    # Metrics and health (docs/metrics.md): off unless a port is set.
    "KAPSHAP_METRICS_PORT": "",
    "KAPSHAP_METRICS_HOST": "127.0.0.1",
    # Running it as a service (issue 21, i21-lifecycle): the log lines, how long a stop may take.
    "KAPSHAP_LOG_FORMAT": "text",
    "KAPSHAP_SHUTDOWN_SECONDS": "20",
}

#: The largest ``KAPSHAP_SHARD_COUNT``: far above any bot's need (Discord asks for one shard per
#: 1,000 to 2,500 servers), low enough that a typo cannot make a process claim millions of shards.
MAX_SHARDS = 100_000


class ConfigError(ValueError):
    """A setting (or the ``.env`` file) is invalid; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    """The application's settings. Build it with :func:`load_settings`."""

    # repr=False: the token must never end up in a log line or a traceback.
    discord_token: str | None = field(default=None, repr=False)
    db_path: Path = Path(DEFAULTS["KAPSHAP_DB_PATH"])
    # repr=False: a URL may carry the database password.
    database_url: str | None = field(default=None, repr=False)
    log_level: str = DEFAULTS["KAPSHAP_LOG_LEVEL"]
    default_ante: int = int(DEFAULTS["KAPSHAP_DEFAULT_ANTE"])
    starting_chips: int = int(DEFAULTS["KAPSHAP_STARTING_CHIPS"])
    daily_amount: int = int(DEFAULTS["KAPSHAP_DAILY_AMOUNT"])
    turn_seconds: int = int(DEFAULTS["KAPSHAP_TURN_SECONDS"])
    dev_guild_id: int | None = None
    owner_ids: frozenset[int] = frozenset()
    provisional_games: int = int(DEFAULTS["KAPSHAP_PROVISIONAL_GAMES"])
    review_public: bool = False
    review_rollouts: int | None = None
    max_reviews: int = int(DEFAULTS["KAPSHAP_MAX_REVIEWS"])
    shard_count: int | None = None
    """Shards of the whole bot, every process together; None: discord.py asks Discord (one
    process then runs them all)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs, in increasing order; None: all of them."""
    # Metrics and health (docs/metrics.md).
    metrics_port: int | None = None
    """The port of ``/metrics`` and ``/health``; None: not served. 0: a free port (logged)."""
    metrics_host: str = DEFAULTS["KAPSHAP_METRICS_HOST"]
    """The address they are served on: the loopback interface unless asked otherwise."""

    # Running it as a service (issue 21, i21-lifecycle).
    log_format: str = DEFAULTS["KAPSHAP_LOG_FORMAT"]
    """``text`` or ``json`` (:mod:`bot.logs`)."""
    shutdown_seconds: int = int(DEFAULTS["KAPSHAP_SHUTDOWN_SECONDS"])
    """How long a stop (SIGTERM) may take to finish the actions in flight and close; past it
    the process exits non-zero, naming what was still running."""

    @property
    def log_level_number(self) -> int:
        """The log level as a :mod:`logging` number (``logging.INFO`` …)."""
        return logging.getLevelNamesMapping()[self.log_level]

    @property
    def database_target(self) -> str | Path:
        """What the bot opens: the PostgreSQL URL when ``DATABASE_URL`` is set, otherwise the
        SQLite file ``KAPSHAP_DB_PATH``."""
        return self.database_url if self.database_url is not None else self.db_path

    def require_token(self) -> str:
        """The Discord token, or a :class:`ConfigError` saying how to provide one."""
        if self.discord_token is None:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put the bot token in the environment or in .env "
                "(see .env.example)"
            )
        return self.discord_token


# --------------------------------------------------------------------------------------------
# .env parsing


def parse_dotenv(text: str, *, source: str = ".env") -> dict[str, str]:
    """Parse ``.env`` text: ``KEY=VALUE`` lines.

    * blank lines and lines starting with ``#`` are ignored; ``export KEY=VALUE`` is accepted;
    * an unquoted value is stripped, and `` # comment`` after it is removed;
    * a value in single quotes is taken literally; in double quotes ``\\n``, ``\\t``, ``\\"``
      and ``\\\\`` are unescaped; a comment may follow the closing quote;
    * a later line for the same key wins.

    A malformed line raises :class:`ConfigError` naming ``source`` and the line number.
    """
    values: dict[str, str] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source}:{lineno}"
        if line.startswith("export ") or line.startswith("export\t"):
            line = line[len("export") :].lstrip()
        key, sep, rest = line.partition("=")
        key = key.strip()
        if not sep:
            raise ConfigError(f"{where}: expected KEY=VALUE, got {raw.strip()!r}")
        if not key.isidentifier():
            raise ConfigError(f"{where}: {key!r} is not a valid variable name")
        values[key] = _parse_dotenv_value(rest.strip(), where, key)
    return values


_DOUBLE_QUOTE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "$": "$"}


def _parse_dotenv_value(rest: str, where: str, key: str) -> str:
    if not rest:
        return ""
    quote = rest[0]
    if quote not in ("'", '"'):
        # Unquoted: an inline comment starts at a '#' that follows whitespace.
        for i, char in enumerate(rest):
            if char == "#" and i > 0 and rest[i - 1] in " \t":
                return rest[:i].rstrip()
        return rest
    out: list[str] = []
    i = 1
    while i < len(rest):
        char = rest[i]
        if char == quote:
            tail = rest[i + 1 :].strip()
            if tail and not tail.startswith("#"):
                raise ConfigError(
                    f"{where}: unexpected text after the closing quote of {key}: {tail!r}"
                )
            return "".join(out)
        if quote == '"' and char == "\\" and i + 1 < len(rest):
            nxt = rest[i + 1]
            out.append(_DOUBLE_QUOTE_ESCAPES.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(char)
        i += 1
    raise ConfigError(f"{where}: unterminated {quote} quote in the value of {key}")


def read_dotenv(path: Path) -> dict[str, str]:
    """Read and parse a ``.env`` file; a missing file gives ``{}``."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    return parse_dotenv(text, source=str(path))


# --------------------------------------------------------------------------------------------
# Value parsing

T = TypeVar("T")


# Plain ASCII digits only: Python's int() would also take "1_000" and "١٢٣" (Arabic-Indic
# digits), which a reader of .env would not recognise as the number the bot uses.
_DIGITS = re.compile(r"[0-9]+")

#: The largest Discord id (a snowflake is an unsigned 64-bit number).
_MAX_SNOWFLAKE = 2**64 - 1


def _whole_number(value: str) -> int | None:
    # Longer than any allowed value (ids are < 2^64, 20 digits): refuse before int(), which
    # raises its own ValueError past 4,300 digits.
    if len(value) > 24 or not _DIGITS.fullmatch(value):
        return None
    return int(value)


def _int(name: str, value: str, *, minimum: int, maximum: int, expected: str) -> int:
    number = _whole_number(value)
    if number is None or not minimum <= number <= maximum:
        raise ConfigError(f"{name} must be {expected}, got {quote_input(value)}")
    return number


def _bounded(minimum: int, maximum: int, unit: str) -> Callable[[str, str], int]:
    expected = f"a whole number from {minimum:,} to {maximum:,} ({unit}, digits only)"

    def parse(name: str, value: str) -> int:
        return _int(name, value, minimum=minimum, maximum=maximum, expected=expected)

    return parse


# The same bounds the commands and services enforce (bot.limits), so a value that loads can never
# make a command fail: /table new uses the default ante and timer, /chips the amounts.
_ante = _bounded(0, limits.MAX_ANTE, "chips")
_amount = _bounded(0, limits.MAX_AMOUNT, "chips")
_turn_seconds = _bounded(limits.MIN_TURN_SECONDS, limits.MAX_TURN_SECONDS, "seconds")
_provisional_games = _bounded(0, 1000, "rated games")


def _database_url(name: str, value: str) -> str:
    if not value.startswith(("postgresql://", "postgres://")):
        # Never the value itself: it may hold a password. Its scheme is enough to see the slip.
        scheme = value.split("://", 1)[0] + "://" if "://" in value else "no scheme"
        raise ConfigError(
            f"{name} must be a postgresql:// URL (postgresql://user:password@host:port/database),"
            f" not {scheme}; leave it unset to use the SQLite file KAPSHAP_DB_PATH"
        )
    return value


def _snowflake(name: str, value: str) -> int:
    return _int(
        name,
        value,
        minimum=1,
        maximum=_MAX_SNOWFLAKE,
        expected="a Discord id (a positive whole number)",
    )


def _log_level(name: str, value: str) -> str:
    level = value.upper()
    if level not in LOG_LEVELS:
        raise ConfigError(
            f"{name} must be one of {', '.join(LOG_LEVELS)}, got {quote_input(value)}"
        )
    return level


def _log_format(name: str, value: str) -> str:
    chosen = value.lower()
    if chosen not in LOG_FORMATS:
        raise ConfigError(
            f"{name} must be one of {', '.join(LOG_FORMATS)}, got {quote_input(value)}"
        )
    return chosen


_shutdown_seconds = _bounded(1, MAX_SHUTDOWN_SECONDS, "seconds")


def _owner_ids(name: str, value: str) -> frozenset[int]:
    ids: set[int] = set()
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        number = _whole_number(part)
        if number is None or not 1 <= number <= _MAX_SNOWFLAKE:
            raise ConfigError(
                f"{name} must be a comma-separated list of Discord user ids "
                f"(positive whole numbers), got {quote_input(part)}"
            )
        ids.add(number)
    return frozenset(ids)


def _bool(name: str, value: str) -> bool:
    text = value.strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise ConfigError(f"{name} must be true or false, got {quote_input(value)}")


_rollouts = _bounded(limits.MIN_ROLLOUTS, limits.MAX_ROLLOUTS, "play-outs per decision")
_max_reviews = _bounded(1, 16, "reviews at once")


_shard_count = _bounded(1, MAX_SHARDS, "shards of the whole bot")

_SHARD_IDS_EXPECTED = "shard ids and ranges separated by commas, like 0-3,6"


def _shard_ids(name: str, value: str) -> tuple[int, ...]:
    """``0-3,6`` -> ``(0, 1, 2, 3, 6)``; blank parts are skipped. The bounds (below the count,
    each once) are checked by :func:`_check_shards`, which knows the count."""
    ids: list[int] = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        first_text, dash, last_text = part.partition("-")
        first = _whole_number(first_text.strip())
        last = _whole_number(last_text.strip()) if dash else first
        if first is None or last is None or last < first:
            raise ConfigError(f"{name} must be {_SHARD_IDS_EXPECTED}, got {quote_input(part)}")
        if last >= MAX_SHARDS:  # before the range is built: '0-99999999999' is not a list
            raise ConfigError(
                f"{name} names shard {last:,}, above the largest shard count ({MAX_SHARDS:,})"
            )
        ids.extend(range(first, last + 1))
    if not ids:
        raise ConfigError(f"{name} must be {_SHARD_IDS_EXPECTED}, got {quote_input(value)}")
    return tuple(ids)


def _check_shards(count: int | None, ids: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """The shard ids, sorted, once they are known to fit the count."""
    if ids is None:
        return None
    if count is None:
        raise ConfigError(
            "KAPSHAP_SHARD_IDS needs KAPSHAP_SHARD_COUNT (the number of shards of all the "
            "processes together)"
        )
    seen: set[int] = set()
    for shard in ids:
        if shard >= count:
            raise ConfigError(
                f"KAPSHAP_SHARD_IDS names shard {shard}, but KAPSHAP_SHARD_COUNT is {count} "
                f"(shards 0 to {count - 1})"
            )
        if shard in seen:
            raise ConfigError(f"KAPSHAP_SHARD_IDS names shard {shard} twice")
        seen.add(shard)
    return tuple(sorted(ids))


_metrics_port = _bounded(0, 65535, "a TCP port; 0 picks a free one")


def _metrics_host(name: str, value: str) -> str:
    if any(c.isspace() for c in value) or len(value) > 253:
        raise ConfigError(
            f"{name} must be an address or host name to listen on, like 127.0.0.1, "
            f"got {quote_input(value)}"
        )
    return value


def _check_one_process(count: int, ids: tuple[int, ...]) -> None:
    """On SQLite one process runs the bot (its file lock refuses a second one), so it must run
    every shard: a part of them would leave the other shards' servers unserved for good."""
    if len(ids) < count:
        missing = next(shard for shard in range(count) if shard not in ids)
        raise ConfigError(
            f"KAPSHAP_SHARD_IDS leaves shard {missing} of {count} to another process, but "
            "without DATABASE_URL the bot runs as one process on its SQLite file: set "
            "DATABASE_URL (PostgreSQL) for several processes, or leave KAPSHAP_SHARD_IDS unset"
        )


def _token(name: str, value: str) -> str:
    if any(char.isspace() for char in value):
        raise ConfigError(f"{name} must be a bot token without spaces")
    return value


# --------------------------------------------------------------------------------------------
# Loading


def load_settings(
    env: Mapping[str, str] | None = None,
    dotenv_path: Path | None = Path(".env"),
) -> Settings:
    """Build :class:`Settings` from ``env`` (default: ``os.environ``) and the ``.env`` file.

    ``dotenv_path=None`` skips the file; a path that does not exist is fine. A relative path
    (the default ``.env``) is relative to the current directory.
    """
    environ: Mapping[str, str] = os.environ if env is None else env
    merged: dict[str, str] = read_dotenv(dotenv_path) if dotenv_path is not None else {}
    merged.update({key: environ[key] for key in DEFAULTS if key in environ})

    def get(name: str, parse: Callable[[str, str], T]) -> T:
        raw = merged.get(name, "").strip()
        return parse(name, raw or DEFAULTS[name])

    def get_optional(name: str, parse: Callable[[str, str], T]) -> T | None:
        raw = merged.get(name, "").strip()
        return parse(name, raw) if raw else None

    shard_count = get_optional("KAPSHAP_SHARD_COUNT", _shard_count)
    shard_ids = _check_shards(shard_count, get_optional("KAPSHAP_SHARD_IDS", _shard_ids))
    database_url = get_optional("DATABASE_URL", _database_url)
    if shard_ids is not None and shard_count is not None and database_url is None:
        _check_one_process(shard_count, shard_ids)
    return Settings(
        discord_token=get_optional("DISCORD_TOKEN", _token),
        db_path=get("KAPSHAP_DB_PATH", lambda _name, value: Path(value)),
        database_url=database_url,
        log_level=get("KAPSHAP_LOG_LEVEL", _log_level),
        default_ante=get("KAPSHAP_DEFAULT_ANTE", _ante),
        starting_chips=get("KAPSHAP_STARTING_CHIPS", _amount),
        daily_amount=get("KAPSHAP_DAILY_AMOUNT", _amount),
        turn_seconds=get("KAPSHAP_TURN_SECONDS", _turn_seconds),
        dev_guild_id=get_optional("KAPSHAP_DEV_GUILD_ID", _snowflake),
        owner_ids=get("KAPSHAP_OWNER_IDS", _owner_ids),
        provisional_games=get("KAPSHAP_PROVISIONAL_GAMES", _provisional_games),
        review_public=get("KAPSHAP_REVIEW_PUBLIC", _bool),
        review_rollouts=get_optional("KAPSHAP_REVIEW_ROLLOUTS", _rollouts),
        max_reviews=get("KAPSHAP_MAX_REVIEWS", _max_reviews),
        shard_count=shard_count,
        shard_ids=shard_ids,
        metrics_port=get_optional("KAPSHAP_METRICS_PORT", _metrics_port),
        metrics_host=get("KAPSHAP_METRICS_HOST", _metrics_host),
        log_format=get("KAPSHAP_LOG_FORMAT", _log_format),
        shutdown_seconds=get("KAPSHAP_SHUTDOWN_SECONDS", _shutdown_seconds),
    )


# --------------------------------------------------------------------------------------------
# The database every command uses (issue 20, i20-cross: `kapshap db` once read only the
# environment, so with DATABASE_URL in .env it migrated the SQLite default instead)


def database_target(
    dotenv_path: Path | None = Path(".env"), env: Mapping[str, str] | None = None
) -> str | Path:
    """The database a ``kapshap`` command opens unless told otherwise (``--url``, ``--path``):
    the one ``kapshap run`` opens with the same ``.env``, read by :func:`load_settings`, so
    every command reads its settings in this one way. An invalid setting is a
    :class:`ConfigError`, as for ``kapshap run``."""
    return load_settings(env, dotenv_path).database_target
