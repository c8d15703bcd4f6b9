"""Reading, writing and comparing the pinned files of ``tests/compat/pins/``."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import pytest

PINS = Path(__file__).resolve().parent / "pins"
"""Where the pinned outputs live (committed)."""

REGENERATE = "python -m tests.compat.make_pins"

_WHY = (
    "The pins in tests/compat/pins/ are the behaviour of the code before the issue-19 refactor "
    "(one place per game), which must not change it. If this change of behaviour is intended, "
    f"run `{REGENERATE}` and say why in the commit; otherwise the refactor broke something."
)

_DIFF_LINES = 60
"""At most this many lines of a diff in a failure message."""


def pin_path(name: str) -> Path:
    """The path of one pinned file, by its name under ``pins/``."""
    return PINS / name


def read_pin(name: str) -> str:
    """The text of one pinned file."""
    path = pin_path(name)
    if not path.exists():
        pytest.fail(f"the pin {name} is missing: make it with `{REGENERATE}`", pytrace=False)
    return path.read_text(encoding="utf-8")


def read_json_pin(name: str) -> Any:
    """One pinned JSON file, parsed."""
    return json.loads(read_pin(name))


def write_pin(name: str, text: str) -> None:
    """Write one pinned file (the generator only)."""
    path = pin_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def json_text(value: Any) -> str:
    """The canonical text of a JSON pin: keys in their given order, one value per line except
    that a list of plain values (a row, a list of ids) stays on one line; one final newline."""
    return _layout(value, 0) + "\n"


def _layout(value: Any, depth: int) -> str:
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_layout(v, depth + 1)}"
                 for k, v in value.items()]  # fmt: skip
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + _layout(v, depth + 1) for v in value) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def fail(message: str) -> None:
    """Fail the test with ``message`` and what the pins are."""
    pytest.fail(f"{message}\n\n{_WHY}", pytrace=False)


def check_text(name: str, actual: str, what: str, pinned: str | None = None) -> None:
    """Fail with a diff naming ``what`` when ``actual`` is not the pinned text of ``name``
    (``pinned``: the text to compare with, when it is only a part of that file)."""
    expected = read_pin(name) if pinned is None else pinned
    if actual == expected:
        return
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            f"pinned ({name})",
            "now",
            lineterm="",
            n=2,
        )
    )
    if len(diff) > _DIFF_LINES:
        diff = [*diff[:_DIFF_LINES], f"... ({len(diff) - _DIFF_LINES} more diff lines)"]
    if not diff:  # only line ends or a final newline differ
        diff = [f"pinned {expected[-40:]!r}", f"now    {actual[-40:]!r}"]
    fail(f"{what} differs from its pin {name}:\n" + "\n".join(diff))


def check_json(name: str, actual: Any, what: str, pinned: Any = None) -> None:
    """:func:`check_text` for a JSON value (compared as its canonical text, so the diff is
    readable)."""
    expected = read_json_pin(name) if pinned is None else pinned
    actual = json.loads(json.dumps(actual))  # tuples as lists, as the pin holds them
    if actual == expected:
        return
    check_text(name, json_text(actual), what, json_text(expected))
