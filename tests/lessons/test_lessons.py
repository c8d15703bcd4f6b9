"""Every lesson is data the engine agrees with: each step's position is a legal game of its
lesson's game (built from a fixed deal through the engine's own moves), each move offered is a
legal action, the author's answer is the one choice the engine judges right, and every word is
a message the catalogues translate (tests/locale checks them)."""

from __future__ import annotations

import pytest

from bot.ai.levels import levels_for
from bot.engine.family import engine_of
from bot.games import find, games
from bot.lessons import (
    Lesson,
    UnknownLesson,
    all_lessons,
    choices_of,
    find_lesson,
    is_right,
    position_of,
    practice_level,
    stars_for,
)
from bot.lessons.family import lessons_of

LESSONS = all_lessons()
STEPS = [(lesson, i) for lesson in LESSONS for i in range(len(lesson.steps))]


def _id(item: tuple[Lesson, int]) -> str:
    return f"{item[0].key}-{item[1]}"


def test_the_lessons_are_found_in_every_family_that_has_some() -> None:
    keys = [lesson.key for lesson in LESSONS]
    assert len(keys) == len(set(keys)) >= 3
    for info in games():
        facet = lessons_of(info.name)
        mine = () if facet is None else facet.lessons(info.name)
        assert all(lesson.game == info.name for lesson in mine)
    assert {lesson.game for lesson in LESSONS} <= {info.name for info in games()}
    assert find_lesson(keys[0]) is LESSONS[0]
    with pytest.raises(UnknownLesson):
        find_lesson("no-such-lesson")


@pytest.mark.parametrize("item", STEPS, ids=[_id(s) for s in STEPS])
def test_each_step_is_a_legal_position_whose_answer_the_engine_confirms(
    item: tuple[Lesson, int],
) -> None:
    lesson, index = item
    step = lesson.steps[index]
    position = position_of(step)
    engine = engine_of(lesson.game)
    state = position.state
    assert state.rules.game == lesson.game
    assert state.result is None  # a step is asked in a game still being played
    assert 0 <= position.seat < len(state.seats)
    legal = engine.legal_actions(state)
    assert legal, "the position has moves"
    choices = choices_of(step)
    keys = [choice.key for choice in choices]
    assert len(keys) == len(set(keys)) >= 2
    if not step.choices:
        # A move step: it is the member's turn, and his choices are the engine's legal moves.
        assert engine.view(state, position.seat).my_turn
        assert keys == [str(action) for action in legal]
        for key in keys:
            engine.apply(state, engine.parse_action(key))  # each one is playable
    right = [key for key in keys if is_right(step, key)]
    assert right == [step.answer], "exactly the author's answer is right, by the engine"
    assert step.prompt and step.right and step.wrong


def test_a_choice_the_step_does_not_offer_is_refused() -> None:
    step = LESSONS[0].steps[0]
    with pytest.raises(UnknownLesson):
        is_right(step, "not a choice")


def test_every_lesson_ends_against_the_weakest_computer() -> None:
    for lesson in LESSONS:
        assert practice_level(lesson.game) == levels_for(lesson.game)[0]
        find(lesson.game)


def test_stars_reward_fewer_mistakes() -> None:
    assert [stars_for(n) for n in range(5)] == [3, 2, 2, 1, 1]
