"""The few differences between the SQL the repositories write and what PostgreSQL accepts.

Repositories write one SQL text for both backends, with SQLite's placeholders: ``?`` (positional)
or ``:name`` (named). PostgreSQL (asyncpg) numbers its parameters ``$1, $2 …``; :func:`to_numbered`
rewrites a statement once and caches the result per text, so the cost is one dictionary lookup per
statement after the first. Quoted strings, quoted identifiers, comments and ``::type`` casts are
left alone.

:func:`to_postgresql_ddl` translates a shared migration (``migrations/NNNN_name.sql`` from 0009 on)
written in the common subset: the SQLite-only words ``STRICT`` and ``WITHOUT ROWID`` go, and the
storage classes become PostgreSQL types (``INTEGER`` → ``BIGINT``, ``REAL`` → ``DOUBLE
PRECISION``). A migration that needs more than that has an override in ``migrations/postgresql/``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from bot.storage.errors import StorageError

__all__ = ["bind", "to_numbered", "to_postgresql_ddl"]

# One token at a time: the things to skip whole (strings, quoted names, comments, casts) and the
# placeholders to rewrite. Anything else is copied through.
_TOKENS = re.compile(
    r"""
      (?P<skip>'(?:[^']|'')*'            # a string literal ('' is an escaped quote)
        | "(?:[^"]|"")*"                 # a quoted identifier
        | --[^\n]*                       # a line comment
        | /\*.*?\*/                      # a block comment
        | ::                             # a cast: ::bigint is not the parameter :bigint
      )
    | (?P<positional>\?)
    | (?P<named>(?<![\w:]):[A-Za-z_]\w*)
    """,
    re.VERBOSE | re.DOTALL,
)


@lru_cache(maxsize=4096)
def to_numbered(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """``sql`` with ``$n`` placeholders, and the parameter names in order (``None``: positional).

    A named parameter used twice gets one number. Mixing ``?`` and ``:name`` in one statement is
    refused, as sqlite3 refuses it.
    """
    names: list[str] = []
    positional = 0
    out: list[str] = []
    last = 0
    for match in _TOKENS.finditer(sql):
        if match.lastgroup == "skip":
            continue
        out.append(sql[last : match.start()])
        last = match.end()
        if match.lastgroup == "positional":
            positional += 1
            out.append(f"${positional}")
        else:
            name = match.group()[1:]
            if name not in names:
                names.append(name)
            out.append(f"${names.index(name) + 1}")
    out.append(sql[last:])
    if positional and names:
        raise StorageError(f"a statement mixes ? and :name placeholders: {sql!r}")
    return "".join(out), (tuple(names) if names else None)


def bind(sql: str, params: Sequence[object] | Mapping[str, object]) -> tuple[str, list[object]]:
    """The PostgreSQL text of ``sql`` and its arguments in ``$n`` order."""
    numbered, names = to_numbered(sql)
    if names is None:
        if isinstance(params, Mapping):
            if params:
                raise StorageError(f"named parameters given to a statement using ?: {sql!r}")
            return numbered, []
        return numbered, list(params)
    if not isinstance(params, Mapping):
        raise StorageError(f"positional parameters given to a statement using :name: {sql!r}")
    try:
        return numbered, [params[name] for name in names]
    except KeyError as exc:
        raise StorageError(f"no value for the parameter :{exc.args[0]} of {sql!r}") from None


_DDL_WORDS = (
    (re.compile(r"\)\s*STRICT\s*,\s*WITHOUT\s+ROWID\s*;", re.IGNORECASE), ");"),
    (re.compile(r"\)\s*WITHOUT\s+ROWID\s*,\s*STRICT\s*;", re.IGNORECASE), ");"),
    (re.compile(r"\)\s*(?:STRICT|WITHOUT\s+ROWID)\s*;", re.IGNORECASE), ");"),
    (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
    (re.compile(r"\bREAL\b", re.IGNORECASE), "DOUBLE PRECISION"),
)


def to_postgresql_ddl(sql: str) -> str:
    """A shared migration's text for PostgreSQL (see the module's docstring)."""
    # Comments may mention the words: translate the code only (migrations keep no "--" inside
    # a string).
    text = "\n".join(line.split("--", 1)[0].rstrip() for line in sql.splitlines())
    for pattern, replacement in _DDL_WORDS:
        text = pattern.sub(replacement, text)
    return text
