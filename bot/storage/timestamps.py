"""How timestamps are stored: ISO-8601 text in UTC.

Text sorts chronologically when every value has the same offset, which is why everything is
converted to UTC before it is written. Naive datetimes are refused: their meaning depends on the
machine's time zone, which is exactly the ambiguity a ledger must not have.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["from_db_time", "to_db_time"]


def to_db_time(moment: datetime) -> str:
    """Encode an aware datetime as UTC ISO-8601 text (microsecond precision)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: pass an aware datetime (UTC)")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def from_db_time(text: str) -> datetime:
    """Decode text written by :func:`to_db_time` into an aware UTC datetime."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:  # written by hand (e.g. a manual fix-up); UTC by convention
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
