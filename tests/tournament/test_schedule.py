"""Reading the time a member types (issue 23, "Schedule"; bot/tournament/schedule.py): exact
cases in several zones, the days the clocks change, bad input, and a property over many
moments and zones."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament.schedule import (
    MAX_AHEAD_DAYS,
    ScheduleError,
    parse_round_times,
    parse_when,
    time_zone,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # 20:00 in Hong Kong, 07:00 in New York


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "zone", "expected"),
    [
        ("2026-12-05 19:30", "UTC", utc(2026, 12, 5, 19, 30)),
        ("2026-12-05 19:30", "Asia/Hong_Kong", utc(2026, 12, 5, 11, 30)),
        ("2026/12/05 19:30", "Europe/London", utc(2026, 12, 5, 19, 30)),
        ("2026-12-05T19:30", "America/New_York", utc(2026, 12, 6, 0, 30)),
        # A time alone: today if it is still ahead, else tomorrow.
        ("21:00", "Asia/Hong_Kong", utc(2026, 12, 1, 13, 0)),
        ("19:30", "Asia/Hong_Kong", utc(2026, 12, 2, 11, 30)),
        ("7pm", "America/New_York", utc(2026, 12, 2, 0, 0)),
        ("7:30 am", "America/New_York", utc(2026, 12, 1, 12, 30)),
        ("12am", "UTC", utc(2026, 12, 2, 0, 0)),
        ("12:15pm", "UTC", utc(2026, 12, 1, 12, 15)),
        ("tomorrow 20:00", "Asia/Hong_Kong", utc(2026, 12, 2, 12, 0)),
        ("Today 23:59", "UTC", utc(2026, 12, 1, 23, 59)),
        ("  TOMORROW   08:00 ", "Europe/London", utc(2026, 12, 2, 8, 0)),
        ("in 2h", "Asia/Hong_Kong", utc(2026, 12, 1, 14, 0)),
        ("in 90m", "UTC", utc(2026, 12, 1, 13, 30)),
        ("in 1h30m", "UTC", utc(2026, 12, 1, 13, 30)),
        ("in 1 hour and 5 minutes", "UTC", utc(2026, 12, 1, 13, 5)),
        ("in 45 minutes", "UTC", utc(2026, 12, 1, 12, 45)),
        # The Chinese words.
        ("明天 20:00", "Asia/Hong_Kong", utc(2026, 12, 2, 12, 0)),
        ("明日20：30", "Asia/Shanghai", utc(2026, 12, 2, 12, 30)),
        ("今天 23:00", "Asia/Taipei", utc(2026, 12, 1, 15, 0)),
        ("2小時後", "Asia/Hong_Kong", utc(2026, 12, 1, 14, 0)),
        ("90分钟后", "Asia/Shanghai", utc(2026, 12, 1, 13, 30)),
        ("1小時30分鐘後", "Asia/Taipei", utc(2026, 12, 1, 13, 30)),
    ],
)
def test_the_forms_a_member_types(text: str, zone: str, expected: datetime) -> None:
    found = parse_when(text, NOW, zone)
    assert found == expected and found.tzinfo is UTC


def test_the_day_the_clocks_go_forward_has_no_such_time() -> None:
    """New York, 2026-03-08: 02:00 becomes 03:00; 02:30 never happens."""
    now = utc(2026, 3, 7, 12)
    with pytest.raises(ScheduleError, match="does not exist in America/New_York"):
        parse_when("2026-03-08 02:30", now, "America/New_York")
    # Either side of the gap is fine, one hour of real time apart from 01:59 to 03:00.
    before = parse_when("2026-03-08 01:59", now, "America/New_York")
    after = parse_when("2026-03-08 03:00", now, "America/New_York")
    assert (before, after) == (utc(2026, 3, 8, 6, 59), utc(2026, 3, 8, 7, 0))
    # A time alone that falls in today's gap is refused too, not moved.
    late = utc(2026, 3, 8, 6, 30)  # 01:30 in New York, the gap still ahead
    with pytest.raises(ScheduleError, match="does not exist"):
        parse_when("02:30", late, "America/New_York")
    # London (2026-03-29, 01:00 -> 02:00).
    with pytest.raises(ScheduleError, match="Europe/London"):
        parse_when("2026-03-29 01:15", now, "Europe/London")


def test_the_day_the_clocks_go_back_takes_the_first_of_the_two() -> None:
    """New York, 2026-11-01: 01:30 happens twice (EDT, then EST): the first is meant."""
    now = utc(2026, 10, 30)
    assert parse_when("2026-11-01 01:30", now, "America/New_York") == utc(2026, 11, 1, 5, 30)
    # The hour after the repeated one is EST.
    assert parse_when("2026-11-01 02:30", now, "America/New_York") == utc(2026, 11, 1, 7, 30)
    # "in 2h" counts real time across the change.
    at = utc(2026, 11, 1, 4, 30)  # 00:30 EDT
    assert parse_when("in 2h", at, "America/New_York") == utc(2026, 11, 1, 6, 30)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "Could not read the time"),
        ("soon", "Could not read the time 'soon'"),
        ("19", "Could not read the time"),  # an hour alone: too easy to mistype
        ("25:00", "Could not read the time"),
        ("19:60", "Could not read the time"),
        ("13pm", "Could not read the time"),
        ("2026-02-30 10:00", "Could not read the time"),
        ("2026-12-05", "Could not read the time"),
        ("in", "Could not read the time"),
        ("in 0m", "Could not read the time"),
        ("in 2 days", "Could not read the time"),
        ("in 2hmm", "Could not read the time"),
        ("yesterday 10:00", "Could not read the time"),
        ("2026-11-30 10:00", "has already passed"),
        ("today 11:59", "has already passed"),
        ("2028-01-01 10:00", f"at most {MAX_AHEAD_DAYS} days ahead"),
    ],
)
def test_bad_times_are_refused_in_words(text: str, said: str) -> None:
    with pytest.raises(ScheduleError, match=said):
        parse_when(text, NOW, "UTC")


@pytest.mark.parametrize(
    "name", ["Mars/Olympus", "", "../../etc/passwd", "/etc/localtime", "x" * 80]
)
def test_an_unknown_time_zone_is_refused(name: str) -> None:
    with pytest.raises(ScheduleError, match="Unknown time zone"):
        time_zone(name)
    with pytest.raises(ScheduleError, match="Unknown time zone"):
        parse_when("19:30", NOW, name)


def test_the_rounds_times_come_in_order() -> None:
    times = parse_round_times("19:30, 21:00, 00:30", NOW, "UTC")
    assert times == [utc(2026, 12, 1, 19, 30), utc(2026, 12, 1, 21), utc(2026, 12, 2, 0, 30)]
    with pytest.raises(ScheduleError, match="in order"):
        parse_round_times("2026-12-05 20:00, 2026-12-05 19:00", NOW, "UTC")
    with pytest.raises(ScheduleError, match="Could not read"):
        parse_round_times(" , ", NOW, "UTC")


ZONES = ["UTC", "Asia/Hong_Kong", "America/New_York", "Europe/London", "Australia/Sydney"]


@given(
    moment=st.datetimes(
        min_value=datetime(2026, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC)
    ),
    zone=st.sampled_from(ZONES),
    hour=st.integers(0, 23),
    minute=st.integers(0, 59),
)
def test_a_time_alone_is_the_next_such_wall_time(
    moment: datetime, zone: str, hour: int, minute: int
) -> None:
    """``HH:MM`` is in the future, within about a day, and reads HH:MM on the zone's clock
    (or is refused because the clocks skip it that day)."""
    try:
        found = parse_when(f"{hour:02}:{minute:02}", moment, zone)
    except ScheduleError as exc:
        assert "does not exist" in str(exc)
        return
    assert moment < found <= moment + timedelta(hours=25)
    local = found.astimezone(ZoneInfo(zone))
    assert (local.hour, local.minute) == (hour, minute)
