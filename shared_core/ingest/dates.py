"""Resolve relative and absolute date expressions (English and Chinese) against a turn time.

Everything is computed from the calendar date of ``at`` in ``at``'s own time zone
(naive ``at`` values are taken as UTC); no clock is read. Resolved days are
returned as :class:`datetime.date`; :meth:`ResolvedDate.end_of_day` gives the last
instant of that day in UTC, which is what ``valid_until`` uses.

Rules (documented choices for ambiguous phrases):

=========================  ====================================================
phrase                     resolves to
=========================  ====================================================
yesterday / 昨天 ...       today -1; 前天 -2, 大前天 -3, 后天 +2, 大后天 +3
last Friday                the most recent Friday strictly before today
                           (said on a Friday: the Friday a week ago)
next Monday                the first Monday strictly after today
this Wednesday             the Wednesday of the current ISO week (Mon-Sun)
上周五 / 下周一 / 这周三   that weekday in the previous / next / current ISO week
                           (上上周 / 下下周: two weeks away)
in 3 days / 3天后          today +3 days (weeks, months, years likewise)
two weeks ago / 两周前     today -14 days
12 April / April 12 /      that day; without a year: the year of ``at``
4月12日
2026-04-12, 2026/4/12,     that day
2026年4月12日
until Friday / 到周五      (``parse_until`` only) a bare weekday is the next such
                           day on or after today
for the next two weeks /   (``parse_until``) today + the span
这两周 / 两周内
this week only / 这周      (``parse_until``) the Sunday of the current ISO week
just for today / 今天先    (``parse_until``) today
=========================  ====================================================
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from dateutil.relativedelta import relativedelta

from .lexicon import parse_number

__all__ = ["DATE_HINTS", "ResolvedDate", "end_of_day", "parse_until", "resolve_dates"]


@dataclass(frozen=True, slots=True)
class ResolvedDate:
    """One date expression found in a text.

    Attributes:
        text: the surface text ("last Friday", "昨天").
        start: its start offset in the text.
        end: its end offset in the text.
        day: the calendar day it means.
    """

    text: str
    start: int
    end: int
    day: date

    @property
    def iso(self) -> str:
        """The day as ``YYYY-MM-DD``."""
        return self.day.isoformat()

    def end_of_day(self) -> datetime:
        """The last instant of :attr:`day` in UTC."""
        return end_of_day(self.day)


def end_of_day(day: date) -> datetime:
    """The last instant (23:59:59.999999) of ``day`` as an aware UTC datetime."""
    return datetime.combine(day, time.max, tzinfo=UTC)


def _today(at: datetime) -> date:
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).date()


_WEEKDAYS: dict[str, int] = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
_ZH_WEEKDAYS: dict[str, int] = {
    "一": 0,
    "二": 1,
    "三": 2,
    "四": 3,
    "五": 4,
    "六": 5,
    "日": 6,
    "天": 6,
    "末": 5,
    "1": 0,
    "2": 1,
    "3": 2,
    "4": 3,
    "5": 4,
    "6": 5,
    "7": 6,
}
_MONTHS: dict[str, int] = {}
for _i, _name in enumerate(calendar.month_name):
    if _name:
        _MONTHS[_name.lower()] = _i
        _MONTHS[_name[:3].lower()] = _i
_MONTHS["sept"] = 9

_WD = (
    r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)"
)
_MON = (
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
_EN_NUM = (
    r"(?P<n>\d{1,3}|a couple of|a few|an|a|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|eleven|twelve|fifteen|twenty|thirty|several)"
)
_UNIT = r"(?P<unit>day|week|fortnight|month|year)s?"
_ZH_NUM = r"(?P<n>\d{1,3}|[零一二两三四五六七八九十百]{1,4}|半)"
_ZH_UNIT = r"(?P<unit>天|日|周|星期|礼拜|个星期|个礼拜|个月|月|年)"
_ZH_DAY = r"(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})"
_ZH_MONTH = r"(?P<m>\d{1,2}|[一二三四五六七八九十]{1,3})"
_FLAGS = re.IGNORECASE

_OFFSET_WORDS: dict[str, int] = {
    "the day before yesterday": -2,
    "day before yesterday": -2,
    "the day after tomorrow": 2,
    "day after tomorrow": 2,
    "yesterday": -1,
    "today": 0,
    "tonight": 0,
    "this morning": 0,
    "this afternoon": 0,
    "this evening": 0,
    "last night": -1,
    "tomorrow": 1,
    "大前天": -3,
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "昨晚": -1,
    "今天": 0,
    "今日": 0,
    "今晚": 0,
    "明天": 1,
    "明日": 1,
    "明晚": 1,
    "后天": 2,
    "大后天": 3,
}
_OFFSET_RE = re.compile(
    r"\b(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)\b"
    r"|\b(?:yesterday|today|tonight|tomorrow|this\s+(?:morning|afternoon|evening)|last\s+night)\b"
    r"|大前天|大后天|前天|昨天|昨日|昨晚|今天|今日|今晚|明天|明日|明晚|(?<![以然之])后天",
    _FLAGS,
)
_EN_WD_RE = re.compile(r"\b(?P<dir>last|next|this|coming|past)\s+" + _WD + r"\b", _FLAGS)
_EN_AGO_RE = re.compile(
    r"\b" + _EN_NUM + r"\s+" + _UNIT + r"\s+(?P<dir>ago|earlier|before|later|from\s+now|after)\b",
    _FLAGS,
)
_EN_IN_RE = re.compile(r"\bin\s+" + _EN_NUM + r"\s+" + _UNIT + r"\b(?!\s+ago)", _FLAGS)
_ISO_RE = re.compile(r"\b(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})\b")
_EN_DMY_RE = re.compile(
    r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MON + r"\b\.?(?:,?\s+(?P<y>\d{4})\b)?",
    _FLAGS,
)
_EN_MDY_RE = re.compile(
    r"\b" + _MON + r"\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\b(?!:)(?:,?\s+(?P<y>\d{4})\b)?", _FLAGS
)
_ZH_WD_RE = re.compile(
    r"(?P<dir>上上|下下|上|下|这|本|这个|今)(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])"
)
_ZH_AGO_RE = re.compile(_ZH_NUM + r"\s*" + _ZH_UNIT + r"(?P<dir>以前|之前|以后|之后|前|后)")
#: A weekday said bare ("我周五有个面试", "星期三有考试"): the next one from today on, as a
#: plan or an appointment names it (a directed one, "下周五" / "上周三", is ``_ZH_WD_RE``'s).
_ZH_BARE_WD_RE = re.compile(
    r"(?<![上下这本今个每到至])(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])(?![一二三四五六日天1-7到至])"
)
_ZH_YMD_RE = re.compile(
    r"(?:(?P<y>\d{4})\s*年\s*)?" + _ZH_MONTH + r"\s*月\s*" + _ZH_DAY + r"\s*[日号]"
)


def _num(text: str) -> int | None:
    if text == "半":
        return None
    return parse_number(text)


def _shift(today: date, n: int, unit: str) -> date:
    unit = unit.lower()
    if unit in ("day", "天", "日"):
        return today + timedelta(days=n)
    if unit in ("week", "周", "星期", "礼拜", "个星期", "个礼拜"):
        return today + timedelta(weeks=n)
    if unit == "fortnight":
        return today + timedelta(weeks=2 * n)
    delta = relativedelta(months=n) if unit in ("month", "个月", "月") else relativedelta(years=n)
    shifted: date = today + delta
    return shifted


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _r_offset(m: re.Match[str], today: date) -> date | None:
    word = " ".join(m.group(0).lower().split())
    return today + timedelta(days=_OFFSET_WORDS[word])


def _r_en_wd(m: re.Match[str], today: date) -> date | None:
    wd = _WEEKDAYS[m.group("wd").lower()]
    direction = m.group("dir").lower()
    if direction in ("last", "past"):
        delta = (today.weekday() - wd) % 7 or 7
        return today - timedelta(days=delta)
    if direction in ("next", "coming"):
        delta = (wd - today.weekday()) % 7 or 7
        return today + timedelta(days=delta)
    return today + timedelta(days=wd - today.weekday())


def _r_en_ago(m: re.Match[str], today: date) -> date | None:
    n = _num(m.group("n").lower())
    if n is None:
        return None
    past = m.group("dir").lower() in ("ago", "earlier", "before")
    return _shift(today, -n if past else n, m.group("unit"))


def _r_en_in(m: re.Match[str], today: date) -> date | None:
    n = _num(m.group("n").lower())
    return None if n is None else _shift(today, n, m.group("unit"))


def _r_iso(m: re.Match[str], today: date) -> date | None:
    return _safe_date(int(m.group("y")), int(m.group("m")), int(m.group("d")))


def _r_en_named(m: re.Match[str], today: date) -> date | None:
    year = int(m.group("y")) if m.group("y") else today.year
    return _safe_date(year, _MONTHS[m.group("mon").lower().rstrip(".")], int(m.group("d")))


def _r_zh_wd(m: re.Match[str], today: date) -> date | None:
    weeks = {"上上": -2, "上": -1, "下": 1, "下下": 2}.get(m.group("dir"), 0)
    monday = today - timedelta(days=today.weekday())
    return monday + timedelta(weeks=weeks, days=_ZH_WEEKDAYS[m.group("wd")])


def _r_zh_bare_wd(m: re.Match[str], today: date) -> date | None:
    return today + timedelta(days=(_ZH_WEEKDAYS[m.group("wd")] - today.weekday()) % 7)


def _r_zh_ago(m: re.Match[str], today: date) -> date | None:
    n = _num(m.group("n"))
    if n is None:
        return None
    past = m.group("dir") in ("前", "以前", "之前")
    return _shift(today, -n if past else n, m.group("unit"))


def _r_zh_ymd(m: re.Match[str], today: date) -> date | None:
    month = parse_number(m.group("m"))
    day = parse_number(m.group("d"))
    if month is None or day is None:
        return None
    year = int(m.group("y")) if m.group("y") else today.year
    return _safe_date(year, month, day)


_Resolver = Callable[[re.Match[str], date], date | None]
_PATTERNS: tuple[tuple[re.Pattern[str], _Resolver], ...] = (
    (_ISO_RE, _r_iso),
    (_ZH_YMD_RE, _r_zh_ymd),
    (_EN_DMY_RE, _r_en_named),
    (_EN_MDY_RE, _r_en_named),
    (_EN_AGO_RE, _r_en_ago),
    (_EN_IN_RE, _r_en_in),
    (_EN_WD_RE, _r_en_wd),
    (_ZH_WD_RE, _r_zh_wd),
    (_ZH_BARE_WD_RE, _r_zh_bare_wd),
    (_ZH_AGO_RE, _r_zh_ago),
    (_OFFSET_RE, _r_offset),
)
#: Substrings one of which every date expression contains (a cheap pre-filter).
_HINT_WORDS = (
    "0 1 2 3 4 5 6 7 8 9 day week month year night morning tomorrow evening afternoon mon tue"
    " wed thu fri sat sun jan feb mar apr may jun jul aug sep oct nov dec fortnight"
    " 天 日 周 星期 礼拜 月 年 晚 号"
)
DATE_HINTS: tuple[str, ...] = tuple(_HINT_WORDS.split())
_DIGIT_OR_WORD_HINT = re.compile("|".join(re.escape(h) for h in DATE_HINTS), _FLAGS)


def _scan(text: str, today: date) -> Iterator[ResolvedDate]:
    found: list[ResolvedDate] = []
    taken = bytearray(len(text))  # offsets already claimed by a more specific pattern
    for pattern, resolve in _PATTERNS:
        for m in pattern.finditer(text):
            if any(taken[m.start() : m.end()]):
                continue
            day = resolve(m, today)
            if day is not None:
                found.append(ResolvedDate(m.group(0), m.start(), m.end(), day))
                taken[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    yield from sorted(found, key=lambda r: r.start)


def resolve_dates(text: str, at: datetime) -> list[ResolvedDate]:
    """Find and resolve the date expressions in ``text`` relative to ``at``.

    Args:
        text: any text (English, Chinese or mixed); never raises on odd input.
        at: the time the text was said (aware; naive is taken as UTC).

    Returns:
        The resolved dates in order of appearance, non-overlapping (the longest,
        most specific form wins: "April 12, 2026" over "April 12").
    """
    if not text or not _DIGIT_OR_WORD_HINT.search(text):
        return []
    return list(_scan(text, _today(at)))


_UNTIL_RE = re.compile(
    r"\b(?:until|till|til|through|thru)\s+(?:the\s+end\s+of\s+)?"
    r"|(?:直到|一直到|截止到|截至|截止|持续到|到)",
    _FLAGS,
)
_BARE_WD_RE = re.compile(
    r"(?:(?:this\s+)?" + _WD + r"\b)|(?:(?:周|星期|礼拜)(?P<zwd>[一二三四五六日天1-7]))", _FLAGS
)
_FOR_SPAN_RE = re.compile(
    r"\bfor\s+(?:the\s+)?(?:(?P<next>next|coming)\s+)?(?:" + _EN_NUM + r"\s+)?" + _UNIT + r"\b",
    _FLAGS,
)
_ZH_SPAN_RE = re.compile(
    r"(?:这|接下来的?|未来)\s*(?P<n>\d{1,3}|[一二两三四五六七八九十]{1,3})\s*"
    + _ZH_UNIT
    + r"|(?P<n2>\d{1,3}|[一二两三四五六七八九十]{1,3})\s*"
    r"(?P<unit2>天|周|个星期|个月)\s*(?:内|之内|以内)"
)
_THIS_WEEK_RE = re.compile(
    r"\b(?:this\s+week\s+only|only\s+this\s+week|for\s+this\s+week|for\s+the\s+rest\s+of\s+the\s+week"
    r"|until\s+the\s+end\s+of\s+the\s+week|this\s+week)\b|这周|本周|这个星期|这星期|这礼拜",
    _FLAGS,
)
_THIS_MONTH_RE = re.compile(
    r"\b(?:this\s+month\s+only|for\s+this\s+month|this\s+month)\b|这个月|本月", _FLAGS
)
_TODAY_RE = re.compile(
    r"\b(?:just\s+for\s+today|for\s+today|today\s+only|only\s+today|for\s+tonight)\b|今天先|今天就|仅今天|只限今天",
    _FLAGS,
)


def parse_until(text: str, at: datetime) -> datetime | None:
    """The end of validity a text states ("until Friday", "for the next two weeks", "到下周五").

    Args:
        text: the sentence.
        at: the time it was said.

    Returns:
        The last instant (UTC) of the day the statement stops holding, or ``None``
        when the text states no limit. Never raises.
    """
    if not text:
        return None
    today = _today(at)
    for m in _UNTIL_RE.finditer(text):
        pos = m.end()
        for pattern, resolve in _PATTERNS:
            dm = pattern.match(text, pos)
            if dm is not None:
                day = resolve(dm, today)
                if day is not None:
                    return end_of_day(day)
        bm = _BARE_WD_RE.match(text, pos)
        if bm is not None:
            wd = (
                _WEEKDAYS[bm.group("wd").lower()]
                if bm.group("wd")
                else _ZH_WEEKDAYS[bm.group("zwd")]
            )
            return end_of_day(today + timedelta(days=(wd - today.weekday()) % 7))
    fm = _FOR_SPAN_RE.search(text)
    if fm is not None and (fm.group("n") or fm.group("next")):
        n = _num(fm.group("n").lower()) if fm.group("n") else 1
        if n is not None:
            return end_of_day(_shift(today, n, fm.group("unit")))
    zm = _ZH_SPAN_RE.search(text)
    if zm is not None:
        n = _num(zm.group("n") or zm.group("n2"))
        if n is not None:
            return end_of_day(_shift(today, n, zm.group("unit") or zm.group("unit2")))
    if _TODAY_RE.search(text):
        return end_of_day(today)
    if _THIS_WEEK_RE.search(text):
        return end_of_day(today + timedelta(days=6 - today.weekday()))
    if _THIS_MONTH_RE.search(text):
        last = calendar.monthrange(today.year, today.month)[1]
        return end_of_day(today.replace(day=last))
    return None
