from __future__ import annotations

import subprocess
import sys
import types
from importlib.metadata import version

import pytest

from bot import cli


def fake_module(name: str, result: object = 0) -> tuple[types.ModuleType, list[list[str]]]:
    calls: list[list[str]] = []
    module = types.ModuleType(name)

    def main(argv: list[str]) -> object:
        calls.append(argv)
        if isinstance(result, BaseException):
            raise result
        return result

    module.main = main  # type: ignore[attr-defined]
    return module, calls


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"kapshap {version('kapshap-bot')}"


def test_no_command_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert "usage: kapshap" in err
    for command in ("run", "play", "sim", "db", "sync"):
        assert command in err


def test_sync_runs_the_apps_sync_main(monkeypatch: pytest.MonkeyPatch) -> None:
    fake, calls = fake_module("bot.app", result=4)
    fake.sync_main = fake.main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", fake)
    assert cli.main(["sync", "--guild", "5", "--clear"]) == 4
    assert calls == [["--guild", "5", "--clear"]]


def test_the_usage_offers_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    assert "demo" in capsys.readouterr().out


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bogus"]) == 2
    assert "invalid choice: 'bogus'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "module"),
    [
        ("run", "bot.app"),
        ("demo", "bot.demo"),
        ("play", "bot.terminal"),
        ("sim", "bot.sim.cli"),
        ("db", "bot.services.dbtool"),
        ("ratings", "bot.services.ratings_cli"),
    ],
)
def test_command_delegates_the_rest_of_the_arguments(
    monkeypatch: pytest.MonkeyPatch, command: str, module: str
) -> None:
    fake, calls = fake_module(module, result=3)
    monkeypatch.setitem(sys.modules, module, fake)
    assert cli.main([command, "--games", "5", "-h", "positional"]) == 3
    assert calls == [["--games", "5", "-h", "positional"]]


def test_delegated_system_exit_becomes_the_status(monkeypatch: pytest.MonkeyPatch) -> None:
    fake, _ = fake_module("bot.sim.cli", result=SystemExit(0))
    monkeypatch.setitem(sys.modules, "bot.sim.cli", fake)
    assert cli.main(["sim", "--help"]) == 0


def test_interrupt_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake, _ = fake_module("bot.terminal", result=KeyboardInterrupt())
    monkeypatch.setitem(sys.modules, "bot.terminal", fake)
    assert cli.main(["play"]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_missing_module_is_a_one_line_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "bot.terminal", None)  # makes the import fail
    assert cli.main(["play"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "kapshap play: not available yet (bot.terminal is not implemented)\n"


def test_module_without_main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "bot.app", types.ModuleType("bot.app"))
    assert cli.main(["run"]) == 2
    assert "bot.app has no main(argv)" in capsys.readouterr().err


def test_only_the_subcommand_module_counts_as_missing() -> None:
    def missing(name: str) -> ModuleNotFoundError:
        return ModuleNotFoundError(f"No module named {name!r}", name=name)

    assert cli._is_missing(missing("bot.sim.cli"), "bot.sim.cli")
    assert cli._is_missing(missing("bot.sim"), "bot.sim.cli")
    # A dependency of the module is missing: that is a real error, not "not implemented".
    assert not cli._is_missing(missing("discord"), "bot.app")
    assert not cli._is_missing(missing("bot.sim.stats"), "bot.sim.cli")


@pytest.mark.parametrize("command", ["play", "sim", "learn"])
def test_offline_commands_never_import_discord(command: str) -> None:
    code = (
        "import sys\n"
        "from bot.cli import main\n"
        f"main([{command!r}, '--help'])\n"
        "print('discord' in sys.modules, 'aiosqlite' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.splitlines()[-1] == "False False", done.stderr


def test_python_dash_m_bot_is_the_same_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"kapshap {version('kapshap-bot')}"
