"""``kapshap run`` without a token explains what to do and exits non-zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import main


def test_run_without_a_token_explains_how_to_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["--env-file", str(tmp_path / "missing.env")]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err
    assert "applications.commands" in err
    assert "kapshap demo" in err
    assert "kapshap play" in err


def test_run_with_a_bad_setting_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KAPSHAP_DEFAULT_ANTE", "lots")
    assert main(["--env-file", str(tmp_path / "missing.env")]) == 2
    assert "KAPSHAP_DEFAULT_ANTE" in capsys.readouterr().err
