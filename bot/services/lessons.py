"""``/learn``: the lessons and each member's progress through them (stored per member on both
backends, migration 0011).

A member answers one step at a time; a right answer moves him on, a wrong one counts against his
stars and leaves him on the step. Finishing a lesson marks it done with its stars (the best
kept); opening a finished lesson again starts it over. The words are the lessons' message ids:
the cog says them in the member's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.lessons import (
    Lesson,
    UnknownLesson,
    all_lessons,
    choices_of,
    find_lesson,
    is_right,
    stars_for,
)
from bot.services.clock import Clock
from bot.services.errors import UserError
from bot.storage.db import Database
from bot.storage.lessons import LessonProgressRecord, LessonsRepo

__all__ = ["Answer", "LessonLine", "LessonService"]


@dataclass(frozen=True, slots=True)
class LessonLine:
    """A lesson and where a member is in it (``step``: the next step to answer)."""

    lesson: Lesson
    step: int
    done: bool
    stars: int


@dataclass(frozen=True, slots=True)
class Answer:
    """What a member's answer did: ``text`` (a message id) says why it is right or wrong;
    ``step`` is the step to show next (the same one after a wrong answer); ``finished`` when
    this answer ended the lesson, with its ``stars``."""

    lesson: Lesson
    right: bool
    text: str
    step: int
    finished: bool = False
    stars: int = 0


class LessonService:
    """The lessons and the members' progress."""

    def __init__(self, db: Database, clock: Clock) -> None:
        """Progress is kept in ``db``; ``clock`` stamps the rows."""
        self.db = db
        self.clock = clock
        self.repo = LessonsRepo()

    @staticmethod
    def lesson(key: str) -> Lesson:
        """The lesson stored as ``key`` (a short refusal when there is none)."""
        try:
            return find_lesson(key)
        except UnknownLesson:
            raise UserError("There is no such lesson: choose one with `/learn`.") from None

    async def overview(self, user_id: int) -> list[LessonLine]:
        """Every lesson with the member's progress, in the order they are taken."""
        async with self.db.read() as tx:
            stored = {r.lesson: r for r in await self.repo.of_member(tx, user_id)}
        lines = []
        for lesson in all_lessons():
            record = stored.get(lesson.key, LessonProgressRecord(user_id, lesson.key))
            lines.append(LessonLine(lesson, record.step, record.done, record.stars))
        return lines

    async def resume(self, user_id: int, key: str) -> tuple[Lesson, int]:
        """The lesson and the step to show: where the member stopped, or the first step of a
        lesson he finished (taking it again)."""
        lesson = self.lesson(key)
        async with self.db.read() as tx:
            record = await self.repo.get(tx, user_id, key)
        step = 0 if record is None or record.step >= len(lesson.steps) else record.step
        return lesson, step

    async def answer(self, user_id: int, key: str, step: int, choice: str) -> Answer:
        """Check the member's ``choice`` at ``step`` with the engine and store his progress;
        a refusal for a step he is not on (an old message) or a choice the step does not have."""
        lesson = self.lesson(key)
        steps = len(lesson.steps)
        async with self.db.transaction() as tx:
            record = await self.repo.get(tx, user_id, key) or LessonProgressRecord(user_id, key)
            if record.step >= steps:  # a finished lesson taken again starts over
                record = LessonProgressRecord(user_id, key, 0, 0, record.done, record.stars)
            if step != record.step:
                raise UserError("That step is behind you: `/learn` shows where you are.")
            current = lesson.steps[step]
            if choice not in {c.key for c in choices_of(current)}:
                raise UserError("That is not one of this step's answers.")
            now = self.clock.now().timestamp()
            if not is_right(current, choice):
                record = LessonProgressRecord(
                    user_id, key, step, record.mistakes + 1, record.done, record.stars
                )
                await self.repo.put(tx, record, now)
                return Answer(lesson, False, current.wrong, step)
            following = step + 1
            if following < steps:
                record = LessonProgressRecord(
                    user_id, key, following, record.mistakes, record.done, record.stars
                )
                await self.repo.put(tx, record, now)
                return Answer(lesson, True, current.right, following)
            stars = stars_for(record.mistakes)
            record = LessonProgressRecord(
                user_id, key, following, record.mistakes, True, max(stars, record.stars)
            )
            await self.repo.put(tx, record, now)
            return Answer(lesson, True, current.right, following, finished=True, stars=stars)
