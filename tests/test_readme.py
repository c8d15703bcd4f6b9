"""The README's list of ``kapshap`` commands is the real parser's."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from bot import cli

README = Path(__file__).resolve().parents[1] / "README.md"


def _subcommands() -> list[str]:
    parser = cli.build_parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(commands.choices)


def test_the_readme_lists_every_kapshap_command_in_order() -> None:
    listed = re.findall(r"^\* `kapshap (\w+)`: ", README.read_text(encoding="utf-8"), re.M)
    assert listed == _subcommands()
    assert len(listed) >= 11  # run … analyse: the walk found the list
