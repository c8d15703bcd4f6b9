"""The record tools read only regular files of a record's size, and refuse every number out of
its bounds in one line (issue 18, item 4); ``record export`` of a running game asks for
``--force`` (item 5)."""

from __future__ import annotations

import asyncio
import io
import os
import threading
from pathlib import Path

import pytest

from bot.engine.record import parse_record, write_record
from bot.limits import MAX_RECORD_BYTES
from bot.records_cli import main_analyse, main_record, main_replay, main_review
from tests.engine.test_record import random_game
from tests.test_records_cli import record_file, store_game


def run(command: object, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        code = command(list(argv), out=out, err=err)  # type: ignore[operator]
    except SystemExit as exc:  # argparse's refusals
        code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def one_line(text: str) -> str:
    lines = text.strip("\n").splitlines()
    assert len(lines) == 1, text
    return lines[0]


READERS = [
    (main_replay, ("--all",)),
    (main_review, ()),
    (main_analyse, ()),
]


@pytest.mark.parametrize(("command", "extra"), READERS)
def test_a_fifo_is_refused_without_waiting_for_a_writer(
    tmp_path: Path, command: object, extra: tuple[str, ...]
) -> None:
    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)
    result: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: result.append(run(command, str(fifo), *extra)))
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # it blocked on the FIFO: open it for writing to let it go
        with open(fifo, "w"):
            pass
        worker.join()
        pytest.fail("the command waited for a writer of the FIFO")
    code, out, err = result[0]
    assert code == 1 and not out
    assert one_line(err) == f"Cannot read {fifo}: not a regular file."


@pytest.mark.parametrize(("command", "extra"), READERS)
def test_a_device_and_a_directory_are_refused(
    tmp_path: Path, command: object, extra: tuple[str, ...]
) -> None:
    for path in ("/dev/zero", str(tmp_path)):
        code, out, err = run(command, path, *extra)
        assert code == 1 and not out
        assert one_line(err) == f"Cannot read {path}: not a regular file."


@pytest.mark.parametrize(("command", "extra"), READERS)
def test_an_oversized_file_is_refused(
    tmp_path: Path, command: object, extra: tuple[str, ...]
) -> None:
    """A real record padded with comments past the limit: refused, though it would parse."""
    path = record_file(tmp_path)
    text = path.read_text(encoding="utf-8")
    padding = "; " + "x" * 78 + "\n"
    path.write_text(text + padding * (MAX_RECORD_BYTES // len(padding) + 1), encoding="utf-8")
    assert parse_record(path.read_text(encoding="utf-8")).actions  # still a valid record
    code, out, err = run(command, str(path), *extra)
    assert code == 1 and not out
    assert one_line(err).startswith(f"Cannot read {path}: larger than 1,000,000 bytes")


def test_a_record_just_under_the_limit_is_read(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    text = path.read_text(encoding="utf-8")
    padding = "; " + "x" * 78 + "\n"
    room = (MAX_RECORD_BYTES - len(text.encode())) // len(padding)
    path.write_text(text + padding * room, encoding="utf-8")
    code, out, _ = run(main_replay, str(path), "--all")
    assert code == 0 and "Result: " in out


def test_binary_junk_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "junk.txt"
    path.write_bytes(b"\xff\xfe\x00junk")
    code, _, err = run(main_replay, str(path), "--all")
    assert code == 1 and one_line(err) == f"Cannot read {path}: not UTF-8 text."


@pytest.mark.parametrize(
    ("command", "argv", "refusal"),
    [
        (main_review, ("--rollouts", "0"), "argument --rollouts: must be a whole number from 10"),
        (main_review, ("--rollouts", "-5"), "argument --rollouts: must be a whole number from 10"),
        (main_review, ("--rollouts", "999999999999"), "to 100,000 (play-outs per decision)"),
        (main_review, ("--rollouts", "lots"), "not 'lots'"),
        (main_review, ("--seed", "-1"), "argument --seed: must be a whole number from 0"),
        (main_review, ("--seed", "9" * 5000), "argument --seed: must be a whole number from 0"),
        (main_analyse, ("--rollouts", "0"), "argument --rollouts: must be a whole number"),
        (main_analyse, ("--rollouts", "999999999999"), "to 100,000 (play-outs per decision)"),
        (main_analyse, ("--seed", str(2**64)), "argument --seed: must be a whole number"),
    ],
)
def test_numbers_out_of_bounds_are_refused_in_one_line(
    tmp_path: Path, command: object, argv: tuple[str, ...], refusal: str
) -> None:
    path = record_file(tmp_path)
    code, out, err = run(command, str(path), *argv)
    assert code == 2 and not out
    assert refusal in one_line(err)


@pytest.mark.parametrize("at", ["-5", "0", "10000"])
def test_analyse_at_outside_the_record_is_refused(tmp_path: Path, at: str) -> None:
    path = record_file(tmp_path)
    actions = len(parse_record(path.read_text(encoding="utf-8")).actions)
    code, out, err = run(main_analyse, str(path), "--at", at, "--rollouts", "10")
    assert code == 2 and not out
    assert one_line(err) == (
        f"--at must be from 1 (the deal) to {actions + 1} (after the last action), not {at}."
    )


def test_a_position_too_long_is_refused(tmp_path: Path) -> None:
    code, out, err = run(main_analyse, "-p", "kap-shap; hand 6-6" + " 6-6" * 2000)
    assert code == 1 and not out
    assert one_line(err) == "Position: longer than 4,000 characters."


def test_exporting_a_running_game_asks_for_force(tmp_path: Path) -> None:
    record = random_game(0, 4)
    db_path = tmp_path / "kapshap.sqlite3"
    game_id = asyncio.run(store_game(db_path, record, finished=False))
    target = tmp_path / "out.txt"
    code, out, err = run(main_record, "export", game_id, "--db", str(db_path), "-o", str(target))
    assert code == 1 and not out and not target.exists()
    assert one_line(err) == (
        f"Game {game_id} is still being played: its record shows every hand and the wall. "
        "Add --force to export it anyway."
    )
    code, out, err = run(main_record, "export", game_id, "--db", str(db_path), "--force")
    assert code == 0
    assert one_line(err) == (
        f"Game {game_id} is still being played: this record shows every hand and the wall."
    )
    back = parse_record(out)
    assert back.actions == record.actions and write_record(back).count("; hand of seat") == 2


def test_exporting_a_finished_game_needs_no_force(tmp_path: Path) -> None:
    record = random_game(0, 4)
    db_path = tmp_path / "kapshap.sqlite3"
    game_id = asyncio.run(store_game(db_path, record))
    code, out, err = run(main_record, "export", game_id, "--db", str(db_path))
    assert code == 0 and not err and parse_record(out).actions == record.actions


def test_an_unknown_game_id_is_quoted_short(tmp_path: Path) -> None:
    db_path = tmp_path / "kapshap.sqlite3"
    asyncio.run(store_game(db_path, random_game(0, 4)))
    code, _, err = run(main_record, "export", "f" * 500, "--db", str(db_path))
    assert code == 1 and len(one_line(err)) < 200
