"""``kapshap learn``: every lesson taken with scripted input, a wrong answer at each step
(explained, the step stays) and then the right one; the progress shown in the list; quitting
half-way and resuming; the practice game handed to the terminal client; and the Chinese runs
leave no English."""

from __future__ import annotations

import io

import pytest

from bot.lessons import Lesson, all_lessons, choices_of
from bot.locale import t
from bot.terminal import learn
from tests.locale.english import latin_left

LESSONS = all_lessons()


def _numbers(lesson: Lesson, step: int) -> tuple[str, str]:
    """The numbers a member types for a wrong and for the right answer of a step."""
    keys = [c.key for c in choices_of(lesson.steps[step])]
    right = keys.index(lesson.steps[step].answer)
    wrong = next(i for i, key in enumerate(keys) if i != right)
    return str(wrong + 1), str(right + 1)


def _run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    status = learn.main(argv, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out)
    return status, out.getvalue()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_a_lesson_wrong_then_right_at_every_step(lesson: Lesson) -> None:
    typed = []
    for step in range(len(lesson.steps)):
        typed += _numbers(lesson, step)
    status, out = _run(["--lesson", lesson.key], [*typed, "n"])
    assert status == 0
    for index, step in enumerate(lesson.steps):
        # The wrong answer is explained, the step is asked again, then the right one goes on.
        wrong_at = out.index("✗ " + step.wrong + " Try again.")
        right_at = out.index("✓ " + step.right)
        assert wrong_at < right_at
        assert out.count(f"Step {index + 1} of {len(lesson.steps)}") == 1
    assert "Lesson finished: ★☆☆" in out or "Lesson finished: ★★☆" in out
    assert "Play a short game against the gentlest computer" in out


def test_the_list_shows_progress_and_a_lesson_resumes_where_it_stopped() -> None:
    lesson = LESSONS[0]
    first_right = _numbers(lesson, 0)[1]
    rest = [_numbers(lesson, step)[1] for step in range(1, len(lesson.steps))]
    status, out = _run(
        [],
        ["1", first_right, "q", "1", *rest, "n", "q"],
    )
    assert status == 0
    steps = len(lesson.steps)
    assert f"1. Kap Shap: {lesson.title} (not started)" in out
    assert f"1. Kap Shap: {lesson.title} (step 2 of {steps})" in out
    # Resumed at step 2: step 1 was asked once only.
    assert out.count(f"Step 1 of {steps}") == 1
    assert f"1. Kap Shap: {lesson.title} (done ★★★)" in out
    assert "Lesson finished: ★★★" in out


def test_a_bad_answer_is_explained_and_changes_nothing() -> None:
    lesson = LESSONS[0]
    status, out = _run(["--lesson", lesson.key], ["99", "what", ""])
    assert status == 0
    n = len(choices_of(lesson.steps[0]))
    assert out.count(f"! Type the number of an answer (1 to {n}).") == 3
    assert "✓" not in out and "✗" not in out


def test_the_practice_game_is_the_terminal_client_s_game() -> None:
    lesson = next(x for x in LESSONS if x.game == "tsung-shap")
    right = [_numbers(lesson, step)[1] for step in range(len(lesson.steps))]
    status, out = _run(["--lesson", lesson.key, "--seed", "3"], [*right, "y", "quit"])
    assert status == 0
    tail = out[out.index("Play a short game") :]
    assert "Beginner" in tail  # the gentlest computer, by its level's name
    assert t("en", "You leave the table; the game is abandoned.") in tail


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
def test_every_lesson_in_chinese_leaves_no_english(locale: str) -> None:
    typed = []
    for lesson in LESSONS:
        typed.append(str(LESSONS.index(lesson) + 1))
        for step in range(len(lesson.steps)):
            typed += _numbers(lesson, step)
        typed.append("n")
    status, out = _run(["--lang", locale], [*typed, "q"])
    assert status == 0
    assert out.count(t(locale, "Try again.")) == sum(len(x.steps) for x in LESSONS)
    problems = []
    for line in out.splitlines():
        shown = line.split("> ", 1)[0]  # the prompt's echo is what the member typed
        left = latin_left(shown, {"Bot"})
        if left:
            problems.append(f"{sorted(left)}: {line}")
    assert not problems, "\n".join(problems)


class _GoneReader(io.StringIO):
    """A pipe whose reader went away after the first line."""

    def write(self, text: str) -> int:
        if self.getvalue():
            raise BrokenPipeError
        return super().write(text)


def test_a_reader_going_away_stops_quietly() -> None:
    out = _GoneReader()
    assert learn.main([], stdin=io.StringIO("1\n"), stdout=out) == 0
    assert out.getvalue()
