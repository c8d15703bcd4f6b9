"""Which reminder is due (issue 23, "Schedule"; docs/tournaments.md "Schedule"): the latest
whose moment came and that was not sent, while the start is ahead; one whose moment passed
while the bot was down is sent late only while it is the latest due."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.services.tournaments import TournamentService
from bot.storage.tournaments import TournamentRecord

STARTS = datetime(2026, 12, 5, 19, 30, tzinfo=UTC)


def record(reminded: list[str], status: str = "registration") -> TournamentRecord:
    return TournamentRecord(
        id=1,
        guild_id=1,
        channel_id=2,
        message_id=None,
        name="Cup",
        organiser_id=3,
        status=status,
        settings={},
        options={"starts_at": STARTS.isoformat(), "reminded": reminded},
        state=None,
        version=1,
        closes_at=STARTS,
        round_deadline=None,
        paused_left=None,
        created_at=STARTS - timedelta(days=1),
        finished_at=None,
    )


@pytest.mark.parametrize(
    ("before", "reminded", "due"),
    [
        (timedelta(minutes=61), [], None),  # not yet
        (timedelta(minutes=60), [], "hour"),
        (timedelta(minutes=30), [], "hour"),  # late (the bot was down), still useful
        (timedelta(minutes=30), ["hour"], None),  # sent: never twice
        (timedelta(minutes=10), ["hour"], "ten"),
        (timedelta(minutes=9), [], "ten"),  # the hour's, found this late, is dropped for it
        (timedelta(minutes=1), ["hour", "ten"], None),
        (timedelta(0), [], None),  # the start itself: no reminder any more
        (-timedelta(minutes=5), [], None),
    ],
)
def test_the_reminder_due(before: timedelta, reminded: list[str], due: str | None) -> None:
    assert TournamentService._reminder_due(record(reminded), STARTS - before) == due


def test_an_event_without_a_start_has_no_reminder() -> None:
    unscheduled = record([])
    unscheduled.options = {}
    assert TournamentService._reminder_due(unscheduled, STARTS - timedelta(minutes=5)) is None
