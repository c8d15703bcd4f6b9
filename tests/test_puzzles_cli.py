"""``kapshap puzzle`` (answer by typing the move, right and wrong) and the refusals of
``kapshap puzzle`` and ``kapshap puzzles build``."""

from __future__ import annotations

import io

import pytest

from bot import puzzles_cli
from bot.ai.puzzles import PuzzleSet
from bot.puzzles_cli import main, main_build, main_puzzle
from tests.puzzles_kit import tiny_set

SETS = {"tsung-shap": tiny_set("tsung-shap", 1)}


@pytest.fixture(autouse=True)
def tiny_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """One Tsung Shap puzzle is all that is shipped."""

    def sets(game: str) -> PuzzleSet:
        return SETS.get(game) or PuzzleSet(game, 0, 0.05, 3.0, 0, 0)

    monkeypatch.setattr(puzzles_cli, "shipped", sets)


def _run(*lines: str, argv: tuple[str, ...] = ("--seed", "1")) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main_puzzle(list(argv), io.StringIO("".join(f"{x}\n" for x in lines)), out, err)
    return status, out.getvalue(), err.getvalue()


def test_the_right_move_is_right() -> None:
    puzzle = SETS["tsung-shap"].puzzles[0]
    status, out, err = _run(puzzle.best.upper(), "q")
    assert status == 0 and err == ""
    assert "Which capture?" in out
    assert f"Right: {puzzle.best} is the best move." in out
    assert "beats the next best" in out
    assert "kapshap analyse --position 'tsung-shap; " in out
    assert "Solved 1 of 1." in out


def test_a_wrong_move_is_explained_and_nonsense_asked_again() -> None:
    puzzle = SETS["tsung-shap"].puzzles[0]
    wrong = puzzle.choices[1] if puzzle.choices[0] == puzzle.best else puzzle.choices[0]
    status, out, _ = _run("declare", wrong, "q")
    assert status == 0
    assert "That is not one of the answers: " in out
    assert f"Not quite: you chose {wrong}; the best move is {puzzle.best}." in out
    assert "Solved 0 of 1." in out


def test_in_chinese() -> None:
    puzzle = SETS["tsung-shap"].puzzles[0]
    _, out, _ = _run(puzzle.best, "q", argv=("--lang", "zh-TW"))
    assert "釣哪一組？" in out and "答對了" in out


def test_refusals_are_one_line() -> None:
    status, _, err = _run(argv=("--game", "kap-shap"))
    assert status == 2 and err == "kapshap puzzle: no puzzles of kap-shap are shipped.\n"
    err_stream = io.StringIO()
    with pytest.raises(SystemExit) as stopped:
        main_puzzle(["--game", "chess"], io.StringIO(), io.StringIO(), err_stream)
    assert stopped.value.code == 2
    assert err_stream.getvalue().count("\n") == 1 and "unknown game" in err_stream.getvalue()
    with pytest.raises(SystemExit) as stopped:
        main_build(["--game", "kap-shap", "--count", "0"], io.StringIO(), io.StringIO())
    assert stopped.value.code == 2
    assert main(["nothing"]) == 2
