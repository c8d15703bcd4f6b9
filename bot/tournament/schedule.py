"""When an event starts: the time a member types, read in the server's time zone (issue 23,
"Schedule"; docs/tournaments.md "Schedule").

Pure like the rest of the package: the current time comes in as a value (``now``, aware, any
zone) and every result is an aware :class:`datetime` in UTC. The forms read:

* ``2026-12-05 19:30`` (also ``2026/12/05 19:30`` and ``2026-12-05T19:30``): that date and time;
* ``19:30`` (also ``7:30pm``, ``7pm``): the next such time (today if it is still ahead, else
  tomorrow);
* ``today 19:30``, ``tomorrow 20:00``;
* ``in 2h``, ``in 90m``, ``in 1h30m``, ``in 45 minutes``: from now.

The Chinese words read the same way: ``今天`` / ``明天`` (also ``今日`` / ``明日``) for today and
tomorrow, ``2小時後`` / ``90分钟后`` for ``in 2h`` / ``in 90m``.

A wall time that does not exist in the zone (the hour skipped when the clocks go forward) is
refused; one that happens twice (the hour repeated when they go back) is the first of the two.
A time not in the future, or more than :data:`MAX_AHEAD_DAYS` ahead, is refused.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.tournament.model import TournamentError

__all__ = [
    "MAX_AHEAD_DAYS",
    "UNKNOWN_ZONE",
    "ZONE_EXAMPLES",
    "ScheduleError",
    "parse_round_times",
    "parse_when",
    "time_zone",
]

MAX_AHEAD_DAYS = 366
"""The furthest ahead an event (or a round) may be set to start."""

UNKNOWN_ZONE = "Unknown time zone {zone}: use a name of the time zone database, e.g. {examples}."
ZONE_EXAMPLES = "Europe/London, Asia/Hong_Kong, America/New_York"
UNREADABLE = (
    "Could not read the time {text}: write e.g. 2026-12-05 19:30, 19:30, tomorrow 20:00 or in 2h."
)
NO_SUCH_TIME = "{text} does not exist in {zone}: the clocks go forward then."
IN_THE_PAST = "{text} has already passed."
TOO_FAR = "A start is at most {n} days ahead."
ROUNDS_IN_ORDER = "Give the rounds' start times in order, the first round's first."


class ScheduleError(TournamentError):
    """A time or a time zone that cannot be used, in one English sentence (recognized by the
    service's refusals, like every :class:`TournamentError`)."""


_DATE_TIME = re.compile(
    r"(?P<y>\d{4})[-/](?P<mo>\d{1,2})[-/](?P<d>\d{1,2})(?:[ t]+|\s*)(?P<clock>.+)"
)
_CLOCK = re.compile(r"(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<half>am|pm)?")
_DAY = re.compile(r"(?P<day>today|tomorrow)\s+(?P<clock>.+)")
_IN = re.compile(r"in\s+(?P<rest>.+)")
_PART = re.compile(r"(?P<n>\d+)\s*(?P<unit>hours?|hrs|hr|h|minutes?|mins|min|m)(?![a-z])")


_CHINESE = (
    ("今天", "today "),
    ("今日", "today "),
    ("明天", "tomorrow "),
    ("明日", "tomorrow "),
    ("小時", "h "),
    ("小时", "h "),
    ("鐘頭", "h "),
    ("钟头", "h "),
    ("分鐘", "m "),
    ("分钟", "m "),
    ("：", ":"),
)
_AFTER = re.compile(r"(?P<rest>.+?)\s*(?:後|后|以後|以后)")


def _plain(text: str) -> str:
    """``text`` in the parser's words: lower case, single spaces, Chinese words read as the
    English ones (``明天 20:00`` is ``tomorrow 20:00``, ``2小時後`` is ``in 2h``)."""
    said = text.strip().lower()
    for word, plain in _CHINESE:
        said = said.replace(word, plain)
    said = " ".join(said.split())
    if (after := _AFTER.fullmatch(said)) is not None:
        said = "in " + after["rest"]
    return said


def time_zone(name: str) -> ZoneInfo:
    """The IANA zone ``name`` (``Europe/London``, ``UTC``…), or :class:`ScheduleError`."""
    name = name.strip()
    # ZoneInfo also reads paths; only plain IANA names are zones here.
    if not name or name.startswith(("/", ".")) or ".." in name or len(name) > 64:
        raise ScheduleError(UNKNOWN_ZONE.format(zone=repr(name[:64]), examples=ZONE_EXAMPLES))
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ScheduleError(UNKNOWN_ZONE.format(zone=repr(name), examples=ZONE_EXAMPLES)) from None


def parse_when(text: str, now: datetime, zone: str) -> datetime:
    """The moment ``text`` names, read in ``zone`` (see the module's forms), in UTC; refused
    (:class:`ScheduleError`) when unreadable, missing from the zone, past or too far ahead."""
    tz = time_zone(zone)
    said = _plain(text)
    shown = repr(text.strip()[:40])
    here = now.astimezone(tz)
    moment: datetime
    if (found := _IN.fullmatch(said)) is not None:
        moment = now + _duration(found["rest"], shown)
    elif (found := _DATE_TIME.fullmatch(said)) is not None:
        try:
            day = date(int(found["y"]), int(found["mo"]), int(found["d"]))
        except ValueError:
            raise ScheduleError(UNREADABLE.format(text=shown)) from None
        moment = _local(day, _clock(found["clock"], shown), tz, shown)
    elif (found := _DAY.fullmatch(said)) is not None:
        day = here.date() + timedelta(days=1 if found["day"] == "tomorrow" else 0)
        moment = _local(day, _clock(found["clock"], shown), tz, shown)
    else:
        wall = _clock(said, shown)
        moment = _local(here.date(), wall, tz, shown, strict=False)
        if moment <= now:
            moment = _local(here.date() + timedelta(days=1), wall, tz, shown)
        elif not _exists(here.date(), wall, tz):
            raise ScheduleError(NO_SUCH_TIME.format(text=shown, zone=tz.key))
    moment = moment.astimezone(UTC)
    if moment <= now:
        raise ScheduleError(IN_THE_PAST.format(text=shown))
    if moment - now > timedelta(days=MAX_AHEAD_DAYS):
        raise ScheduleError(TOO_FAR.format(n=MAX_AHEAD_DAYS))
    return moment


def parse_round_times(text: str, now: datetime, zone: str) -> list[datetime]:
    """A start time for each round, separated by commas (``19:30, 20:30, 21:30`` or full
    dates), each read as :func:`parse_when` reads it; they must come in order."""
    parts = [p for p in (s.strip() for s in text.split(",")) if p]
    if not parts or len(parts) > 30:
        raise ScheduleError(UNREADABLE.format(text=repr(text.strip()[:40])))
    times: list[datetime] = []
    for part in parts:
        moment = parse_when(part, now, zone)
        # "19:30, 00:30" means the 00:30 after the 19:30: a bare time follows the last one.
        while times and moment <= times[-1] and _bare(part):
            moment = parse_when(part, times[-1], zone)
        if times and moment <= times[-1]:
            raise ScheduleError(ROUNDS_IN_ORDER)
        times.append(moment)
    return times


def _bare(part: str) -> bool:
    """Whether ``part`` is a time of day alone (no date, no day, no ``in``)."""
    return _CLOCK.fullmatch(_plain(part)) is not None


def _duration(rest: str, shown: str) -> timedelta:
    total = timedelta()
    pos = 0
    rest = rest.replace(" and ", " ")
    for found in _PART.finditer(rest):
        if rest[pos : found.start()].strip():
            raise ScheduleError(UNREADABLE.format(text=shown))
        n = int(found["n"])
        total += timedelta(hours=n) if found["unit"].startswith("h") else timedelta(minutes=n)
        pos = found.end()
    if pos == 0 or rest[pos:].strip() or total <= timedelta():
        raise ScheduleError(UNREADABLE.format(text=shown))
    return total


def _clock(said: str, shown: str) -> time:
    found = _CLOCK.fullmatch(said.strip())
    if found is None:
        raise ScheduleError(UNREADABLE.format(text=shown))
    hour, minute = int(found["h"]), int(found["m"] or 0)
    half = found["half"]
    if half is None and found["m"] is None:
        raise ScheduleError(UNREADABLE.format(text=shown))  # "19" alone: too easy to mistype
    if half is not None:
        if not 1 <= hour <= 12:
            raise ScheduleError(UNREADABLE.format(text=shown))
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59:
        raise ScheduleError(UNREADABLE.format(text=shown))
    return time(hour, minute)


def _exists(day: date, wall: time, tz: ZoneInfo) -> bool:
    """Whether the wall time ``day wall`` happens in ``tz`` (not in a gap the clocks skip)."""
    local = datetime.combine(day, wall, tzinfo=tz)
    back = local.astimezone(UTC).astimezone(tz)
    return back.replace(tzinfo=None) == local.replace(tzinfo=None)


def _local(day: date, wall: time, tz: ZoneInfo, shown: str, *, strict: bool = True) -> datetime:
    """``day wall`` in ``tz`` (the first of two, when the clocks go back); refused when the
    clocks skip it (``strict``; otherwise the caller decides)."""
    if strict and not _exists(day, wall, tz):
        raise ScheduleError(NO_SUCH_TIME.format(text=shown, zone=tz.key))
    return datetime.combine(day, wall, tzinfo=tz).replace(fold=0)
