"""Relative/absolute date resolution (English and Chinese) and ``parse_until``."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.ingest.dates import ResolvedDate, end_of_day, parse_until, resolve_dates

WED = datetime(2026, 4, 15, 10, 0, tzinfo=UTC)  # Wednesday 15 April 2026
FRI = datetime(2026, 4, 17, 9, 0, tzinfo=UTC)  # Friday
NEW_YEAR = datetime(2026, 1, 1, 8, 0, tzinfo=UTC)  # Thursday 1 January 2026
NYE = datetime(2025, 12, 31, 22, 0, tzinfo=UTC)  # Wednesday 31 December 2025
SUN = datetime(2026, 4, 19, 12, 0, tzinfo=UTC)  # Sunday
LEAP = datetime(2024, 2, 28, 12, 0, tzinfo=UTC)


def one(text: str, at: datetime) -> ResolvedDate:
    found = resolve_dates(text, at)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    ("text", "at", "expected"),
    [
        # English offsets
        ("yesterday", WED, "2026-04-14"),
        ("today", WED, "2026-04-15"),
        ("tomorrow", WED, "2026-04-16"),
        ("the day after tomorrow", WED, "2026-04-17"),
        ("the day before yesterday", WED, "2026-04-13"),
        ("last night", WED, "2026-04-14"),
        # weekdays: "last X" = most recent X strictly before today; "next X" = first X after
        ("last Friday", WED, "2026-04-10"),
        ("last Friday", FRI, "2026-04-10"),  # said on a Friday: a week ago
        ("last Tuesday", WED, "2026-04-14"),
        ("last Wednesday", WED, "2026-04-08"),
        ("next Monday", WED, "2026-04-20"),
        ("next Friday", WED, "2026-04-17"),
        ("next Friday", FRI, "2026-04-24"),
        ("next Thursday", WED, "2026-04-16"),
        ("this Wednesday", WED, "2026-04-15"),
        ("this Sunday", WED, "2026-04-19"),
        ("this Monday", SUN, "2026-04-13"),  # ISO week: Monday..Sunday
        ("last Mon", WED, "2026-04-13"),
        # counts
        ("in 3 days", WED, "2026-04-18"),
        ("in two weeks", WED, "2026-04-29"),
        ("two weeks ago", WED, "2026-04-01"),
        ("3 days ago", WED, "2026-04-12"),
        ("a month ago", WED, "2026-03-15"),
        ("in a year", WED, "2027-04-15"),
        ("a couple of days ago", WED, "2026-04-13"),
        ("5 days from now", WED, "2026-04-20"),
        # absolute
        ("on 12 April", WED, "2026-04-12"),
        ("April 12", WED, "2026-04-12"),
        ("April 12, 2025", WED, "2025-04-12"),
        ("12th of March 2024", WED, "2024-03-12"),
        ("Sept 3", WED, "2026-09-03"),
        ("2026-04-12", WED, "2026-04-12"),
        ("2026/4/2", WED, "2026-04-02"),
        # Chinese offsets
        ("昨天", WED, "2026-04-14"),
        ("今天", WED, "2026-04-15"),
        ("明天", WED, "2026-04-16"),
        ("后天", WED, "2026-04-17"),
        ("前天", WED, "2026-04-13"),
        ("大前天", WED, "2026-04-12"),
        ("大后天", WED, "2026-04-18"),
        # Chinese weeks (ISO weeks)
        ("上周五", WED, "2026-04-10"),
        ("上周三", WED, "2026-04-08"),
        ("下周一", WED, "2026-04-20"),
        ("这周三", WED, "2026-04-15"),
        ("本周日", WED, "2026-04-19"),
        ("上星期天", WED, "2026-04-12"),
        ("下礼拜二", WED, "2026-04-21"),
        ("上上周一", WED, "2026-03-30"),
        ("上周五", SUN, "2026-04-10"),
        # Chinese counts and absolute
        ("三天前", WED, "2026-04-12"),
        ("3天后", WED, "2026-04-18"),
        ("两周前", WED, "2026-04-01"),
        ("两个星期后", WED, "2026-04-29"),
        ("一个月前", WED, "2026-03-15"),
        ("十天以后", WED, "2026-04-25"),
        ("4月12日", WED, "2026-04-12"),
        ("4月12号", WED, "2026-04-12"),
        ("十二月三十一日", WED, "2026-12-31"),
        ("2025年12月31日", WED, "2025-12-31"),
    ],
)
def test_resolve(text: str, at: datetime, expected: str) -> None:
    r = one(text, at)
    assert r.iso == expected
    assert r.text.strip()
    assert text[r.start : r.end] == r.text


@pytest.mark.parametrize(
    ("text", "at", "expected"),
    [
        ("yesterday", NEW_YEAR, "2025-12-31"),
        ("昨天", NEW_YEAR, "2025-12-31"),
        ("tomorrow", NYE, "2026-01-01"),
        ("明天", NYE, "2026-01-01"),
        ("in 3 days", NYE, "2026-01-03"),
        ("3天后", NYE, "2026-01-03"),
        ("last Friday", NEW_YEAR, "2025-12-26"),
        ("上周五", NEW_YEAR, "2025-12-26"),
        ("next Monday", NYE, "2026-01-05"),
        ("下周一", NYE, "2026-01-05"),
        ("two weeks ago", NEW_YEAR, "2025-12-18"),
        ("a month ago", datetime(2026, 3, 31, tzinfo=UTC), "2026-02-28"),
        ("tomorrow", LEAP, "2024-02-29"),
        ("in a year", datetime(2024, 2, 29, tzinfo=UTC), "2025-02-28"),
    ],
)
def test_year_and_month_boundaries(text: str, at: datetime, expected: str) -> None:
    assert one(text, at).iso == expected


def test_uses_the_calendar_day_of_at_in_its_own_timezone() -> None:
    shanghai = timezone(timedelta(hours=8))
    late = datetime(2026, 4, 15, 23, 30, tzinfo=shanghai)  # 15:30 UTC on the same day
    early = datetime(2026, 4, 16, 1, 0, tzinfo=shanghai)  # still the 15th in UTC
    assert one("yesterday", late).iso == "2026-04-14"
    assert one("昨天", early).iso == "2026-04-15"


def test_naive_at_is_taken_as_utc() -> None:
    assert one("tomorrow", datetime(2026, 4, 15, 10, 0)).iso == "2026-04-16"


def test_multiple_dates_in_order_without_overlap() -> None:
    found = resolve_dates("I flew out last Friday and return on April 20, 2026 or 4月22日", WED)
    assert [r.iso for r in found] == ["2026-04-10", "2026-04-20", "2026-04-22"]
    assert found[1].text == "April 20, 2026"  # the longest form wins


@pytest.mark.parametrize(
    "text",
    [
        "",
        "nothing here",
        "I may call you",
        "the 2026 budget",
        "2026-13-45",
        "February 30",
        "13月40日",
        "然后天气很好",
        "today's mood: 🙂" * 0 + "🙂🙂",
        "3 hours ago",
    ],
)
def test_no_false_dates(text: str) -> None:
    assert resolve_dates(text, WED) == []


def test_end_of_day() -> None:
    eod = end_of_day(date(2026, 4, 17))
    assert eod.tzinfo is UTC
    assert (eod.hour, eod.minute, eod.second) == (23, 59, 59)
    assert one("tomorrow", WED).end_of_day() == end_of_day(date(2026, 4, 16))


@pytest.mark.parametrize(
    ("text", "at", "expected"),
    [
        ("until Friday", WED, "2026-04-17"),
        ("until Friday", FRI, "2026-04-17"),  # a bare weekday: on or after today
        ("until Monday", FRI, "2026-04-20"),
        ("until next Friday", WED, "2026-04-17"),
        ("till tomorrow", WED, "2026-04-16"),
        ("until April 30", WED, "2026-04-30"),
        ("until 2026-05-01", WED, "2026-05-01"),
        ("through the end of next Monday", WED, "2026-04-20"),
        ("for the next two weeks", WED, "2026-04-29"),
        ("for 3 days", WED, "2026-04-18"),
        ("for the next month", WED, "2026-05-15"),
        ("this week only", WED, "2026-04-19"),
        ("this week only", SUN, "2026-04-19"),
        ("just for today", WED, "2026-04-15"),
        ("this month only", WED, "2026-04-30"),
        ("到下周五", WED, "2026-04-24"),
        ("到周五", WED, "2026-04-17"),
        ("直到明天", WED, "2026-04-16"),
        ("到4月30日", WED, "2026-04-30"),
        ("这两周", WED, "2026-04-29"),
        ("接下来三天", WED, "2026-04-18"),
        ("两周内", WED, "2026-04-29"),
        ("这周", WED, "2026-04-19"),
        ("本月", WED, "2026-04-30"),
        ("今天先这样", WED, "2026-04-15"),
        ("until Friday", NYE, "2026-01-02"),
        ("到下周一", NYE, "2026-01-05"),
    ],
)
def test_parse_until(text: str, at: datetime, expected: str) -> None:
    until = parse_until(text, at)
    assert until is not None
    assert until.tzinfo is not None
    assert until.date().isoformat() == expected
    assert until == end_of_day(date.fromisoformat(expected))


@pytest.mark.parametrize("text", ["", "email me", "I live in Berlin", "到了", "until", "直到永远"])
def test_parse_until_none(text: str) -> None:
    assert parse_until(text, WED) is None


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=200),
    st.datetimes(
        min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
    ),
)
def test_property_never_raises(text: str, at: datetime) -> None:
    for r in resolve_dates(text, at):
        assert text[r.start : r.end] == r.text
    parse_until(text, at)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=3000), st.sampled_from(["days", "weeks"]))
def test_property_ago_and_in_are_inverse(n: int, unit: str) -> None:
    ago = one(f"{n % 999} {unit} ago", WED).day
    ahead = one(f"in {n % 999} {unit}", WED).day
    assert (WED.date() - ago) == (ahead - WED.date())
