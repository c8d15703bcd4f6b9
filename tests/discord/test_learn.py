"""``/learn`` on simcord: every lesson played with a wrong answer at each step (explained, the
step stays) and then the right one (the lesson goes on), the progress stored and shown, the
lesson resumed where the member stopped, and the practice table opened at the end."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.lessons import Lesson, all_lessons, choices_of, practice_level
from bot.locale import t
from bot.locale.levels import level_name
from tests.discord.conftest import World
from tests.locale.english import latin_left

pytestmark = pytest.mark.both_backends


def _embed(result: simcord.InteractionResult) -> Any:
    assert result.response is not None
    [embed] = result.response.message.embeds
    return embed


def _ids(result: simcord.InteractionResult) -> list[str]:
    assert result.response is not None
    return [
        str(c.custom_id)
        for row in result.response.message.components
        for c in getattr(row, "children", [row])
    ]


def _wrong_index(lesson: Lesson, step: int) -> int:
    """A choice other than the lesson's answer (the engine's verdict is checked in
    tests/lessons)."""
    keys = [c.key for c in choices_of(lesson.steps[step])]
    return next(i for i, key in enumerate(keys) if key != lesson.steps[step].answer)


def _right_index(lesson: Lesson, step: int) -> int:
    keys = [c.key for c in choices_of(lesson.steps[step])]
    return keys.index(lesson.steps[step].answer)


async def _open(world: World, member: simcord.MemberActor, key: str) -> simcord.InteractionResult:
    r = await member.slash(world.channel, "learn")
    assert r.ephemeral
    assert r.response is not None
    return await member.select(r.response.message, [key], custom_id="learn:open")


@pytest.mark.parametrize("lesson", all_lessons(), ids=lambda lesson: lesson.key)
async def test_each_lesson_wrong_then_right_to_the_end(world: World, lesson: Lesson) -> None:
    alice = world.members[0]
    service = world.bot.services.lessons
    r = await _open(world, alice, lesson.key)
    steps = len(lesson.steps)
    for step in range(steps):
        embed = _embed(r)
        assert embed.footer.text == f"Step {step + 1} of {steps}"
        assert lesson.steps[step].prompt in embed.description
        assert r.response is not None
        # The position is pictured, with a description for screen readers.
        [picture] = r.response.message.attachments
        assert picture.description
        wrong = _wrong_index(lesson, step)
        r = await alice.click(r.response.message, custom_id=f"learn:a:{lesson.key}:{step}:{wrong}")
        embed = _embed(r)
        assert embed.description.startswith("❌ " + lesson.steps[step].wrong + " Try again.")
        assert embed.footer.text == f"Step {step + 1} of {steps}"  # the step does not advance
        [line] = [x for x in await service.overview(alice.id) if x.lesson.key == lesson.key]
        assert (line.step, line.done) == (step, False)
        right = _right_index(lesson, step)
        assert r.response is not None
        r = await alice.click(r.response.message, custom_id=f"learn:a:{lesson.key}:{step}:{right}")
        if step + 1 < steps:
            assert _embed(r).description.startswith("✅ " + lesson.steps[step].right)
    embed = _embed(r)
    assert "Lesson finished: " in embed.description
    [line] = [x for x in await service.overview(alice.id) if x.lesson.key == lesson.key]
    assert line.done and line.stars == (2 if steps <= 2 else 1)  # one mistake a step
    # The list shows the lesson done, with its stars.
    r = await alice.slash(world.channel, "learn")
    assert "✅ **" in _embed(r).description
    assert "(done " in _embed(r).description
    # Taken again it starts over; then the practice game: a table in the channel against the
    # game's gentlest computer.
    finished = await _finish_again(world, alice, lesson)
    assert finished.response is not None
    practice = f"learn:practice:{lesson.game}"
    assert practice in _ids(finished)
    lobby = await alice.click(finished.response.message, custom_id=practice)
    table = await world.bot.services.tables.lookup(world.channel.id)
    assert table is not None and table.game == lesson.game and table.ante == 0
    names = [seat.name for seat in table.seats]
    level = level_name("en", practice_level(lesson.game))
    assert names == ["alice", t("en", "AI {number} ({level})", number=1, level=level)]
    assert lobby.response is not None


async def _finish_again(
    world: World, member: simcord.MemberActor, lesson: Lesson
) -> simcord.InteractionResult:
    """Take a finished lesson again, right at every step: it starts over and ends again."""
    r = await _open(world, member, lesson.key)
    assert _embed(r).footer.text == f"Step 1 of {len(lesson.steps)}"
    for step in range(len(lesson.steps)):
        assert r.response is not None
        r = await member.click(
            r.response.message,
            custom_id=f"learn:a:{lesson.key}:{step}:{_right_index(lesson, step)}",
        )
    assert "★★★" in _embed(r).description
    return r


async def test_a_lesson_resumes_where_the_member_stopped(world: World) -> None:
    alice, bob = world.members[:2]
    lesson = all_lessons()[0]
    r = await _open(world, alice, lesson.key)
    assert r.response is not None
    await alice.click(
        r.response.message, custom_id=f"learn:a:{lesson.key}:0:{_right_index(lesson, 0)}"
    )
    r = await alice.slash(world.channel, "learn")
    assert f"(step 2 of {len(lesson.steps)})" in _embed(r).description
    r = await _open(world, alice, lesson.key)
    assert _embed(r).footer.text == f"Step 2 of {len(lesson.steps)}"
    # Another member's progress is his own.
    r = await _open(world, bob, lesson.key)
    assert _embed(r).footer.text == f"Step 1 of {len(lesson.steps)}"


async def test_an_old_step_s_button_is_refused_and_changes_nothing(world: World) -> None:
    alice = world.members[0]
    lesson = all_lessons()[0]
    first = await _open(world, alice, lesson.key)
    second = await _open(world, alice, lesson.key)  # the same step, in a second message
    assert first.response is not None and second.response is not None
    old = second.response.message
    await alice.click(
        first.response.message, custom_id=f"learn:a:{lesson.key}:0:{_right_index(lesson, 0)}"
    )
    r = await alice.click(old, custom_id=f"learn:a:{lesson.key}:0:{_wrong_index(lesson, 0)}")
    assert r.ephemeral and r.response is not None
    assert "behind you" in r.response.message.content
    [line] = [
        x for x in await world.bot.services.lessons.overview(alice.id) if x.lesson.key == lesson.key
    ]
    assert line.step == 1


def _labels(result: simcord.InteractionResult) -> list[str]:
    assert result.response is not None
    return [
        str(getattr(c, "label", "") or getattr(c, "placeholder", "") or "")
        for row in result.response.message.components
        for c in getattr(row, "children", [row])
    ]


@pytest.mark.parametrize("locale", ["zh-TW", "zh-CN"])
async def test_every_lesson_in_chinese_leaves_no_english(
    world: World, locales: dict[int, str], locale: str
) -> None:
    alice = world.members[0]
    locales[alice.id] = locale
    seen: list[str] = []

    def keep(result: simcord.InteractionResult) -> None:
        embed = _embed(result)
        seen.extend([embed.title or "", embed.description or "", embed.footer.text or ""])
        seen.extend(_labels(result))
        assert result.response is not None
        seen.extend(a.description or "" for a in result.response.message.attachments)

    r = await alice.slash(world.channel, "learn")
    keep(r)
    for lesson in all_lessons():
        r = await _open(world, alice, lesson.key)
        for step in range(len(lesson.steps)):
            keep(r)
            assert r.response is not None
            r = await alice.click(
                r.response.message,
                custom_id=f"learn:a:{lesson.key}:{step}:{_wrong_index(lesson, step)}",
            )
            keep(r)
            assert r.response is not None
            r = await alice.click(
                r.response.message,
                custom_id=f"learn:a:{lesson.key}:{step}:{_right_index(lesson, step)}",
            )
        keep(r)
    assert any(t(locale, all_lessons()[0].steps[0].prompt) in text for text in seen)
    problems = [f"{sorted(left)}: {text!r}" for text in seen if (left := latin_left(text))]
    assert not problems, "\n".join(problems)


async def test_help_points_newcomers_to_learn(world: World) -> None:
    r = await world.members[0].slash(world.channel, "help")
    assert r.response is not None
    [embed] = r.response.message.embeds
    [field] = [f for f in embed.fields if f.name == "Learn to play"]
    assert "`/learn`" in str(field.value)


async def test_a_practice_game_where_a_table_is_open_is_refused_and_changes_nothing(
    world: World,
) -> None:
    alice, bob = world.members[:2]
    await bob.slash(world.channel, "table new")
    lesson = all_lessons()[0]
    r = await _open(world, alice, lesson.key)
    for step in range(len(lesson.steps)):
        assert r.response is not None
        r = await alice.click(
            r.response.message,
            custom_id=f"learn:a:{lesson.key}:{step}:{_right_index(lesson, step)}",
        )
    assert r.response is not None
    refused = await alice.click(r.response.message, custom_id=f"learn:practice:{lesson.game}")
    assert refused.ephemeral and refused.response is not None
    assert "There is already a table in this channel" in refused.response.message.content
    table = await world.bot.services.tables.lookup(world.channel.id)
    assert table is not None and [s.name for s in table.seats] == ["bob"]
